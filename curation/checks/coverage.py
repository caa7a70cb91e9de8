"""What the translation checks know of each language: which checks run on it, and what they lack for it.

Every language of the registry (curation/languages.py SUPPORTED) gets every check; what differs is how much each
was given to work with. placeholders, numbers and not_copy need nothing of the language; script needs its script;
language needs lingua's model and its rivals (curation/checks/language_id.py). The rest was measured for ML²B's
languages and is a default for an added one, said here so a curator knows before a run what a pass means:
- word lists (curation/checks/lexicon/<code>.toml): the letters, spellings and words of its neighbours, tag endings
  and loans; without them the language check rests on lingua alone;
- length bounds (`[translate] length_ratio`) and the adequacy threshold, calibrated on the calibration set for ML²B's
  targets; others get the defaults;
- adequacy: a sentence encoder trained on the language and sentence ends to align on (curation/checks/encoders.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from curation.checks.adequacy import DEFAULT_THRESHOLD, THRESHOLDS
from curation.checks.settling import TYPICAL_RATIO
from curation.checks.encoders import encoder_name, not_covered
from curation.checks.language_id import rivals
from curation.checks.lexicon import FOLDER
from curation.config import Settings
from curation.excerpt import plural
from curation.languages import Language

ENCODERS = {"use": "Universal Sentence Encoder", "e5": "multilingual-e5-small"}


@dataclass(frozen=True)
class Gap:
    """Something the checks lack for a language: what, in a few words, and what that means for a pass."""

    what: str
    meaning: str = ""

    def __str__(self) -> str:
        return f"{self.what}: {self.meaning}" if self.meaning else self.what


@dataclass(frozen=True)
class Coverage:
    """One language as the checks see it: the checks that run (with what they use) and what they lack."""

    language: Language
    checks: list[str]
    missing: list[Gap]

    @property
    def complete(self) -> bool:
        return not self.missing


def coverage(code: str, settings: Settings) -> Coverage:
    """What the checks cover of a target language, under this project's settings."""
    language = settings.language(code)
    bounds = settings.translate.length_ratio
    low, high = bounds.get(language.code, bounds["default"])
    others = [rival for rival in rivals(language.code) if rival not in (language.code, "en")]
    against = f"English and {plural(len(others), 'neighbour')}" if others else "English"
    checks = ["placeholders", "numbers",  # what the hard rules need of a language: nothing
              f"language (lingua, against {against})", f"script ({language.script})", f"length {low:.2f}-{high:.2f}",
              "not_copy"]
    missing = []
    if not (FOLDER / f"{language.code}.toml").exists():
        missing.append(Gap(f"no word lists (curation/checks/lexicon/{language.code}.toml)", "lingua alone tells it "
                           "from its neighbours; domain tags are not checked for a dangling or an added word"))
    if language.code not in TYPICAL_RATIO:
        missing.append(Gap("length bounds not measured", f"{low:.2f}-{high:.2f} are "
                           + ("an estimate" if language.code in bounds else "the default ones")))
    encoder = encoder_name(language.code)
    if not settings.translate.adequacy:
        checks.append("adequacy off ([translate] adequacy = false)")
    elif encoder is None:
        missing.append(Gap("no adequacy check", not_covered(language.code)))
    else:
        checks.append(f"adequacy ({ENCODERS[encoder]})")
        if language.code not in THRESHOLDS:
            missing.append(Gap("adequacy threshold not calibrated", f"the default {DEFAULT_THRESHOLD[encoder]:.2f}"))
    return Coverage(language, checks, missing)


def coverage_of_targets(settings: Settings) -> list[Coverage]:
    """The coverage of every target language of the project, in the configured order."""
    return [coverage(code, settings) for code in settings.project.targets]
