"""A negated English word said with a negative prefix in the translation: "the errors are not symmetric" as "les erreurs
sont asymétriques", "gli errori sono asimmetrici"; "not valid" as "invalide". The meaning check counts such a word as
a rendering of the negation (curation/checks/meaning.py).

The prefixes are data, in each language's word file (`privative`, curation/checks/meaning_words/). A word is the
English one with a prefix when, past the prefix, its first STEM letters are those of the English word, both read
without accents, doubled letters, y for i, ph, th and k (the spellings cognates differ in: symmetric, simmetrico,
simétrico, symétrique).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

STEM = 5  # letters of the stem that must agree: "simet", "valid", "compl"
# An English negation and the word it negates, past a copula or an adverb ("are not symmetric", "is not always valid").
_NEGATED = re.compile(r"(?<![^\W\d_])(?:not|never|n't)\s+(?:(?:be|been|always|very|fully|entirely|quite|yet)\s+)?"
                      r"([a-z]{5,})")
_SPELLINGS = (("ph", "f"), ("th", "t"), ("y", "i"), ("k", "c"))


def _plain(word: str) -> str:
    letters = "".join(char for char in unicodedata.normalize("NFD", word.casefold()) if not unicodedata.combining(char))
    for spelled, said in _SPELLINGS:
        letters = letters.replace(spelled, said)
    return re.sub(r"(.)\1+", r"\1", letters)


def negated_words(english: Iterable[str]) -> set[str]:
    """The stems of the words the English sentences negate."""
    return {_plain(word)[:STEM] for text in english for word in _NEGATED.findall(text.casefold())
            if len(_plain(word)) >= STEM}


def said_with_prefix(english: Iterable[str], translated: Iterable[str], prefixes: Iterable[str]) -> int:
    """How many words of the translated sentences are a word the English negates with a negative prefix."""
    stems = negated_words(english)
    if not stems:
        return 0
    prefixes = sorted({_plain(prefix) for prefix in prefixes}, key=len, reverse=True)
    found = 0
    for text in translated:
        for word in re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)?", text):
            plain = _plain(word).replace("-", "")
            found += any(plain.startswith(prefix) and plain[len(prefix):len(prefix) + STEM] in stems
                         for prefix in prefixes if len(plain) - len(prefix) >= STEM)
    return found
