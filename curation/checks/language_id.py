"""Offline language identification with lingua, against the world rather than the project's languages.

A translation into Arabic may come back in Persian, one into Kazakh in Kyrgyz-like Russian, one into Spanish in
Portuguese: the rivals of a target are the languages written in its script that a model confuses it with, not
the languages a project happens to translate into. WORLD lists, per script family, every language lingua knows
that is a neighbour of one of ours (Latin: the Romance, West Slavic and Turkic languages and English; Cyrillic:
all eight lingua knows; Arabic: Arabic, Persian, Urdu; CJK: Chinese and Japanese). All of lingua's 75 would cost
1.1 GB of memory and half a minute to load; these 25 cost about 0.6 GB when every script is in use.

A target a curator adds beyond them brings its own rivals (`rivals`): German its group of NEAR (Dutch, Afrikaans,
the Scandinavian languages, Icelandic) besides WORLD's Latin languages, Hindi every language lingua reads in
Devanagari (Marathi), Korean none but English. Its texts are judged by a detector over WORLD and those; a project
of WORLD's languages alone keeps the one detector over WORLD, and the answers it always had.

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

from curation.checks.scripts import family
from curation.languages import SUPPORTED

WORLD: dict[str, tuple[str, ...]] = {
    "Latin": ("en", "fr", "it", "es", "pt", "ca", "ro", "pl", "cs", "sk", "tr", "az"),
    "Cyrillic": ("ru", "be", "uk", "bg", "mk", "sr", "kk", "mn"),
    "Arabic": ("ar", "fa", "ur"),
    "CJK": ("zh", "ja"),
}
_WORLD = frozenset(code for members in WORLD.values() for code in members)
# Close relatives among the Latin-script languages a curator may add beyond WORLD: such a target's rivals are WORLD's
# Latin languages and its group (German's are Dutch, Afrikaans, the Scandinavian languages and Icelandic).
NEAR: tuple[tuple[str, ...], ...] = (
    ("de", "nl", "af", "da", "sv", "nb", "nn", "is"), ("hr", "bs", "sl"), ("lt", "lv"), ("fi", "et", "hu"),
    ("id", "ms", "tl"), ("ga", "cy"), ("sw", "zu", "xh", "st", "tn", "ts", "sn", "lg"),
)


def _iso(code: str) -> Language:
    return Language.from_iso_code_639_1(getattr(IsoCode639_1, code.upper()))


_detectors: dict[frozenset[str], LanguageDetector] = {}  # the languages a detector tells apart -> the detector
_preloaded: dict[frozenset[str], LanguageDetector] = {}  # the languages whose models were loaded -> who loaded them


def _build(codes, preload: bool) -> LanguageDetector:
    builder = LanguageDetectorBuilder.from_languages(*map(_iso, sorted(codes)))
    return (builder.with_preloaded_language_models() if preload else builder).build()


def _over(candidates: Iterable[str]) -> frozenset[str]:
    """The languages a detector must know to judge these candidates: WORLD's, and any candidate beyond it. A project
    of WORLD's languages alone is judged exactly as it always was."""
    extra = frozenset(candidates) - _WORLD
    return _WORLD | extra if extra else _WORLD


def detector(candidates: Iterable[str] = ()) -> LanguageDetector:
    """The lingua detector over every language of WORLD (and the candidates beyond it), one per such set a process."""
    over = _over(candidates)
    if over not in _detectors:
        _detectors[over] = _build(over, preload=False)
    return _detectors[over]


def _script_family(code: str) -> str:
    return family(SUPPORTED[code].script)


def families(languages: Iterable[str]) -> list[str]:
    """The script families the targets are written in (Latin, Cyrillic, Arabic, CJK, Devanagari, Hangul, ...)."""
    return sorted({_script_family(code) for code in languages if code in SUPPORTED})


def preload(languages: Iterable[str] | None = None) -> None:
    """Load now, rather than when a text first needs them, the models of every rival written in the script of one of
    `languages` (every WORLD family without them); each set once a process.

    lingua keeps its models in one store per process, shared by every detector: a detector over one family built
    with its models preloaded loads exactly that family (Cyrillic 0.25 GB, Latin 0.37 GB, Arabic 0.09 GB), and the
    process's detector, still over all of WORLD, finds them there and answers as it would have. A script no target
    is written in (Latin English left in a Kazakh text) loads when a text first needs it."""
    if languages is None:
        groups = [frozenset(members) for members in WORLD.values()]
    else:
        groups = [frozenset(WORLD.get(name, ())) for name in families(languages)]
        # a target beyond WORLD adds its own rivals of its script (German: Dutch, Danish, ...; Hindi: Marathi)
        groups += [frozenset(c for c in rivals(code) if _script_family(c) == _script_family(code))
                   for code in languages if code in SUPPORTED and code not in _WORLD]
    for group in groups:
        if group and not any(group <= done for done in _preloaded):
            # Kept, so that nothing frees what it loaded.
            _preloaded[group] = _build(group, preload=True)
    detector()


def rivals(language: str) -> tuple[str, ...]:
    """The target, English and every language it is confused with: WORLD's languages of its script family (for a
    script WORLD lacks, every language lingua reads in it: Hindi and Marathi) and its group in NEAR."""
    if language not in SUPPORTED:
        return (language, "en")
    name = _script_family(language)
    members = WORLD.get(name) or tuple(code for code in SUPPORTED if _script_family(code) == name)
    near = next((group for group in NEAR if language in group), ())
    return tuple(dict.fromkeys((language, "en", *members, *near)))


def confidences(text: str, candidates: tuple[str, ...]) -> dict[str, float]:
    """Confidence per candidate ISO code that the text is in that language, summing to 1 over the candidates."""
    values = _all_confidences(text, _over(candidates))
    scores = {code: values.get(code, 0.0) for code in candidates}
    total = sum(scores.values())
    if total <= 0:
        return {code: 0.0 for code in candidates}
    return {code: score / total for code, score in scores.items()}


@lru_cache(maxsize=8192)
def _all_confidences(text: str, over: frozenset[str]) -> dict[str, float]:
    # A sentence comes back often: in every retry of a translation, in the other checks, in review.
    return {value.language.iso_code_639_1.name.lower(): value.value
            for value in detector(over).compute_language_confidence_values(text)}


def segments(text: str) -> list[tuple[int, str]]:
    """(line number, sentence) pairs of a text: the sentences of its paragraphs and list items, a hard-wrapped
    paragraph read as one (curation/checks/segments.py)."""
    from curation.checks.segments import sentences

    return [(sentence.line, sentence.text) for sentence in sentences(text)]


def clear_cache() -> None:
    """Forget what was read so far (benchmarks time each text as new)."""
    _all_confidences.cache_clear()
