"""Bounds on numbers: which side of a number the English puts a limit on, and which side the translation puts it.

"Delayed by more than 15 minutes" rendered "delayed by at most 15 minutes" reverses a limit without reversing any
one pair of words: "more than" and "at most" belong to different pairs ([axes] of concepts.toml), so the word
counts of the meaning check see two changes that do not cancel out. Here each limit word of a sentence ([bounds] of
concepts.toml: upward — more than, at least, after; downward — less than, at most, before) goes with the number
nearest to it in its clause, at most one long word away (translators put it on either side: "15 分以上", "plus de
15"). A number the English bounds in one direction only and the translation in the other direction only is a
comparison reversed. Left alone: a number with words of both directions ("at least 6 hours before"), and a clause
with a negation ("cannot submit more than 5" is "no more than 5"), which reverses what its words say.
"""

from __future__ import annotations

import re

from curation.checks.masking import PLACEHOLDER, mask_identifiers
from curation.checks.numbers import NUMBER
from curation.checks.roles import word_gap
from curation.checks.senses import Senses, lower, relations

_BREAK = re.compile(r"[,;:()\[\]、，；：。!?،؛]|\.(?!\d)")
REACH = 1  # long words (five letters or more) between a limit word and its number
_SIDE = {"up": "above", "down": "below"}


def directions(text: str, words: Senses, names: tuple[str, ...]) -> dict[str, dict[str, list[str]]]:
    """Each number of a sentence (with its unit, as the masking protects it, by its digits) and the directions ("up",
    "down") of the limit words that go with it, with those words; a number in a clause with a negation has none."""
    rel = relations()
    masked = mask_identifiers(text, names)
    spans = list(masked.spans)
    lowered = lower(masked.text, words.code)
    numbers: list[tuple[int, int, str]] = []
    for match in PLACEHOLDER.finditer(lowered):
        span = spans[int(match.group(1)) - 1]
        digits = NUMBER.search(span)
        if digits and span[:1].isdigit():
            numbers.append((match.start(), match.end(), digits.group(0)))
    reading = PLACEHOLDER.sub(lambda match: " " * len(match.group(0)), lowered)
    numbers += [(match.start(), match.end(), match.group(0)) for match in NUMBER.finditer(reading)]
    finds = words.finds(reading)
    breaks = sorted({m.start() for m in _BREAK.finditer(reading)}
                    | {m.start() for compiled, _ in words.patterns.get(rel.clause, ()) for m in compiled.finditer(reading)})

    def clause(start: int, end: int) -> tuple[int, int]:
        return (max((b for b in breaks if b < start), default=-1),
                min((b for b in breaks if b >= end), default=len(reading)))

    negated = [find for find in finds if find.concepts & rel.reverse]
    result: dict[str, dict[str, list[str]]] = {value: {} for _, _, value in numbers}
    for find in finds:
        if find.concepts & rel.optimize:
            continue  # "maximum 120 characters" is at most, "maximize" no limit: the optimizing words say neither
        direction = next((name for name, concepts in rel.bounds.items() if find.concepts & concepts), None)
        if direction is None:
            continue
        low, high = clause(find.start, find.end)
        near = [(word_gap(reading[min(end, find.end):max(start, find.start)]), abs(start - find.start), value, start)
                for start, end, value in numbers if low < start and end <= high]
        near = [item for item in near if item[0] <= REACH]
        if not near:
            continue
        _, _, value, start = min(near)
        if any(low < other.start and other.end <= high for other in negated):
            continue
        said = result[value].setdefault(direction, [])
        if find.text not in said:
            said.append(find.text)
    return result


def reversed_bounds(english: str, translation: str, english_words: Senses, translated_words: Senses,
                    names: tuple[str, ...]) -> list[str]:
    """In plain words, each number bounded one way only on each side, the two ways opposite."""
    e = directions(english, english_words, names)
    t = directions(translation, translated_words, names)
    found = []
    for value in sorted(set(e) & set(t)):
        if len(e[value]) == 1 and len(t[value]) == 1 and e[value].keys() != t[value].keys():
            [(was, english_said)], [(now, translated_said)] = e[value].items(), t[value].items()
            found.append(f"says {_SIDE[now]} {value} ({', '.join(map(repr, translated_said))}) where the English says "
                         f"{_SIDE[was]} ({', '.join(map(repr, english_said))})")
    return found
