"""The placeholders check: every protected span of the English (code, identifiers, file names, URLs, amounts, metric
names) comes back in the translation as often as it was there, and no placeholder of the masking is left over.

An amount may be spaced or placed as the target's typography does ("0.5 %", "%50"), a percentage may be said in the
language's words ("yüzde 20"), a unit symbol in the target's letters ("32 кГц") or as a word that begins as the symbol
does ("10 Mo"), but not as another Latin symbol ("32 MHz" for "32 kHz"), a degree as "℃" or in words ("25 درجة مئوية"),
and an English plural name may come back singular ("GeoTIFF" for "GeoTIFFs").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from curation.checks.masking import PLACEHOLDER, PLACEHOLDER_DEBRIS, protected_spans
from curation.checks.senses import lower, senses
from curation.languages import parse_language
from curation.records import CheckResult


# An amount with a unit ("0.5%", "10 MB") may be written as the target language writes it: a space, a no-break or a
# narrow no-break space between number and unit ("0.5 %" in French and Russian), the percent sign first ("%0.5" in
# Turkish), the Arabic or the full-width percent sign. The number's characters stay the same.
AMOUNT = re.compile(r"^(?P<number>[$€£]?\d[\d,]*(?:\.\d+)?)\s?(?P<unit>\D+)$")


def _spellings(value: str) -> list[str]:
    """The ways a protected span may be written in a translation: as it is, and an amount with its unit spaced or
    placed as the target's typography does."""
    amount = AMOUNT.match(value)
    if not amount or amount["number"][0] in "$€£":
        return [value]
    number, unit = amount["number"], amount["unit"]
    forms = [f"{number}{space}{unit}" for space in ("", " ", "\u00a0", "\u202f")]
    if unit == "%":
        # Arabic writes its own percent sign (٪), Chinese and Japanese often the full-width one (％).
        for sign in ("%", "٪", "％"):
            forms += [f"{number}{sign}", f"{number} {sign}", f"{number}\u00a0{sign}", f"{sign}{number}", f"{sign} {number}"]
    return list(dict.fromkeys([value, *forms]))


# An English plural of a name or an acronym ("GeoTIFFs", "GPUs", "IDs"): languages that do not inflect an English name
# write it singular ("ملفات GeoTIFF", "MOOC-платформы"), so the singular counts for it.
_NAME_PLURAL = re.compile(r"[A-Za-z0-9]*[A-Z]s")


def _percent_in_words(text: str, number: str, language: str) -> int:
    """How often the number stands next to the language's word for "percent" ("yüzde 20", "20 процентов", "百分之20"):
    the `percent` finds of the meaning word files, so their patterns and prefixes are the check's too."""
    words = senses(parse_language(language).code) if language else None
    if words is None:
        return 0
    lowered = lower(text, words.code)  # letter for letter: the finds' places are the number's
    percent = [find for find in words.finds(lowered) if "percent" in find.concepts]
    if not percent:
        return 0
    total = 0
    for match in re.finditer(rf"(?<![\d.,]){re.escape(number)}(?!\d|[.,]\d)", lowered):
        word_ends = len(lowered[:match.start()].rstrip(" \u00a0\u202f"))  # "yüzde 20"
        gap = re.match(r"[ \u00a0\u202f]?(?:de )?", lowered[match.end():])  # "20 процентов", "20 de procente"
        word_starts = match.end() + gap.end()
        total += any(find.end == word_ends or find.start == word_starts for find in percent)
    return total


_DEGREES = {"℃": "°C", "℉": "°F"}
# What may follow an amount's number as its unit: a degree sign with its letter, a degree symbol, or a word.
_WRITTEN_UNIT = r"(?P<unit>°[ \u00a0]?[A-Za-z]|[℃℉]|[^\W\d_]+)"


def _same_unit(written: str, unit: str) -> bool:
    """Whether a unit written after the number may be the English one: in the target's own letters ("кГц"), any unit
    (the number must still be the English one); in Latin letters, the symbol itself or a word that begins as it does
    ("Mo" for "MB", "millisecondes" for "ms", "pixels" for "px"). A Latin unit that begins otherwise is another unit,
    another prefix: "32 MHz" for "32 kHz", "10 cm" for "10 mm", "200 s" for "200 ms". A degree keeps its scale: "℃" and
    "° C" are "°C", "°F" is not."""
    written, unit = _DEGREES.get(written, written).replace(" ", ""), unit.strip().replace(" ", "")
    if written.startswith("°") or unit.startswith("°"):
        return written.casefold() == unit.casefold() or not re.fullmatch(r"°?[A-Za-z]+", written)
    if not re.fullmatch(r"[A-Za-zµμ]+", written):
        return True
    return written[0].casefold().replace("μ", "µ") == unit[0].casefold().replace("μ", "µ")


def _standing(number: str) -> str:
    """A number as a pattern that finds it standing on its own: not inside a longer number, not glued to a Latin letter
    before it (the "1" of "F1"); after a CJK character it is still a number ("频率为1 kHz")."""
    return rf"(?<![\d.,A-Za-z_]){re.escape(number)}"


def _bare(text: str, number: str) -> int:
    """How often a number stands in a text on its own, with a unit after it or none."""
    return len(re.findall(rf"{_standing(number)}(?!\d|[.,]\d)", text))


def _count(text: str, value: str, language: str = "") -> int:
    # Boundaries only against Latin letters and digits: "`Age`" right after Arabic "و" or a CJK character is
    # still one occurrence, "Age" inside "Agent" is none.
    amount = AMOUNT.match(value)
    if amount and amount["number"][0] not in "$€£" and (amount["unit"][0].isalpha() or amount["unit"][0] == "°"):
        # A unit symbol may be written in the target's own letters ("32 кГц", "5 км", "10 千瓦时"): the number must
        # come back as it is (_standing), followed by a unit.
        return sum(1 for found in re.finditer(rf"{_standing(amount['number'])}[ \u00a0\u202f]?{_WRITTEN_UNIT}", text)
                   if _same_unit(found["unit"], amount["unit"]))
    total = 0
    for form in _spellings(value):
        before = (r"(?<![A-Za-z0-9_.,])" if form[0].isdigit() else r"(?<![A-Za-z0-9_])" if re.match(r"[A-Za-z_]", form)
                  else "")
        after = r"(?![A-Za-z0-9_])" if re.search(r"[A-Za-z0-9_%]$", form) else ""
        total += len(re.findall(before + re.escape(form) + after, text))
    if amount and amount["unit"] == "%":
        total += _percent_in_words(text, amount["number"], language)
    return total


def check_placeholders(source: str, translation: str, names: Iterable[str] = (), language: str = "") -> CheckResult:
    """Every protected span of the source comes back as often as it was there; no placeholder is left over.

    With the language, an English percentage may come back in the language's words ("yüzde 20" for "20%")."""
    problems = []
    leftover = [m.group(0) for m in PLACEHOLDER.finditer(translation)] or PLACEHOLDER_DEBRIS.findall(translation)
    if leftover:
        problems.append(f"placeholder debris left in the text: {', '.join(sorted(set(leftover)))}")
    values = list(dict.fromkeys(protected_spans(source, names)))
    plurals = {value: value[:-1] for value in values if _NAME_PLURAL.fullmatch(value)}
    for value in values:
        if value in plurals.values():
            continue  # counted with its plural, which a translation may write singular
        want, got = _count(source, value), _count(translation, value, language)
        if value in plurals:
            singular = plurals[value]
            want += _count(source, singular)
            got += _count(translation, singular)
        amount = AMOUNT.match(value)
        if amount and want < got <= _bare(source, amount["number"]):
            # "0.5 mg/mL … from 0.5 to 300": where the English has the number on its own too, a word of the
            # target's letters after it ("0.5 至 300") is no second amount
            continue
        if got != want:
            problems.append(f"{value!r} appears {got} time{'s' * (got != 1)}, the source has {want}")
    if problems:
        return CheckResult(name="placeholders", passed=False, detail="; ".join(problems))
    return CheckResult(name="placeholders", passed=True, detail=f"{len(protected_spans(source, names))} protected spans intact")
