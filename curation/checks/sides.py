"""The sides of an aligned pair of sentences, as the meaning check compares them: each side's units, the concept words
found in them (curation/checks/senses.py) and their counts; a side's clauses, when both languages set them apart.

The words are found in a sentence's prose: identifiers, names and numbers out, but a protected amount's unit kept as a
word ("32 kHz" reads "kHz"), so that "32 kHz" rendered "32 ميغاهرتز" or "2 percent" rendered "2‰" is a changed unit
(the number is the placeholders check's).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from curation.checks.alignment import recalled
from curation.checks.masking import PLACEHOLDER, mask_identifiers
from curation.checks.placeholders import AMOUNT
from curation.checks.prose import quote
from curation.checks.senses import Find, Senses, lower, relations, senses
from curation.checks.units import Unit, units
from curation.languages import parse_language


@dataclass(frozen=True)
class Side:
    """One side of an aligned pair of sentences: its units, the concept words found in them and their counts."""

    units: tuple[Unit, ...]
    finds: tuple[Find, ...]
    homes: tuple[int, ...]  # the unit each find is in
    code: str = ""  # the language the side is in

    @property
    def counts(self) -> Counter:
        counts: Counter = Counter()
        for find in self.finds:
            counts.update(sorted(find.concepts))
        return counts

    def words(self, *concepts: str) -> list[str]:
        """The words of the side that say any of these concepts, as written."""
        return list(dict.fromkeys(find.text for find in self.finds if find.concepts & set(concepts)))

    def said(self, *concepts: str) -> str:
        """The side's words for these concepts, quoted, for a check's detail."""
        words = self.words(*concepts)
        return ", ".join(repr(word) for word in words) if words else "nothing of the kind"

    def negations(self, soft: bool = False) -> int:
        """The words that negate or say something is absent (with `soft`, also those with a negative sense)."""
        rel = relations()
        kinds = {rel.strong, rel.absent} | ({rel.soft} if soft else set())
        return sum(1 for find in self.finds if find.concepts & kinds)

    def where(self, english: bool = False, *concepts: str) -> str:
        """The sentence that says the first of these concepts (the side's first sentence when none does)."""
        home = next((self.homes[i] for i, find in enumerate(self.finds) if find.concepts & set(concepts)), 0)
        unit = self.units[home]
        return f"{'English ' if english else ''}line {unit.line} {quote(unit.text, 80)}"


# The unit of a protected amount that is read as a word: letters ("kHz", "кГц") or the per-mille sign.
_UNIT_WORD = re.compile(r"[^\W\d_]+|‰")


@lru_cache(maxsize=1024)
def reading(text: str, names: tuple[str, ...]) -> str:
    """The prose the meaning words are found in: protected spans out, but an amount's unit kept."""
    masked = mask_identifiers(text, names)

    def unit(match: re.Match) -> str:
        amount = AMOUNT.match(masked.spans[int(match.group(1)) - 1])
        said = amount["unit"].strip(" \u00a0\u202f") if amount else ""
        return f" {said} " if _UNIT_WORD.fullmatch(said) else " "

    return PLACEHOLDER.sub(unit, masked.text)


def side_of(found: Sequence[Unit], words: Senses, names: tuple[str, ...]) -> Side:
    finds: list[Find] = []
    homes: list[int] = []
    for index, unit in enumerate(found):
        more = words.finds(lower(reading(unit.text, names), words.code))
        finds += more
        homes += [index] * len(more)
    return Side(tuple(found), tuple(finds), tuple(homes), words.code)


def aligned_sides(source: str, translation: str, language: str, names: Iterable[str] = (), whole: bool = False,
                  unpaired: bool = False) -> list[tuple[Side, Side]] | None:
    """(English, translation) sides of every aligned pair of sentences, or of the whole texts when the adequacy check
    left no alignment (or `whole` is asked for); with `unpaired`, also the sentences left unpaired, each with an empty
    other side. None when either language has no word file."""
    code = parse_language(language).code
    english_words, translated_words = senses("en"), senses(code)
    if english_words is None or translated_words is None:
        return None
    names = tuple(names)
    english, translated = units(source, names), units(translation, names)
    links = None if whole else recalled((source, translation, language, names))
    if links:
        groups = [([english[i] for i in link.s], [translated[i] for i in link.t]) for link in links
                  if (link.s and link.t) or unpaired]
    else:
        groups = [(english, translated)] if english and translated else []
    return [(side_of(e, english_words, names), side_of(t, translated_words, names)) for e, t in groups]


# Where a sentence's clauses stand apart: a colon or a semicolon ("Do not use the drop-off time: it is not known at
# prediction time"). Translators keep them, in order, far more often than they keep a sentence's commas.
_CLAUSE_MARK = re.compile(r"\s*[:;：；]\s+|\s*[：；]")
_AFTER_COMMA = re.compile(r"[,，،]\s*$")


def clauses(side: Side, words: Senses, names: tuple[str, ...], fine: bool) -> list[Side]:
    """A side's clauses, each a side of its own (just the side when it has one sentence and no clause marks): its
    sentences, and their parts between colons and semicolons, and with `fine` also before a clause word after a comma
    (", and do not …"). A translator splits an English sentence at its colon ("Do not use it: no customer appears in
    both sets" as two sentences) or merges two with one, so a sentence of one side pairs with a clause of the other."""
    parts = [part for unit in side.units for part in _unit_clauses(unit, words, fine)]
    return [side_of([part], words, names) for part in parts] if len(parts) > 1 else [side]


def _unit_clauses(unit: Unit, words: Senses, fine: bool) -> list[Unit]:
    text = unit.text
    lowered = lower(text, words.code)
    cuts = sorted({match.start() for word in words.patterns.get(relations().clause, ()) if fine and word.needle in lowered
                   for match in word.compiled.finditer(lowered) if _AFTER_COMMA.search(lowered, 0, match.start())}
                  | {match.start() for match in _CLAUSE_MARK.finditer(text)})
    parts = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]
    return [replace(unit, text=part.strip(" :;：；")) for part in parts if part.strip(" :;：；,，")] or [unit]
