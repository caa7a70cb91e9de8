"""Anchors: the identifiers, numbers and negations of a sentence, each with its partner, the nearest word of its clause
that gives it a part. The roles check (curation/checks/roles.py) compares them between an English sentence and its
translation; the terms check (term_partners there) reads which glossary term a threshold or a negation goes with.

A clause ends at punctuation or at a language's clause word ("and", "but"); an identifier's description after it, in
brackets, after a colon or a dash, or in an English "which" clause, is its own clause's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from curation.checks.masking import PLACEHOLDER, mask_identifiers
from curation.checks.numbers import NUMBER
from curation.checks.operands import listed
from curation.checks.prose import GLOSS
from curation.checks.senses import Find, Senses, lower, relations

# An identifier followed by its description: in brackets, after a colon or a dash, or in an English "which" clause
# ("`leg_id` (key)", "- `dropout`: the target, 1 if …", "`trip_duration`, which is the target"). The bracket or the
# colon opens no new clause for it: the description gives it its part.
TOLD = re.compile(r"\s*([(（:：]|[—–-](?=\s)|,(?=\s*which\b))")
_CLOSING = {"(": ")", "（": "）"}
_SPACED_DASH = re.compile(r"(?<=\s)[—–](?=\s)")
_BREAK = re.compile(r"[,;:()\[\]、，；：。.!?،؛]")


@dataclass(frozen=True)
class Anchor:
    """An identifier, a number or a negation in a sentence, and the partner word that gives it its part (the concepts
    that word says; empty: none found)."""

    value: str
    partner: frozenset[str] = frozenset()
    word: str = ""


def anchors(text: str, words: Senses, names: tuple[str, ...], partners: frozenset[str] = frozenset(),
            marks: Callable[[str], list[Find]] | None = None, negations: bool = False,
            reach: int | None = None, negation_reach: int | None = None) -> list[Anchor]:
    """The identifiers and numbers of a sentence in order (and its negations, numbered ¬1, ¬2 …), each with its
    partner: the nearest word of its clause among `partners`, or among what `marks` finds in the (lowercase) text;
    with `reach`, only a word at most that many words away (in Chinese and Japanese, twice as many characters)."""
    masked = mask_identifiers(text, names)
    spans = list(masked.spans)
    lowered = lower(masked.text, words.code)  # placeholders and digits come through as they are
    found: list[tuple[int, int, str]] = []
    for match in PLACEHOLDER.finditer(lowered):
        found.append((match.start(), match.end(), spans[int(match.group(1)) - 1]))
    reading = PLACEHOLDER.sub(lambda match: " " * len(match.group(0)), lowered)
    found += [(match.start(), match.end(), match.group(0)) for match in NUMBER.finditer(reading)]
    rel = relations()
    own = words.finds(reading)
    if negations:
        found += [(find.start, find.end, f"¬{n}") for n, find in
                  enumerate((find for find in own if rel.strong in find.concepts), start=1)]
    # A clause word ends a clause even where it is part of a longer find (Arabic "and" glued to the next word).
    # A short gloss in brackets ("дәлдік (precision) кемінде 0.6") is part of its noun phrase, not a clause of its own.
    # (read before the identifiers are blanked: brackets around an identifier, "(pass `index=False`)", are a clause)
    glossed = {pos for gloss in GLOSS.finditer(lowered) for pos in (gloss.start(), gloss.end() - 1)}
    breaks = sorted(({m.start() for m in _BREAK.finditer(reading)} - glossed)
                    | {m.start() for word in words.patterns.get(rel.clause, ()) if word.needle in reading
                       for m in word.compiled.finditer(reading)})
    breaks = sorted({*breaks, *_dashes_after_colon(reading, found, breaks)})
    candidates = marks(reading) if marks else [find for find in own if find.concepts & partners]
    def limit(value: str) -> int:
        return negation_reach if value.startswith("¬") and negation_reach is not None else reach or 0

    result = []
    for start, end, value in sorted(found):
        low = max((b for b in breaks if b < start), default=-1)
        high = min((b for b in breaks if b >= end), default=len(reading))
        told = _told(reading, end, value, breaks)
        if told:  # "`leg_id` (the key, …)", "`dropout`: the target": what follows says the identifier's part
            # ... unless it names another identifier: "(target column: `n_orders`)" gives the part to that one
            if not any(end < other < told[2] for other, _, named in found if named.startswith("`")):
                high = told[2]
        near = [find for find in candidates if low < find.start and find.end <= high
                and (find.end <= start or find.start >= end)
                and (reach is None or word_gap(reading[min(find.end, end):max(find.start, start)]) <= limit(value))]
        other: list[Find] = []
        if reach is not None:  # a term goes with a threshold or a negation on the side the language puts it
            before = words.term_before_negation if value.startswith("¬") else words.term_before_number
            other = [find for find in near if (find.end <= start) != before]
            near = [find for find in near if (find.end <= start) == before]
        if reach is not None and near:  # close by: the nearest in words, unless two different ones are as near
            gaps = [word_gap(reading[min(find.end, end):max(find.start, start)]) for find in near]
            near = [find for find, gap in zip(near, gaps) if gap == min(gaps)]
        # another term as near on the other side: translators put it on either side ("precision 0.9 кезіндегі
        # recall"), so which term the number goes with is not for the word order to decide
        if other and near and {find.concepts for find in other} - {find.concepts for find in near}:
            near = []
        if not near or (reach is not None and len({find.concepts for find in near}) > 1):
            result.append(Anchor(value))
            continue
        # the nearest word; a tie goes to the side the language marks roles on (prepositions or endings)
        best = min(near, key=lambda find: (find.end <= start and start - find.end or find.start - end,
                                           (find.end > start) == (words.side == "before")))
        concepts = best.concepts & partners if not marks else best.concepts
        if reach is not None:  # "precision and recall at 0.5", "0.5 шегіндегі дәлдік пен толықтық": the whole list's
            # (two terms side by side with nothing between are one phrase: "толықтықтағы дәлдік", precision at a recall)
            between = {find: reading[min(find.end, best.end):max(find.start, best.start)] for find in candidates
                       if find.end <= best.start or find.start >= best.end}
            concepts |= {c for find, text in between.items() if text.strip() and listed(text, words.code)
                         for c in find.concepts}
        if reach is None:
            # a word as near on the other side says the part too: "no earlier than 7 days before" gives 7 both
            # sides of `time`, and a translation that keeps only "7 days before" changed nothing
            gaps = {find: word_gap(reading[min(find.end, end):max(find.start, start)]) for find in near}
            concepts |= {c for find in near if gaps[find] == gaps[best] and (find.end <= start) != (best.end <= start)
                         for c in (find.concepts & partners if not marks else find.concepts)}
        result.append(Anchor(value, frozenset(concepts), best.text))
    return result


def _dashes_after_colon(reading: str, found: list[tuple[int, int, str]], breaks: list[int]) -> list[int]:
    """Dashes that set an identifier's description after its colon apart from another identifier: in "`label`: the
    target class — `benign` or an attack" the description is `label`'s, and the dash opens the values."""
    dashes = []
    for _, end, value in found:
        told = _told(reading, end, value, breaks)
        if not told or told[0] not in ":：":
            continue
        for dash in _SPACED_DASH.finditer(reading, told[1], told[2]):
            if any(dash.end() <= other < told[2] for other, _, named in found if named.startswith("`")):
                dashes.append(dash.start())
                break
    return dashes


def _told(reading: str, end: int, value: str, breaks: list[int]) -> tuple[str, int, int] | None:
    """Where an identifier ending at `end` is followed by its description: the mark that opens it, where it starts and
    where it ends (the closing bracket, else the next clause break); None for a number, a negation, or no description."""
    told = TOLD.match(reading, end) if value.startswith("`") else None
    if not told:
        return None
    mark = told.group(1)
    close = reading.find(_CLOSING[mark], told.end()) if mark in _CLOSING else -1
    return mark, told.end(), close if close >= 0 else min((b for b in breaks if b >= told.end()), default=len(reading))


def word_gap(between: str) -> int:
    """Words between two places of a text, short ones (of, the, de, d'une) not counted; in a text without spaces,
    every two characters count as one."""
    spaced = len(re.findall(r"[^\W\d_]{5,}", between))
    unspaced = sum(1 for char in between if "\u3040" <= char <= "\u9fff")
    return spaced if not unspaced else (unspaced + 1) // 2 + len(re.findall(r"[A-Za-z]+", between))
