"""A text's layout as the checks read it: paragraphs, their blocks (list items, headings, table rows, running text)
and the sentences of each block.

A paragraph that the author hard-wrapped over several lines is one block: the line breaks inside it are the
author's, and a translator may wrap it elsewhere or not at all. A line that starts a list item, a heading or a table
row starts a block of its own. Sentences end at a full stop, question or exclamation mark followed by a space,
whatever comes next: a translator may start a sentence with a lowercase file name (`train.csv` ...), an identifier
or a digit. A CJK full stop ends one wherever it is; abbreviations (e.g., Mr., т. е.) end none. The Devanagari
danda (।), the Armenian full stop (։) and the Urdu one (۔) end sentences as a full stop does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# A line that opens a block of its own: a list item, a heading, a table row, a quote, a code fence.
_OPENER = re.compile(r"^\s*(?:[-*•+]\s|\d{1,3}[.)]\s|#{1,6}\s|\||>|```)")
_END = re.compile(r"[.!?؟…।॥։۔]+[\"'»”)\]]*\s+(?=\S)|[。！？]+[」』”)）]*\s*")
# Words that end with a full stop without ending a sentence, in the scripts of the targets.
_ABBREVIATION = re.compile(
    r"(?:\b[^\W\d_]\.[^\W\d_]\.?|\b(?:etc|vs|approx|incl|fig|nr|dr|mr|mrs|ms|miss|st|inc|ltd|jr|sr|al|cf|ca|resp|"
    r"т|д|п|др|стр|напр|г|гг|см|тыс|млн|млрд|ж|б|"  # Russian, Belarusian; Kazakh ж. (year), т.б.
    r"ex|env|np|tj|ok|tzn|ör|vb|yy|vd)\.)\s*$", re.IGNORECASE)  # French, Polish (ok. = about), Turkish
_ENDED = re.compile(r"[.!?…。！？؟।॥։۔][\"'»”)）」』]*$")
_TITLE = re.compile(r"\b[A-Z][a-z]{0,5}\.$")
CJK_JOIN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class Block:
    """A list item, heading, table row or run of text: its first line (1-based), kind and text (lines joined)."""

    line: int
    kind: str  # item | heading | row | text | code
    paragraph: int
    text: str


@dataclass(frozen=True)
class Sentence:
    """One sentence of a block, as written, with the line its block starts on."""

    line: int
    block: int
    text: str


def _kind(line: str) -> str:
    stripped = line.lstrip()
    if stripped.startswith("#"):
        return "heading"
    if stripped.startswith("|"):
        return "row"
    if stripped.startswith("```"):
        return "code"
    return "item" if _OPENER.match(line) else "text"


def _join(left: str, right: str) -> str:
    # Chinese and Japanese wrap lines without a space; a space there would be a character of their own.
    if CJK_JOIN.match(left[-1:]) and CJK_JOIN.match(right[:1]):
        return left + right
    return f"{left} {right}"


@lru_cache(maxsize=2048)
def blocks(text: str) -> tuple[Block, ...]:
    """The blocks of a text in order: a hard-wrapped paragraph or list item is one block."""
    found: list[Block] = []
    paragraph, blank_before, previous = 0, False, ""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            blank_before = bool(found)
            continue
        if blank_before:
            paragraph, blank_before, previous = paragraph + 1, False, line
            found.append(Block(number, _kind(raw), paragraph, line))
            continue
        kind = _kind(raw)
        # A line continues the block before it unless it opens one; after a list item only when indented, or when the
        # item's line stopped mid-sentence and the line goes on in lowercase. A sentence right after a list is a block
        # of its own, though the item before it has no full stop: list items are often phrases ("- `deliveries.csv`:
        # planned replenishments per warehouse", "- `deliveries.csv`：倉庫ごとの補充計画"), and read as one block the
        # item took the next paragraph's first sentence with it. In the natural sets, 641 items without a full stop
        # are followed by an unindented line, none of them in lowercase.
        continues = found and kind == "text" and found[-1].paragraph == paragraph and (
            found[-1].kind == "text" or (found[-1].kind == "item" and (
                raw[:1].isspace() or (not _ENDED.search(previous) and line[:1].islower()))))
        previous = line
        if continues:
            last = found[-1]
            found[-1] = Block(last.line, last.kind, last.paragraph, _join(last.text, line))
            continue
        found.append(Block(number, kind, paragraph, line))
    return tuple(found)


def split_sentences(block: str) -> list[str]:
    """The sentences of one block of text, each with its end mark."""
    parts, start = [], 0
    for match in _END.finditer(block):
        before = block[start:match.start() + 1]
        if block[match.start()] in ".…" and _ABBREVIATION.search(before):
            continue
        if (block[match.start()] == "." and CJK_JOIN.match(block[match.end():match.end() + 1])
                and _TITLE.search(before)):
            continue  # "Master. 等称谓": in Chinese or Japanese text a capitalized Latin word with a stop is an abbreviation
        parts.append(block[start:match.end()].strip())
        start = match.end()
    parts.append(block[start:].strip())
    return [part for part in parts if part]


@lru_cache(maxsize=2048)
def sentences(text: str) -> tuple[Sentence, ...]:
    """Every sentence of a text, block by block."""
    return tuple(Sentence(block.line, index, sentence) for index, block in enumerate(blocks(text))
                 for sentence in split_sentences(block.text))


def paragraph_count(text: str) -> int:
    """Paragraphs: runs of non-empty lines between blank lines."""
    return len({block.paragraph for block in blocks(text)})


def items(text: str) -> list[Block]:
    """The list items, headings and table rows: the layout a translation keeps line for line."""
    return [block for block in blocks(text) if block.kind != "text"]


def clear_cache() -> None:
    """Forget what was read so far (benchmarks time each text as new)."""
    blocks.cache_clear()
    sentences.cache_clear()
