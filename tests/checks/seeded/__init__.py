"""The seeded-error suite: correct benchmark texts in every target language and broken versions of them.

sources.json holds the English texts (task descriptions, multi-line data cards, 2-3 word domain tags); <lang>.json
holds their correct translations ("texts") and the hand-written defects ("defects"): a whole text or a tag in a
neighbour language, half a tag in English, the wrong script, an invented sentence, clause or column. A defect
gives its text outright ("translation"), borrows another language's correct text ("from"), or edits the correct
one ("replace": [old, new]).

The mechanical defects are made here from every correct text, the same way in every language: the English
source echoed back, the last sentence or line cut (a tag cut to its first word), a middle sentence or line
dropped, a sentence or bullet line left in English, each number of the source dropped once, and numbers damaged
the way a translator localizes them (0,5; 42 000; 28×28; a Cyrillic х; Eastern Arabic or full-width digits;
a local date format).

    from tests.checks.seeded import load_cases
    for case in load_cases():  # Case(language, field, text_id, source, translation, defect, note)
        ...
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).parent
LANGUAGES = ("ar", "be", "zh", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr")

DEFECTS = ("language_confusion", "mixed_language", "truncation", "number_damaged", "number_dropped",
           "english_echo", "wrong_script", "added_content", "omission")
# What the deterministic checks answer for; additions and omissions are for the adequacy check.
DETERMINISTIC = DEFECTS[:7]
ADEQUACY = DEFECTS[7:]

CJK = ("zh", "ja")
CYRILLIC = ("be", "ru", "kk")


@dataclass(frozen=True)
class Case:
    """One text to check: a correct translation (defect None) or a broken one of a defect class."""

    language: str
    field: str  # description | data_card | domain
    text_id: str
    source: str
    translation: str
    defect: str | None
    note: str


def field_of(text_id: str) -> str:
    """The field a text id stands for: description, data_card or domain."""
    if text_id.startswith("domain_"):
        return "domain"
    return "data_card" if text_id.endswith("_data_card") else "description"


@lru_cache(maxsize=None)
def sources() -> dict[str, str]:
    """The English texts by id."""
    return json.loads((HERE / "sources.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def language_file(language: str) -> dict:
    """One language's file: {"texts": {id: correct translation}, "defects": [...]}."""
    return json.loads((HERE / f"{language}.json").read_text(encoding="utf-8"))


# -- splitting texts -------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")


def sentences(line: str) -> list[str]:
    """The sentences of one line, each with its end mark."""
    return [part for part in _SENTENCE_END.split(line) if part.strip()]


def _join(parts: list[str], language: str) -> str:
    return ("" if language in CJK else " ").join(parts)


def _sentence_spots(text: str) -> list[tuple[int, int]]:
    """(line index, sentence index) of every sentence of a text."""
    return [(i, j) for i, line in enumerate(text.split("\n")) for j, _ in enumerate(sentences(line))]


def _replace_sentence(text: str, spot: tuple[int, int], new: str | None, language: str) -> str:
    lines = text.split("\n")
    parts = sentences(lines[spot[0]])
    if new is None:
        del parts[spot[1]]
    else:
        parts[spot[1]] = new
    lines[spot[0]] = _join(parts, language)
    return "\n".join(lines)


# -- mechanical defects ----------------------------------------------------------------------------


def _truncated(text_id: str, source: str, text: str, language: str) -> list[tuple[str, str]]:
    field = field_of(text_id)
    if field == "domain":
        words = text.split()
        # Chinese and Japanese write no spaces: their tags' first words are cut by hand in the language files.
        return [(words[0], "tag cut to its first word")] if len(words) >= 2 else []
    if field == "data_card":
        return [("\n".join(text.split("\n")[:-1]), "last line missing")]
    spots = _sentence_spots(text)
    return [(_replace_sentence(text, spots[-1], None, language), "last sentence missing")]


def _omitted(text_id: str, text: str, language: str) -> list[tuple[str, str]]:
    field = field_of(text_id)
    if field == "domain":
        return []
    if field == "data_card":
        lines = text.split("\n")
        middle = len(lines) // 2
        return [("\n".join(lines[:middle] + lines[middle + 1:]), f"line {middle + 1} dropped")]
    spots = _sentence_spots(text)
    return [(_replace_sentence(text, spot, None, language), f"sentence {number + 1} dropped")
            for number, spot in enumerate(spots) if 0 < number < len(spots) - 1
            and sum(1 for other in spots if other[0] == spot[0]) > 1]


def _mixed(text_id: str, source: str, text: str, language: str) -> list[tuple[str, str]]:
    field = field_of(text_id)
    if field == "domain":
        return []  # half a tag in English is written by hand
    if field == "data_card":
        english, lines = source.split("\n"), text.split("\n")
        found = []
        for index in (len(lines) // 2, len(lines) - 1):
            mixed = lines[:index] + [english[index]] + lines[index + 1:]
            found.append(("\n".join(mixed), f"line {index + 1} left in English"))
        return found
    english = [sentence for line in source.split("\n") for sentence in sentences(line)]
    spots = _sentence_spots(text)
    return [(_replace_sentence(text, spots[-1], english[-1], language), "last sentence left in English")]


# A number of the (English) source: 2011, 26.5, 28x28, 05:00, 2011-01-20; not the digit of an identifier (F1).
NUMBER = re.compile(r"(?<![A-Za-z0-9_.\-])\d+(?:[.:x]\d+)*(?:-\d+)*")


def _dropped(source: str, text: str) -> list[tuple[str, str]]:
    found = []
    for value in dict.fromkeys(NUMBER.findall(source)):
        match = re.search(rf"(?<![A-Za-z0-9_.:\-]){re.escape(value)}(?![0-9]|[.:x\-][0-9])", text)
        if not match:
            continue
        start, end = match.span()
        if end < len(text) and text[end] == " ":
            end += 1
        elif start > 0 and text[start - 1] == " ":
            start -= 1
        found.append((text[:start] + text[end:], f"{value} left out"))
    return found


_THOUSANDS = {"fr": "42\u202f000", "ru": "42 000", "be": "42 000", "kk": "42 000", "pl": "42 000",
              "es": "42.000", "it": "42.000", "ro": "42.000", "tr": "42.000", "zh": "42,000", "ja": "42,000",
              "ar": "42,000"}
_DATES = {"fr": "20/01/2011", "es": "20/01/2011", "it": "20/01/2011", "ar": "20/01/2011", "ro": "20.01.2011",
          "pl": "20.01.2011", "ru": "20.01.2011", "be": "20.01.2011", "kk": "20.01.2011", "tr": "20.01.2011",
          "zh": "2011年1月20日", "ja": "2011年1月20日"}
_EASTERN_ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
_PERSIAN = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
_FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def _damaged(text_id: str, text: str, language: str) -> list[tuple[str, str]]:
    swaps = [("0.5", "0,5"), ("26.5%", "26,5 %" if language == "fr" else "26,5%"), ("28x28", "28×28"),
             ("28x28", "28 x 28"), ("42000", _THOUSANDS[language]), ("2011-01-20", _DATES[language])]
    if language in CYRILLIC:
        swaps.append(("28x28", "28х28"))  # the Cyrillic letter х
    found = [(text.replace(old, new), f"{old} -> {new}") for old, new in swaps if old in text]
    # Whole texts in the script's own digits, where a translator might switch to them.
    if language == "ar" and text_id in ("digits_description", "bikes_description", "churn_data_card"):
        found.append((_digits_outside_code(text, _EASTERN_ARABIC), "Eastern Arabic digits"))
    if language == "ar" and text_id == "energy_description":
        found.append((_digits_outside_code(text, _PERSIAN), "Persian digits"))
    if language in CJK and text_id in ("energy_description", "churn_data_card"):
        found.append((_digits_outside_code(text, _FULL_WIDTH), "full-width digits"))
    return found


def _digits_outside_code(text: str, table: dict) -> str:
    parts = re.split(r"(`[^`]*`)", text)
    return "".join(part if part.startswith("`") else part.translate(table) for part in parts)


# -- all cases -------------------------------------------------------------------------------------


def _hand_written(language: str, defect: dict) -> str:
    if "translation" in defect:
        return defect["translation"]
    if "from" in defect:
        return language_file(defect["from"])["texts"][defect["text"]]
    text = language_file(language)["texts"][defect["text"]]
    old, new = defect["replace"]
    if old not in text:
        raise ValueError(f"{language}.json: {defect['defect']} on {defect['text']}: {old!r} is not in the text")
    return text.replace(old, new, 1)


def load_cases(languages: tuple[str, ...] = LANGUAGES) -> list[Case]:
    """Every case of the suite: the correct texts first, then the broken ones, language by language."""
    english = sources()
    cases = []
    for language in languages:
        texts = language_file(language)["texts"]
        for text_id, text in texts.items():
            cases.append(Case(language, field_of(text_id), text_id, english[text_id], text, None, "correct"))
    for language in languages:
        texts = language_file(language)["texts"]
        for text_id, text in texts.items():
            source = english[text_id]
            made = {
                "english_echo": [(source, "the English source")],
                "truncation": _truncated(text_id, source, text, language),
                "omission": _omitted(text_id, text, language),
                "mixed_language": _mixed(text_id, source, text, language),
                "number_dropped": _dropped(source, text),
                "number_damaged": _damaged(text_id, text, language),
            }
            for defect, variants in made.items():
                for broken, note in variants:
                    cases.append(Case(language, field_of(text_id), text_id, source, broken, defect, note))
        for defect in language_file(language)["defects"]:
            text_id = defect["text"]
            cases.append(Case(language, field_of(text_id), text_id, english[text_id],
                              _hand_written(language, defect), defect["defect"], defect.get("note", "")))
    return cases
