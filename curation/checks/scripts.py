"""Writing systems of letters, for the script check and for picking language-ID candidates.

The registry (curation/languages.py) names each language's script: Latin, Cyrillic, Arabic, Han, Japanese.
Japanese text is Han plus kana; Chinese text is Han only. Digits, punctuation and symbols belong to no script.
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
}

# Scripts whose languages a language identifier has to tell apart (Chinese and Japanese share Han).
FAMILY = {"Latin": "Latin", "Cyrillic": "Cyrillic", "Arabic": "Arabic", "Han": "CJK", "Japanese": "CJK"}

_PREFIXES = (
    ("LATIN", "Latin"), ("CYRILLIC", "Cyrillic"), ("ARABIC", "Arabic"), ("CJK", "Han"), ("IDEOGRAPHIC", "Han"),
    ("HIRAGANA", "Kana"), ("KATAKANA", "Kana"), ("HALFWIDTH KATAKANA", "Kana"), ("GREEK", "Greek"),
    ("HEBREW", "Hebrew"), ("HANGUL", "Hangul"), ("DEVANAGARI", "Devanagari"),
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
