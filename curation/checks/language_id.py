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

Nine of WORLD's rivals (LONG_ONLY: Catalan, Czech, Slovak, Azerbaijani, Macedonian, Serbian, Mongolian, Persian,
Urdu) are read on sentences of 120 letters or more only, unless one is the language a text should be in. From 120
letters lingua reads trigrams alone, so a detector in its low-accuracy mode (trigrams only) gives there exactly the
confidences its full detector would, and those nine need no more than their trigram models: about 200 MB less
(every n-gram of all 25 held 0.62 GB, the sixteen others whole and the nine's trigrams 0.42 GB). A short sentence
(a tag) is read against the sixteen others: the targets, English and the nearest neighbours (Portuguese for
Spanish, Ukrainian and Bulgarian for Russian, Belarusian and Kazakh); a Catalan tag for a French target is missed.

lingua loads a language's models the first time a text in its script needs them, or a target's rivals at once after
`preload(languages)` (what the translate checks' own process does as a language's first text goes out). Either way
lingua holds the GIL for seconds while it loads. Confidences are renormalized over the candidates a caller names.
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
# WORLD's rivals that no default target is and that are not the nearest neighbour of one: read on long sentences only.
LONG_ONLY = frozenset({"ca", "cs", "sk", "az", "mk", "sr", "mn", "fa", "ur"})
# From this many letters lingua reads a text's trigrams alone (measured on lingua 2.1: 119 letters still used every
# n-gram, 120 gave the low-accuracy mode's confidences to the digit).
LONG = 120
# Close relatives among the Latin-script languages a curator may add beyond WORLD: such a target's rivals are WORLD's
# Latin languages and its group (German's are Dutch, Afrikaans, the Scandinavian languages and Icelandic).
NEAR: tuple[tuple[str, ...], ...] = (
    ("de", "nl", "af", "da", "sv", "nb", "nn", "is"), ("hr", "bs", "sl"), ("lt", "lv"), ("fi", "et", "hu"),
    ("id", "ms", "tl"), ("ga", "cy"), ("sw", "zu", "xh", "st", "tn", "ts", "sn", "lg"),
)


def _iso(code: str) -> Language:
    return Language.from_iso_code_639_1(getattr(IsoCode639_1, code.upper()))


_detectors: dict[tuple[frozenset[str], bool], LanguageDetector] = {}  # (languages, trigrams only) -> the detector
_preloaded: dict[tuple[frozenset[str], bool], LanguageDetector] = {}  # what was loaded -> who loaded it


def _build(codes, preload: bool, trigrams_only: bool = False) -> LanguageDetector:
    builder = LanguageDetectorBuilder.from_languages(*map(_iso, sorted(codes)))
    if trigrams_only:
        builder = builder.with_low_accuracy_mode()
    return (builder.with_preloaded_language_models() if preload else builder).build()


def _over(candidates: Iterable[str]) -> frozenset[str]:
    """The languages a detector must know to judge these candidates: WORLD's, and any candidate beyond it. A project
    of WORLD's languages alone is judged exactly as it always was."""
    extra = frozenset(candidates) - _WORLD
    return _WORLD | extra if extra else _WORLD


def _letters(text: str) -> int:
    return sum(character.isalpha() for character in text)


def _read_over(text: str, candidates: tuple[str, ...]) -> tuple[frozenset[str], bool]:
    """The languages a text is read against, and whether by trigrams alone: a long text against all of them (trigrams
    are all lingua reads there anyway), a short one without LONG_ONLY, but for the language it should be in."""
    over = _over(candidates)
    if _letters(text) >= LONG:
        return over, True
    own = candidates[:1]
    return over - (LONG_ONLY - frozenset(own)), False


def _detector(over: frozenset[str], trigrams_only: bool) -> LanguageDetector:
    if (over, trigrams_only) not in _detectors:
        _detectors[over, trigrams_only] = _build(over, preload=False, trigrams_only=trigrams_only)
    return _detectors[over, trigrams_only]


def _script_family(code: str) -> str:
    return family(SUPPORTED[code].script)


def families(languages: Iterable[str]) -> list[str]:
    """The script families the targets are written in (Latin, Cyrillic, Arabic, CJK, Devanagari, Hangul, ...)."""
    return sorted({_script_family(code) for code in languages if code in SUPPORTED})


def preload(languages: Iterable[str] | None = None) -> None:
    """Load now, rather than when a text first needs them, the models of every rival written in the script of one of
    `languages` (every WORLD family without them): every n-gram of the targets and their nearest rivals, the trigrams
    of LONG_ONLY's; each set once a process.

    lingua keeps its models in one store per process, shared by every detector: a detector built with its languages'
    models preloaded loads exactly those (with the twelve default targets, every script: 0.42 GB), and
    the detectors `confidences` reads with find them there and answer as they would have. A script no target is
    written in (Latin English left in a Kazakh text) loads when a text first needs it."""
    targets = frozenset(languages or ())
    if languages is None:
        groups = [frozenset(members) for members in WORLD.values()]
    else:
        groups = [frozenset(WORLD.get(name, ())) for name in families(languages)]
        # a target beyond WORLD adds its own rivals of its script (German: Dutch, Danish, ...; Hindi: Marathi)
        groups += [frozenset(c for c in rivals(code) if _script_family(c) == _script_family(code))
                   for code in languages if code in SUPPORTED and code not in _WORLD]
    for group in groups:
        whole = group - (LONG_ONLY - targets)
        for members, trigrams_only in ((whole, False), (group - whole, True)):
            # every n-gram loaded covers a trigrams-only need, not the other way round
            if members and not any(members <= done and (trigrams_only or not low) for done, low in _preloaded):
                # Kept, so that nothing frees what it loaded. A script at a time: a language at a time holds 120 MB
                # more (lingua 2.1, the twelve default targets).
                _preloaded[members, trigrams_only] = _build(members, preload=True, trigrams_only=trigrams_only)


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
    """Confidence per candidate ISO code that the text is in that language, summing to 1 over the candidates; the
    first candidate is the language the text should be in (`rivals` puts it there)."""
    values = _all_confidences(text, *_read_over(text, candidates))
    scores = {code: values.get(code, 0.0) for code in candidates}
    total = sum(scores.values())
    if total <= 0:
        return {code: 0.0 for code in candidates}
    return {code: score / total for code, score in scores.items()}


@lru_cache(maxsize=8192)
def _all_confidences(text: str, over: frozenset[str], trigrams_only: bool) -> dict[str, float]:
    # A sentence comes back often: in every retry of a translation, in the other checks, in review.
    return {value.language.iso_code_639_1.name.lower(): value.value
            for value in _detector(over, trigrams_only).compute_language_confidence_values(text)}


def segments(text: str) -> list[tuple[int, str]]:
    """(line number, sentence) pairs of a text: the sentences of its paragraphs and list items, a hard-wrapped
    paragraph read as one (curation/checks/segments.py)."""
    from curation.checks.segments import sentences

    return [(sentence.line, sentence.text) for sentence in sentences(text)]


def clear_cache() -> None:
    """Forget what was read so far (benchmarks time each text as new)."""
    _all_confidences.cache_clear()
