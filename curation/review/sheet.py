"""The shape both backends share: rows read from a tab, rows to write, and the backend protocol."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Protocol


class ReviewError(Exception):
    """A review step that cannot go on (no annotators named, no sheet configured, the sheet service refused);
    the message says what to do."""


@dataclass(frozen=True)
class SheetRow:
    """One non-empty row of a tab: its 1-based row number and its cells by column key ("" when empty)."""

    row: int
    cells: dict[str, str]
    formulas: tuple[str, ...] = ()  # keys of cells that held a formula, taken as the text typed
    merged: bool = False  # under cells merged across rows or columns: what it shows is not what was typed in it

    def filled(self, editable: tuple[str, ...]) -> bool:
        """Whether an annotator wrote anything in the editable columns."""
        return any(self.cells.get(key, "").strip() for key in editable)


@dataclass
class SheetContent:
    """What a sheet holds: the tabs' rows and the Instructions tab's labelled values (Language, Annotator)."""

    ref: str  # workbook path or spreadsheet id, for messages
    tabs: dict[str, list[SheetRow]] = field(default_factory=dict)
    meta: dict[str, str] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)  # tab -> why none of its rows can be read
    merged: dict[str, list[str]] = field(default_factory=dict)  # tab -> a line per merged range over rows it holds
    stamp: str | None = None  # the backend's fingerprint of exactly the content read (see SheetBackend.stamp)


@dataclass(frozen=True)
class RowWrite:
    tab: str
    row: int
    values: dict[str, str]


@dataclass(frozen=True)
class Target:
    """Whose sheet: a language, an annotator, and whether it is the rubric sheet of the English descriptions."""

    language: str
    annotator: str
    rubric: bool = False


class SheetBackend(Protocol):
    def locate(self, target: Target) -> str:
        """The sheet reference (workbook path or spreadsheet id) of a target."""

    def tab_name(self, target: Target, tab: str) -> str:
        """The tab title a field's (or the rubric's) rows go to in the target's sheet."""

    def read(self, ref: str) -> SheetContent | None:
        """The sheet's content, or None when it does not exist yet."""

    def write(self, target: Target, ref: str, writes: list[RowWrite]) -> str | None:
        """Create what is missing (tabs, instructions, validation, protection) and write the rows; returns the stamp
        of the content written when the backend knows it exactly, else None."""

    def stamp(self, ref: str) -> str | None:
        """A cheap fingerprint of the sheet's whole content as it is now (equal stamps: the same content), or None
        when the sheet does not exist or the backend has none. Push reads no sheet whose stamp it recorded."""


# What an .xlsx cell cannot hold (the XML 1.0 control characters other than tab, newline and carriage return); the
# same characters openpyxl refuses, so text compares the same before and after a workbook round trip.
_NOT_IN_A_CELL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def safe_text(text: str) -> str:
    """Text an xlsx cell can hold: control characters other than tab and newline are dropped."""
    return _NOT_IN_A_CELL.sub("", text)


def normal_text(value: object) -> str:
    """A cell as text, with line endings and trailing spaces normalized so a round trip compares equal."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(line.rstrip() for line in text.split("\n")).strip()


def parse_meta(rows: list[list[object]]) -> dict[str, str]:
    """Labelled values from the Instructions tab's first two columns."""
    return {normal_text(row[0]): normal_text(row[1]) for row in rows if len(row) >= 2 and normal_text(row[0])}

