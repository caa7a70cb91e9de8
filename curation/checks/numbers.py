"""Numbers are protected: every number of the source comes back with the same value and the same characters.

Agents and graders read numbers literally, so a localized form counts as damaged: 0,5 for 0.5, 42 000 for
42000, ١٢ for 12, 28×28 or 28 x 28 or a Cyrillic х for 28x28, 20.01.2011 for 2011-01-20. A number is counted,
not just looked for: the translation must hold each one at least as often as the source. "At least", because a
translation may add a harmless numeral (Japanese writes "one" as 1つ, "two files" as 2つ), and a number the
source writes out as a word ("two files") is the translator's to render either way. A range ("2019-2021", "3-5") is
its two ends: a translator joins them the language's way ("2019—2021", "от 3 до 5").

Numbers inside protected spans (`pixel0`, F1, 10%) are the placeholders check's: they come back exactly.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from curation.checks.masking import mask_identifiers
from curation.checks.prose import prose
from curation.records import CheckResult

NAME = "numbers"

# A number as the source writes it: 2011, 0.5, 1,000, 28x28, 05:00, 2011-01-20, 3-5. Only ASCII digits: a
# number in other digits (١٢, １２) is a different string. Not part of a word or identifier (F1, v2), nor the second
# part of a range or date (3-5, 8.5-27.0, 2011-01-20); after a minus sign that follows no letter or digit (-0.5,
# -25 °C) it is a number, its sign left to the translator's typography (−0.5).
NUMBER = re.compile(r"(?:(?<![A-Za-z0-9_.,:\-])|(?<=^-)|(?<=[^A-Za-z0-9_.,:\-]-))"
                    r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.:x]\d+)*(?:-\d+(?:\.\d+)?)*)"
                    r"(?![0-9]|[.,:x\-][0-9])", re.ASCII)
# Anything that may be a number written another way: digits of any script joined by one separator, a spaced
# "x" (28 x 28) or a thin or plain space before a group of three (42 000).
_LOOKALIKE = re.compile(r"\d+(?:(?:[.,:x×хХ'’/\-年月]|\s[x×хХ]\s|[ \u00a0\u202f](?=\d{3}(?!\d)))\d+)*")


def numbers(text: str, names: Iterable[str] = ()) -> Counter[str]:
    """How often each number occurs in the prose of a text."""
    return Counter(NUMBER.findall(prose(text, names)))


def _numbers_with_amounts(text: str, names: Iterable[str] = ()) -> Counter[str]:
    """How often each number occurs in a translation, counting those a translator wrote next to a unit: "0 to 100"
    may come back as "0–100 %", which masking reads as an amount."""
    masked = mask_identifiers(text, tuple(names))
    amounts = [span for span in masked.spans if span[:1].isdigit()]
    return numbers(text, names) + Counter(number for span in amounts for number in NUMBER.findall(span))


# A range of two numbers, whole or decimal: "0-100", "8.5-27.0" (a translator's unit in its own letters, "8.5-27.0
# кг", leaves it whole where the English's "kg" made the end an amount).
_RANGE = re.compile(r"\d+(?:\.\d+)?-\d+(?:\.\d+)?")


def _with_range_ends(found: Counter[str]) -> Counter[str]:
    """The numbers of a translation, and the ends of each range it writes with a hyphen ("0-100" for "0 to 100")."""
    ends = Counter(part for value, count in found.items() if _RANGE.fullmatch(value)
                   for part in value.split("-") for _ in range(count))
    return found + ends


def _range_said(value: str, missing: int, wanted: Counter[str], found: Counter[str]) -> bool:
    """Whether the translation says a range of the source ("2019-2021", "3-5") with both its ends, joined its own way:
    "2019—2021", "2019 至 2021", "от 3 до 5". A date or a code joined by hyphens (2011-01-20, 2011-01) is no range: its
    first part is not the smaller."""
    ends = value.split("-")
    if not _RANGE.fullmatch(value) or re.match(r"0\d", ends[1]) or float(ends[0]) >= float(ends[1]):
        return False
    return all(found[end] >= wanted[end] + missing for end in ends)


def _digits(text: str) -> str:
    return "".join(str(unicodedata.digit(char)) for char in text if unicodedata.digit(char, None) is not None)


def _written_as(value: str, translation: str) -> str | None:
    """How the translation seems to write a number it does not hold as is: '0,5', '28×28', '١٢'."""
    want = _digits(value)
    for match in _LOOKALIKE.finditer(translation):
        if _digits(match.group(0)) == want and match.group(0) != value:
            return match.group(0).strip()
    return None


def check_numbers(source: str, translation: str, names: Iterable[str] = ()) -> CheckResult:
    """Every number of the source is in the translation, as written there, at least as often."""
    names = tuple(names)
    wanted = numbers(source, names)
    found = _with_range_ends(_numbers_with_amounts(translation, names))
    translated = prose(translation, names)
    problems = []
    for value, count in wanted.items():
        if found[value] >= count or _range_said(value, count - found[value], wanted, found):
            continue
        seen = f"{found[value]} time{'s' * (found[value] != 1)}"
        problem = f"{value} appears {seen}, the source has {count}"
        written = _written_as(value, translated)
        if written:
            problem += f" (written {written!r}: keep numbers exactly as in the source)"
        problems.append(problem)
    if problems:
        return CheckResult(name=NAME, passed=False, detail="; ".join(problems))
    return CheckResult(name=NAME, passed=True, detail=f"{sum(wanted.values())} number(s) intact")
