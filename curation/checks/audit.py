"""`curate check`: the translation checks on translations that did not come from the pipeline.

A curator audits an annotator's fix before pulling it, or another benchmark's translations: a JSONL or CSV
file with one translation per row, columns `id, language, field, source, translation` (field: description,
data_card or domain; extra columns are ignored). Rows are read one by one: a row that cannot be checked is one
line naming the file and the row, and the others are checked all the same. A file that cannot be read at all
(missing, empty, not UTF-8, without a needed column) is one line and nothing else.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from curation.config import Settings
from curation.languages import UnknownLanguage, parse_language
from curation.records import CheckResult

COLUMNS = ("id", "language", "field", "source", "translation")
FIELDS = ("description", "data_card", "domain")


class UnreadableInput(ValueError):
    """The file as a whole cannot be read; the message names it and says what to do."""


@dataclass(frozen=True)
class Row:
    """One translation to check, and where it was in the file ("line 3", "row 4")."""

    where: str
    id: str
    language: str
    field: str
    source: str
    translation: str


@dataclass(frozen=True)
class BadRow:
    """A row that cannot be checked: where it is and why."""

    where: str
    problem: str


@dataclass(frozen=True)
class Audited:
    """The checks' verdict on one row."""

    row: Row
    results: list[CheckResult]

    @property
    def failed(self) -> list[CheckResult]:
        return [result for result in self.results if not result.passed]

    def as_json(self) -> dict:
        """The row as `curate check --json` prints it."""
        return {"id": self.row.id, "passed": not self.failed,
                "failed": [{"check": result.name, "detail": result.detail} for result in self.failed]}


def _text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UnreadableInput(f"{path}: no such file") from None
    except OSError as error:
        raise UnreadableInput(f"{path}: cannot be read ({error.strerror})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise UnreadableInput(f"{path}: not UTF-8 (line {line}, byte 0x{data[error.start]:02x}); "
                              "save the file as UTF-8 and run again") from None
    if not text.strip():
        raise UnreadableInput(f"{path}: the file is empty; it needs one row per translation with "
                              f"{', '.join(COLUMNS)}")
    return text


def _row(where: str, values: dict) -> Row | BadRow:
    missing = [column for column in COLUMNS if values.get(column) is None]
    if missing:
        return BadRow(where, f"no {', '.join(missing)}; every row needs {', '.join(COLUMNS)}")
    if not all(isinstance(values[column], str) for column in COLUMNS):
        wrong = [column for column in COLUMNS if not isinstance(values[column], str)]
        return BadRow(where, f"{', '.join(wrong)} must be text")
    try:
        language = parse_language(values["language"]).code
    except UnknownLanguage as error:
        return BadRow(where, str(error))
    field = values["field"].strip()
    if field not in FIELDS:
        return BadRow(where, f"unknown field {field!r}; use one of {', '.join(FIELDS)}")
    if not values["source"].strip():
        return BadRow(where, "the source is empty; give the English text the translation was made from")
    return Row(where, values["id"].strip(), language, field, values["source"], values["translation"])


def _jsonl(path: Path, text: str) -> Iterator[Row | BadRow]:
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path} line {number}"
        try:
            values = json.loads(line)
        except json.JSONDecodeError as error:
            yield BadRow(where, f"not JSON ({error.msg}); write one JSON object per line")
            continue
        if not isinstance(values, dict):
            yield BadRow(where, "not a JSON object; write one object per line with " + ", ".join(COLUMNS))
            continue
        yield _row(where, values)


def _csv(path: Path, text: str) -> Iterator[Row | BadRow]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t" if path.suffix.lower() == ".tsv" else ",")
    header = [name.strip().lower() for name in next(reader)]
    missing = [column for column in COLUMNS if column not in header]
    if missing:
        raise UnreadableInput(f"{path} row 1: missing column{'s' * (len(missing) > 1)} {', '.join(missing)}; "
                              f"the header needs {', '.join(COLUMNS)}")
    for number, cells in enumerate(reader, start=2):  # numbered as a spreadsheet shows them: the header is row 1
        if not any(cell.strip() for cell in cells):
            continue
        where = f"{path} row {number}"
        if len(cells) != len(header):
            yield BadRow(where, f"{len(cells)} cells, the header has {len(header)}; check the quoting of commas "
                                "and line breaks")
            continue
        yield _row(where, dict(zip(header, cells)))


def read_rows(path: Path) -> list[Row | BadRow]:
    """The rows of a JSONL or CSV file (by extension; otherwise a first "{" means JSONL), bad ones included."""
    text = _text(path)
    jsonl = path.suffix.lower() in (".jsonl", ".json", ".ndjson") or (
        path.suffix.lower() not in (".csv", ".tsv") and text.lstrip().startswith("{"))
    rows = list(_jsonl(path, text) if jsonl else _csv(path, text))
    if not rows:
        raise UnreadableInput(f"{path}: no rows; it needs one row per translation with {', '.join(COLUMNS)}")
    return rows


def audit(row: Row, settings: Settings) -> Audited:
    """Every translation check on one row."""
    from curation.checks.translation import check_translation

    return Audited(row, check_translation(row.source, row.translation, row.language, settings))
