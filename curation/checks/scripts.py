"""Writing systems of letters, for the script check and for picking language-ID candidates.

The registry (curation/languages.py) names each language's script: Latin, Cyrillic, Arabic, Han, Japanese, and for
the languages a curator may add, Devanagari, Hangul, Greek, Hebrew, Thai, Georgian, Armenian, Bengali, Gujarati,
Gurmukhi, Tamil, Telugu. Japanese text is Han plus kana; Chinese text is Han only. Digits, punctuation, symbols and
the vowel signs of the Indic scripts (combining marks, not letters) belong to no script.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from functools import lru_cache

# Letter classes each registry script accepts.
ALLOWED: dict[str, frozenset[str]] = {
    "Latin": frozenset({"Latin"}),
    "Cyrillic": frozenset({"Cyrillic"}),
    "Arabic": frozenset({"Arabic"}),
    "Han": frozenset({"Han"}),
    "Japanese": frozenset({"Han", "Kana"}),
    # Korean writes Hangul; a rare Hanja word stays within the share of foreign letters the script check allows.
    **{script: frozenset({script}) for script in ("Devanagari", "Hangul", "Greek", "Hebrew", "Thai", "Georgian",
                                                  "Armenian", "Bengali", "Gujarati", "Gurmukhi", "Tamil", "Telugu")},
}


def family(script: str) -> str:
    """The group of scripts whose languages a language identifier has to tell apart: Chinese and Japanese share Han
    (CJK); every other script is its own."""
    return "CJK" if script in ("Han", "Japanese") else script


_PREFIXES = (
    ("LATIN", "Latin"), ("CYRILLIC", "Cyrillic"), ("ARABIC", "Arabic"), ("CJK", "Han"), ("IDEOGRAPHIC", "Han"),
    ("HIRAGANA", "Kana"), ("KATAKANA", "Kana"), ("HALFWIDTH KATAKANA", "Kana"), ("GREEK", "Greek"),
    ("HEBREW", "Hebrew"), ("HANGUL", "Hangul"), ("DEVANAGARI", "Devanagari"), ("THAI", "Thai"), ("GEORGIAN", "Georgian"),
    ("ARMENIAN", "Armenian"), ("BENGALI", "Bengali"), ("GUJARATI", "Gujarati"), ("GURMUKHI", "Gurmukhi"),
    ("TAMIL", "Tamil"), ("TELUGU", "Telugu"),
)


@lru_cache(maxsize=8192)
def letter_script(char: str) -> str | None:
    """The script class of a letter (Latin, Cyrillic, Arabic, Han, Kana, ...), or None for a non-letter."""
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    for prefix, script in _PREFIXES:
        if name.startswith(prefix):
            return script
    return "Other"


def letter_scripts(text: str) -> Counter[str]:
    """How many letters of each script class a text holds."""
    return Counter(script for script in map(letter_script, text) if script)


def has_kana(text: str) -> bool:
    """True when the text holds hiragana or katakana: Japanese, not Chinese."""
    return any(letter_script(char) == "Kana" for char in text)
