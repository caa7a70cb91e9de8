"""Per-language word lists of the translation checks, read from curation/checks/lexicon/<code>.toml.

What a check needs to know about a language's words lives in those files, not in code, so a reviewer can correct
or extend it: the alphabet, the conjunctions and the words a tag never ends with, the English loans the language
writes as they are, a spelling it never has, and the words that give each neighbour language away (the keys are
described in lexicon/README.md).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

FOLDER = Path(__file__).with_name("lexicon")


@dataclass(frozen=True)
class Lexicon:
    """One language's lists; empty for a language without a file."""

    code: str
    alphabet: frozenset[str] = frozenset()
    conjunctions: frozenset[str] = frozenset()
    conjunction_prefix: str = ""
    tag_tail: frozenset[str] = frozenset()
    loans: frozenset[str] = frozenset()
    spelling: re.Pattern[str] | None = None
    spelling_note: str = ""
    native_ending: re.Pattern[str] | None = None
    phrase_end: re.Pattern[str] | None = None  # a piece of a sentence ending so before a comma is no clause
    neighbour_words: dict[str, frozenset[str]] = field(default_factory=dict)
    neighbour_endings: dict[str, re.Pattern[str]] = field(default_factory=dict)  # a word ending so is the neighbour's
    needs_evidence: frozenset[str] = frozenset()  # neighbours lingua alone may not name
    evidence_words: dict[str, frozenset[str]] = field(default_factory=dict)  # ... and the words that let it
    frequency_neighbours: tuple[str, ...] = ()  # neighbours whose everyday words give a slip away (word frequencies)
    one_word_terms: frozenset[str] = frozenset()  # English only
    function_words: frozenset[str] = frozenset()  # English only
    tells: frozenset[str] = frozenset()  # English only
    kept_terms: frozenset[str] = frozenset()  # English only


@lru_cache(maxsize=None)
def lexicon(code: str) -> Lexicon:
    """The lists of a language (ISO 639-1 code)."""
    path = FOLDER / f"{code}.toml"
    if not path.exists():
        return Lexicon(code, alphabet=frozenset(_rival_alphabets().get(code, "")))
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return Lexicon(
        code=code,
        alphabet=frozenset(data.get("alphabet", "")),
        conjunctions=frozenset(data.get("conjunctions", ())),
        conjunction_prefix=data.get("conjunction_prefix", ""),
        tag_tail=frozenset(data.get("tag_tail", ())),
        loans=frozenset(data.get("loans", ())),
        spelling=re.compile(data["spelling"]) if data.get("spelling") else None,
        spelling_note=data.get("spelling_note", ""),
        native_ending=re.compile(data["native_ending"]) if data.get("native_ending") else None,
        phrase_end=re.compile(data["phrase_end"]) if data.get("phrase_end") else None,
        neighbour_words={language: frozenset(words) for language, words in data.get("neighbour_words", {}).items()},
        neighbour_endings={language: re.compile(ending) for language, ending in data.get("neighbour_endings", {}).items()},
        needs_evidence=frozenset(data.get("needs_evidence", ())),
        evidence_words={language: frozenset(words) for language, words in data.get("evidence_words", {}).items()},
        frequency_neighbours=tuple(data.get("frequency_neighbours", ())),
        one_word_terms=frozenset(data.get("one_word_terms", ())),
        function_words=frozenset(data.get("function_words", ())),
        tells=frozenset(data.get("tells", ())),
        kept_terms=frozenset(data.get("kept_terms", ())),
    )


@lru_cache(maxsize=1)
def _rival_alphabets() -> dict[str, str]:
    """lexicon/alphabets.toml: the letters of languages met only as rivals, which have no file of their own."""
    return tomllib.loads((FOLDER / "alphabets.toml").read_text(encoding="utf-8"))
