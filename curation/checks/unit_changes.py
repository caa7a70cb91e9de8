"""Units and scale words said otherwise in an aligned pair of sentences (the meaning check's unit class).

Two tests, on the pair's concept words (curation/checks/sides.py):
- counts: one unit of a quantity (seconds … years, thousand/million/billion, percent/per mille, currencies) is said
  more often than in the English and another one less often, in the sentence and in the whole text, or the
  sentence's one unit of the quantity is another;
- a number's own unit: a number written once on both sides whose unit right after it is another of the same quantity
  ("48 hours" as "48 minut"), whatever the counts say: they even out when the translator says "hourly" elsewhere in
  other words, or when two numbers exchanged their units. Read only where the counts found nothing.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from curation.checks.numbers import NUMBER
from curation.checks.senses import lower, relations, senses
from curation.checks.sides import Side

# A number's own unit: the unit word that starts within this many characters after it ("48 hours", "48 de ore"; in
# Chinese and Japanese right after it, "7 週間", as their words run on).
UNIT_REACH = {"zh": 1, "ja": 1, "default": 4}
# How far after a number its unit word is looked for, in characters.
_AFTER = 30


def unit_changes(english: Side, translated: Side, whole_e: Counter, whole_t: Counter) -> list[str]:
    """The pair's changed units, each named with the sentence and the words on both sides."""
    return _counted(english, translated, whole_e, whole_t) or _number_unit_changes(english, translated)


def _counted(english: Side, translated: Side, whole_e: Counter, whole_t: Counter) -> list[str]:
    e, t = english.counts, translated.counts
    problems = []
    for members in relations().units.values():
        more = [unit for unit in members if t[unit] > e[unit] and whole_t[unit] > whole_e[unit]]
        fewer = [unit for unit in members if t[unit] < e[unit] and whole_t[unit] < whole_e[unit]]
        said_e, said_t = [unit for unit in members if e[unit]], [unit for unit in members if t[unit]]
        if len(said_e) == 1 and len(said_t) == 1 and said_e != said_t:
            # the pair's one unit of the kind is another in the translation ("within the next 7 days" as "7 週間以内"),
            # whatever the whole text says (a unit said elsewhere in other words evens it out)
            more, fewer = said_t, said_e
        if more and fewer:
            problems.append(f"unit: {translated.where(False, *more)} says {translated.said(*more)} ({', '.join(more)}) "
                            f"where {english.where(True, *fewer)} says {english.said(*fewer)} ({', '.join(fewer)})")
    return problems


@lru_cache(maxsize=1)
def _quantity() -> dict[str, str]:
    """Each unit's quantity (concepts.toml, [units])."""
    return {unit: name for name, members in relations().units.items() for unit in members}


def _number_units(side: Side) -> dict[str, tuple[str, str] | None]:
    """Each number the side writes once, with the unit right after it and its word (None: no unit there, or the
    number is written twice and which is which cannot be told)."""
    words, quantity = senses(side.code), _quantity()
    reach = UNIT_REACH.get(side.code, UNIT_REACH["default"])
    found: dict[str, tuple[str, str] | None] = {}
    for unit in side.units:
        for match in NUMBER.finditer(unit.text):
            number = match.group()
            if number in found:
                found[number] = None
                continue
            after = words.finds(lower(unit.text[match.end():match.end() + _AFTER], side.code))
            found[number] = next(((concept, find.text) for find in sorted(after, key=lambda find: find.start)
                                  if find.start <= reach for concept in sorted(find.concepts) if concept in quantity),
                                 None)
    return found


def _number_unit_changes(english: Side, translated: Side) -> list[str]:
    quantity = _quantity()
    e, t = _number_units(english), _number_units(translated)
    problems = []
    for number, said in e.items():
        other = t.get(number)
        if said and other and said[0] != other[0] and quantity[said[0]] == quantity[other[0]]:
            problems.append(f"unit: {translated.where(False, other[0])} says {number} {other[1]!r} ({other[0]}) where "
                            f"{english.where(True, said[0])} says {number} {said[1]!r} ({said[0]})")
    return problems
