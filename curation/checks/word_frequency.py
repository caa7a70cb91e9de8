"""Words a neighbour language uses every day and the target next to never: evidence of a slip, from word frequencies.

The hand-made lists of curation/checks/lexicon/ name the neighbour's function words and the commonest words of task
texts; a translator who slips into Portuguese or Italian uses many more ("tienen", "rischio", "piccole"). wordfreq's
lists (frequencies read off Wikipedia, subtitles, news, books and the web; the package ships them, nothing is
downloaded) say how often a word is written in each language. A word counts as the neighbour's when it is one of the
neighbour's everyday words and a thousand times rarer in the target. The target's list is the judge of what the
target writes, so a word both languages use ("dados" is Spanish dice, "care" is Italian for dear) is nobody's
evidence, however common it is in the neighbour.

English is read the same way for a word of a domain tag that the translation shares with the English source
(curation/checks/not_copy.py): "fraud" in "detección de fraud" is an everyday English word that Spanish writes a
hundred times less often (a margin of two powers of ten there: a tag's word is one of a handful, not one of a text).

Which neighbours to test for each target is data: `frequency_neighbours` in the target's lexicon file. wordfreq's
small lists hold the words written at least once in a million, its large ones down to once in a hundred million
(its package description, read 2026-11-28); Romanian has only a small list, Belarusian, Kazakh and Turkish's neighbour
Azerbaijani none.

A domain tag rendered as one word is whole when the word is rare in the target (curation/checks/tags.py): a cut
leaves an everyday word ("qualité" of "air quality", "прогнозирование"), a translator who packs a tag into one word
coins a compound or uses a term of art ("vélopartage", "антифрод"). Only a large list can say a word is rare: a
word missing from a small one is merely rarer than its end (Zipf 3).

The package is Apache-2.0 and its lists CC BY-SA 4.0 (its metadata): they are read where pip installed them, at run
time, and nothing of them is copied into this repository, a cache or a release.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterable, Iterator
from functools import lru_cache

import msgpack
import wordfreq

# Zipf scale: log10 of a word's frequency per billion words. 4 is once in 100,000 words, a word any page of the
# neighbour may have; 3 more means 1,000 times as common in the neighbour as in the target. On the calibration and
# validation sets the closest correct words were Italian "mais" and "care" in Italian texts (2.6 and 2.8 more in French
# and Romanian) and Polish "hubu" (2.9 more in Czech); slipped words ran to 5 and more.
EVERYDAY = 4.0
TIMES_MORE = 3.0
# A word missing from the target's list is counted at the list's floor: 1.0 for the large lists. Romanian has only a
# small list, which stops at 3.0, and correct Romanian words rarer than that ("personali", "alerte", "restante")
# would read as Italian or French: a missing word is counted one below the list's end (Romanian 2.0).
_BELOW_THE_END = 1.0
# Words shorter than this are shared or abbreviations in too many languages ("se", "de", "la").
SHORTEST = 3


@lru_cache(maxsize=1)
def _lists() -> dict[str, str]:
    """The languages wordfreq has a list for, and its file (the large list where there is one)."""
    return wordfreq.available_languages("best")


@lru_cache(maxsize=1)
def _large_lists() -> frozenset[str]:
    return frozenset(wordfreq.available_languages("large"))


def _buckets(code: str) -> Iterator[list[str]]:
    """A language's list, most frequent words first: bucket i holds the words of Zipf frequency 9 - i/100.

    Read one bucket at a time from wordfreq's file (gzipped msgpack: a header, then the buckets; wordfreq's
    `read_cBpack` describes it), not whole: a large list held at once is some 50 MB more at the checks' peak."""
    with gzip.open(_lists()[code], "rb") as file:
        unpacker = msgpack.Unpacker(file, raw=False)
        count = unpacker.read_array_header()
        header = unpacker.unpack()
        if not isinstance(header, dict) or header.get("format") != "cB" or header.get("version") != 1:
            raise ValueError(f"wordfreq's list for {code} is in a format this check does not know: {header!r}")
        for _ in range(count - 1):
            yield unpacker.unpack()


def _zipf(bucket: int) -> float:
    return 9.0 - bucket / 100


@lru_cache(maxsize=None)
def neighbour_only(target: str, neighbour: str, times_more: float = TIMES_MORE) -> frozenset[str]:
    """The neighbour's everyday words the target writes 10^times_more times less often (a thousand), or not at all.
    Both lists are read once, a bucket at a time: only this set stays (a few thousand words)."""
    everyday: dict[str, float] = {}
    for index, bucket in enumerate(_buckets(neighbour)):
        if _zipf(index) < EVERYDAY:
            break
        everyday.update((word, _zipf(index)) for word in bucket if len(word) >= SHORTEST)
    in_target: dict[str, float] = {}
    last = 0
    for last, bucket in enumerate(_buckets(target)):
        in_target.update((word, _zipf(last)) for word in bucket if word in everyday)
    missing = max(1.0, _zipf(last) - _BELOW_THE_END)
    return frozenset(word for word, zipf in everyday.items()
                     if zipf - in_target.get(word, missing) >= times_more)


# Where a large list ends (Zipf 1.0; its package description): a word it does not have is rarer than that.
_LARGE_LIST_END = 1.0


@lru_cache(maxsize=4096)
def rare(word: str, code: str, below: float) -> bool | None:
    """Whether the lowercase `word` is written less often than Zipf `below` in the language: True, False, or None
    when the language's list does not reach down to `below` (a small list, or none), so it cannot say.

    The list is read from its most frequent bucket down and left as soon as the word is found or `below` is passed
    (some 10-50 ms for a large list); the answer is cached, the list is not."""
    if code not in _large_lists() or below <= _LARGE_LIST_END:
        return None
    for index, bucket in enumerate(_buckets(code)):
        if _zipf(index) < below:
            return True
        if word in bucket:
            return False
    return True


def available(code: str) -> bool:
    """Whether wordfreq has a list for the language."""
    return code in _lists()


def neighbour_words_in(words: Iterable[str], target: str, neighbours: tuple[str, ...]) -> tuple[str, list[str]] | None:
    """The first neighbour (in the order given) some of whose words the lowercase `words` hold, with those words;
    None when there is none, no neighbour is named or the target has no list (the words are then not read)."""
    if not neighbours or not available(target):
        return None
    words = list(words)
    for neighbour in neighbours:
        if not available(neighbour):
            continue
        only = neighbour_only(target, neighbour)
        hits = [word for word in words if word in only]
        if hits:
            return neighbour, hits
    return None
