"""A text as the checks that compare it with its English read it: its sentences and list items (units), each with
its identifiers and numbers and the size of its prose. Adequacy aligns them; meaning, terms and roles compare the
aligned ones."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from curation.checks.masking import PLACEHOLDER, mask_identifiers
from curation.checks.numbers import NUMBER
from curation.checks.prose import prose, prose_size
from curation.checks.segments import blocks, sentences

# A list item's, a numbered item's or a heading's marker (roles.py reads the identifier an item is about after it)
BULLET = re.compile(r"^\s*(?:[-*•+]|\d+[.)]|#+)\s+")
_DIGITS = re.compile(r"\d+(?:[.,:x]\d+)*")


@dataclass(frozen=True)
class Unit:
    line: int
    text: str  # as written, for the detail
    plain: str  # what is embedded: no bullet marker, no backticks
    block: int = 0  # the paragraph or list item it belongs to
    own_block: bool = False  # its block is a list item, heading or table row (not running text)
    size: int = 0  # characters of prose: identifiers and numbers, which both sides share, do not count
    anchors: frozenset[str] = frozenset()  # identifiers, names and numbers it holds, which a translation keeps as is


def _anchors(spans: Iterable[str]) -> frozenset[str]:
    """What a translation keeps of a unit's identifiers and numbers: identifiers as written, numbers as their digits.
    A number's unit and spacing are the language's ("15%", "15 %", "62 percent", "%62"), and so is a range ("from
    2020 to 2024", "2020-2024"): compared as written, a correct sentence looked restructured and was embedded."""
    return frozenset(key for span in spans for key in (_DIGITS.findall(span) if span[:1].isdigit() else [span]))


def units(text: str, names: Iterable[str] = ()) -> tuple[Unit, ...]:
    """The text's sentences and list items, in order; pieces without a letter (a rule, a bare number) are skipped."""
    return _units(text, tuple(names))


@lru_cache(maxsize=1024)
def _units(text: str, names: tuple[str, ...]) -> tuple[Unit, ...]:
    # Kept: adequacy, then the meaning, terms and roles checks read both texts' units again, a dozen readings of
    # each text, and each masks every sentence.
    found = []
    layout = blocks(PLACEHOLDER.sub(" ", text))
    for sentence in sentences(PLACEHOLDER.sub(" ", text)):
        plain = " ".join(BULLET.sub("", sentence.text).replace("`", "").split())
        if any(char.isalpha() for char in plain):
            block = layout[sentence.block]
            anchors = _anchors([*mask_identifiers(sentence.text, tuple(names)).spans,
                                *NUMBER.findall(prose(sentence.text, names))])
            found.append(Unit(sentence.line, sentence.text, plain, block.paragraph * 1000 + sentence.block,
                              block.kind != "text", prose_size(sentence.text, names), anchors))
    return tuple(found)


def clear_cache() -> None:
    """Forget the texts read so far (a benchmark timing texts as new)."""
    _units.cache_clear()
