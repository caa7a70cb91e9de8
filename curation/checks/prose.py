"""What a person actually translated: a text without its protected spans, cut into words and sentences.

The checks read prose, not identifiers: `train.csv`, `SalePrice` or ROC AUC say nothing about the language a
text is in, and are the placeholders check's business.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable
from functools import lru_cache

from curation.checks.masking import PLACEHOLDER, mask_identifiers
from curation.checks.scripts import letter_script

# A sentence this long (words and letters, once identifiers are out) is enough for lingua to be trusted on it;
# shorter ones need hard evidence.
LONG_WORDS = 5
LONG_LETTERS = 30
LONG_CJK_CHARS = 12

# A full stop ends a sentence when the next one starts with a capital, a digit or a letter of a caseless
# script; CJK and Arabic marks end one wherever they are. Abbreviations (e.g., U.S., etc.) end none.
_END = re.compile(r"[.!?؟…।॥։۔]+[\"'»”)]*\s+(?=[^\s])|[。！？]+[」』”)]*")
_ABBREVIATION = re.compile(r"(?:\b[A-Za-z]\.[A-Za-z]\.?|\b(?:etc|vs|approx|incl|fig|no|dr|mr|mrs|ms|st|inc|ltd|jr|sr|al|"
                           r"т|д|п|др|стр|напр|г|гг|см|тыс|млн|млрд)\.)\s*$", re.IGNORECASE)


def prose(text: str, names: Iterable[str] = ()) -> str:
    """The text with its protected spans and any placeholders taken out: what a person actually translated."""
    return _prose(text, tuple(names))


def prose_size(text: str, names: Iterable[str] = ()) -> int:
    """Characters of prose: what a translator writes anew (identifiers, numbers and punctuation left out)."""
    return len(" ".join(re.sub(r"[\d\W_]+", " ", prose(text, names)).split()))


@lru_cache(maxsize=1024)
def _prose(text: str, names: tuple[str, ...]) -> str:
    # Every check reads the prose of the same two texts: mask them once.
    return PLACEHOLDER.sub(" ", mask_identifiers(text, names).text)


def in_capitals(word: str) -> bool:
    """Whether a word is an abbreviation written in capitals ("VIP", "ЖОО"): a code, not a word of the language."""
    return len(word) > 1 and word.isupper()


def proper_names(source: str, names: Iterable[str] = ()) -> tuple[str, ...]:
    """Words the English writes as names, which a translation keeps as they are: capitalized words inside a sentence
    (Cherbourg, Figure Eight, Mr.), codes and acronyms (Ex, Gd, TA, VIP). They say nothing of the language a text
    is in, so the language checks read a translation without them."""
    from curation.checks.segments import sentences

    found: set[str] = set()
    for sentence in sentences(prose(source, names)):
        # a name's accented letters are its own ("Jaén", "Córdoba"): cut at them, "Ja" was a name and "én" Turkish prose
        for position, word in enumerate(re.findall(r"[^\W\d_]+", sentence.text)):
            if word[0].isupper() and (position or in_capitals(word)):
                found.add(word)
                if word.endswith("s") and word[:-1].isupper():
                    found.add(word[:-1])  # URLs: URL
    return tuple(sorted(found))


def normal(text: str) -> str:
    """Case-, width- and punctuation-blind form of a text, for telling whether two texts are the same."""
    return " ".join(re.sub(r"[^\w\s]", " ", unicodedata.normalize("NFKC", text).casefold()).split())


def words(text: str) -> list[str]:
    """The words of a text (letters, with apostrophes inside: комп'ютарны; digits and punctuation split them)."""
    return re.findall(r"[^\W\d_]+(?:['’ʼ][^\W\d_]+)*", text)


# A term's gloss in brackets after it, as ML texts write it ("стандартное отклонение (std)", "karekök ortalama kare
# hata (root mean squared error)", "дәлдік (precision)"): one to five words, alone in the brackets.
GLOSS = re.compile(r"[(（]\s*([^\W\d_][^\W\d_\-]*(?:\s+[^\W\d_][^\W\d_\-]*){0,4})\s*[)）]")


def without_glosses(text: str, english: Collection[str]) -> str:
    """A translation without its English glosses in brackets whose every word is one of `english` (lowercase words of
    the source and of its terms' English forms): a loan term, not a neighbour's spelling. A gloss of another term
    ("полнота (precision)" where the English says recall) stays for the checks to see."""
    def kept(gloss: re.Match[str]) -> str:
        said = all(word.casefold() in english for word in re.split(r"[\s\-]+", gloss.group(1)))
        return " " if said else gloss.group(0)

    return GLOSS.sub(kept, text)


def is_long(sentence: str) -> bool:
    """Long enough for language identification to be trusted on it."""
    cjk = sum(1 for char in sentence if letter_script(char) in ("Han", "Kana"))
    letters = sum(1 for char in sentence if char.isalpha())
    return cjk >= LONG_CJK_CHARS or (cjk == 0 and len(words(sentence)) >= LONG_WORDS and letters >= LONG_LETTERS)


def quote(text: str, limit: int = 60) -> str:
    """A text shortened for a one-line message."""
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[:limit - 1] + "…")


def sentence_count(line: str) -> int:
    """How many sentences one line holds (a line with letters but no end mark is one)."""
    count, start = 0, 0
    for match in _END.finditer(line):
        before = line[start:match.start() + 1]
        following = line[match.end():match.end() + 1]
        if match.group(0)[0] in ".!?…" and following and (following.islower() or _ABBREVIATION.search(before)):
            continue  # "e.g. the", "т. е.": not an end
        if any(char.isalpha() for char in line[start:match.start()]):
            count += 1
        start = match.end()
    return count + any(char.isalpha() for char in line[start:])


def clear_cache() -> None:
    """Forget what was read so far (benchmarks time each text as new)."""
    _prose.cache_clear()
