"""Offline language identification with lingua, restricted to the project's languages.

Building a lingua detector loads its models (about a second), so one detector is built per set of languages
and kept for the life of the process. Confidences are renormalized over the candidates a caller names, which
is how the checks ask "which of the languages written in this script is it?".
"""

from __future__ import annotations

import re
from functools import lru_cache

from lingua import IsoCode639_1, Language, LanguageDetector, LanguageDetectorBuilder

# Sentence ends in the scripts we handle; CJK full stops need no space after them.
_SENTENCE_END = re.compile(r"(?<=[.!?؟…])\s+|(?<=[。！？])")


@lru_cache(maxsize=4)
def detector(codes: tuple[str, ...]) -> LanguageDetector:
    """One lingua detector for these ISO codes, built once per process."""
    languages = [Language.from_iso_code_639_1(getattr(IsoCode639_1, code.upper())) for code in sorted(set(codes))]
    return LanguageDetectorBuilder.from_languages(*languages).with_preloaded_language_models().build()


def confidences(text: str, codes: tuple[str, ...], candidates: tuple[str, ...]) -> dict[str, float]:
    """Confidence per candidate ISO code that the text is in that language, summing to 1 over the candidates."""
    values = {value.language.iso_code_639_1.name.lower(): value.value
              for value in detector(codes).compute_language_confidence_values(text)}
    scores = {code: values.get(code, 0.0) for code in candidates}
    total = sum(scores.values())
    if total <= 0:
        return {code: 0.0 for code in candidates}
    return {code: score / total for code, score in scores.items()}


def segments(text: str) -> list[tuple[int, str]]:
    """(line number, sentence) pairs of a text: each non-empty line, split into sentences."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for sentence in _SENTENCE_END.split(line):
            if sentence.strip():
                found.append((number, sentence.strip()))
    return found
