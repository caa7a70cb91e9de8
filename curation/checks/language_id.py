"""Offline language identification with lingua, against the world rather than the project's languages.

A translation into Arabic may come back in Persian, one into Kazakh in Kyrgyz-like Russian, one into Spanish in
Portuguese: the rivals of a target are the languages written in its script that a model confuses it with, not
the languages a project happens to translate into. WORLD lists, per script family, every language lingua knows
that is a neighbour of one of ours (Latin: the Romance, West Slavic and Turkic languages and English; Cyrillic:
all eight lingua knows; Arabic: Arabic, Persian, Urdu; CJK: Chinese and Japanese). All of lingua's 75 would cost
1.1 GB of memory and half a minute to load; these 25 cost about 0.6 GB when every script is in use.

One detector serves the process; lingua loads a language's models the first time a text in its script needs
them, or those of the targets' scripts at once after `preload(languages)` (what the translate checks' own process
does while the run is still describing). Either way lingua holds the GIL for seconds while it loads. Confidences
are renormalized over the candidates a caller names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from lingua import IsoCode639_1, Language, LanguageDetector, LanguageDetectorBuilder

from curation.languages import LANGUAGES

WORLD: dict[str, tuple[str, ...]] = {
    "Latin": ("en", "fr", "it", "es", "pt", "ca", "ro", "pl", "cs", "sk", "tr", "az"),
    "Cyrillic": ("ru", "be", "uk", "bg", "mk", "sr", "kk", "mn"),
    "Arabic": ("ar", "fa", "ur"),
    "CJK": ("zh", "ja"),
}
_FAMILY = {"Latin": "Latin", "Cyrillic": "Cyrillic", "Arabic": "Arabic", "Han": "CJK", "Japanese": "CJK"}



def _iso(code: str) -> Language:
    return Language.from_iso_code_639_1(getattr(IsoCode639_1, code.upper()))


_detector: LanguageDetector | None = None
_preloaded: dict[str, LanguageDetector] = {}  # script family -> the detector that loaded its models


def _build(codes, preload: bool) -> LanguageDetector:
    builder = LanguageDetectorBuilder.from_languages(*map(_iso, sorted(codes)))
    return (builder.with_preloaded_language_models() if preload else builder).build()


def detector() -> LanguageDetector:
    """The one lingua detector of the process, over every language of WORLD."""
    global _detector
    if _detector is None:
        _detector = _build({c for f in WORLD.values() for c in f}, preload=False)
    return _detector


def families(languages: Iterable[str]) -> list[str]:
    """The WORLD script families the targets are written in (Latin, Cyrillic, Arabic, CJK)."""
    return sorted({_FAMILY[LANGUAGES[code].script] for code in languages if code in LANGUAGES})


def preload(languages: Iterable[str] | None = None) -> None:
    """Load now, rather than when a text first needs them, the models of every WORLD language written in the script
    of one of `languages` (every script without them); each family once a process.

    lingua keeps its models in one store per process, shared by every detector: a detector over one family built
    with its models preloaded loads exactly that family (Cyrillic 0.25 GB, Latin 0.37 GB, Arabic 0.09 GB), and the
    process's detector, still over all of WORLD, finds them there and answers as it would have. A script no target
    is written in (Latin English left in a Kazakh text) loads when a text first needs it."""
    wanted = list(WORLD) if languages is None else families(languages)
    for family in wanted:
        if family not in _preloaded:
            # Kept, so that nothing frees what it loaded.
            _preloaded[family] = _build(WORLD[family], preload=True)
    detector()


def rivals(language: str) -> tuple[str, ...]:
    """The target, English and every WORLD language written in the target's script."""
    family = WORLD[_FAMILY[LANGUAGES[language].script]] if language in LANGUAGES else ()
    return tuple(dict.fromkeys((language, "en", *family)))


def confidences(text: str, candidates: tuple[str, ...]) -> dict[str, float]:
    """Confidence per candidate ISO code that the text is in that language, summing to 1 over the candidates."""
    values = _all_confidences(text)
    scores = {code: values.get(code, 0.0) for code in candidates}
    total = sum(scores.values())
    if total <= 0:
        return {code: 0.0 for code in candidates}
    return {code: score / total for code, score in scores.items()}


@lru_cache(maxsize=8192)
def _all_confidences(text: str) -> dict[str, float]:
    # A sentence comes back often: in every retry of a translation, in the other checks, in review.
    return {value.language.iso_code_639_1.name.lower(): value.value
            for value in detector().compute_language_confidence_values(text)}


def segments(text: str) -> list[tuple[int, str]]:
    """(line number, sentence) pairs of a text: the sentences of its paragraphs and list items, a hard-wrapped
    paragraph read as one (curation/checks/segments.py)."""
    from curation.checks.segments import sentences

    return [(sentence.line, sentence.text) for sentence in sentences(text)]


def clear_cache() -> None:
    """Forget what was read so far (benchmarks time each text as new)."""
    _all_confidences.cache_clear()
