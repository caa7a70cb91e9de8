"""The default backend: one .xlsx workbook per language and annotator, opened in Excel or LibreOffice.

Dropdown validation on the answer column, grey locked columns under sheet protection (editable cells are
unlocked), wrapped text. Every value is written as a string cell with a quote prefix, so text starting with
"=" never becomes a formula.
"""

from __future__ import annotations

import os
import re
import tempfile
import zipfile
from copy import copy
from pathlib import Path

import openpyxl
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill, Protection
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from curation.languages import parse_language
from curation.review.layout import (
    INSTRUCTIONS_TAB,
    LATER_COLUMNS,
    RUBRIC_CHOICES,
    RUBRIC_TAB,
    TAB_TITLES,
    VERDICT_CHOICES,
    columns_for,
    column_letter,
    instructions,
)
from curation.project_paths import resolved_path, stored_path
from curation.review.headers import read_tab
from curation.review.sheet import ReviewError, RowWrite, SheetContent, Target, parse_meta

LOCKED_FILL = PatternFill("solid", fgColor="EDEDED")
HEADER_FONT = Font(bold=True)
# Validation and unlocked cells reach this far below the last pushed row, so pasted rows still get a dropdown.
SPARE_ROWS = 50


def safe_text(text: str) -> str:
    """Text an xlsx cell can hold: control characters other than tab and newline are dropped."""
    return ILLEGAL_CHARACTERS_RE.sub("", text)


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._@-]+", "_", name).strip("_") or "annotator"


class XlsxBackend:
    """Workbooks under the review_sheets folder: <lang>/<lang>-<annotator>.xlsx, en/rubric-<annotator>.xlsx.

    References are paths relative to the project root (`root`) when the folder is inside it, so the store of a
    copied or moved project names the copy's workbooks, never the original's.
    """

    def __init__(self, folder: Path, root: Path | None = None):
        self.folder = folder
        self.root = root

    def locate(self, target: Target) -> str:
        stem = f"rubric-{_slug(target.annotator)}" if target.rubric else f"{target.language}-{_slug(target.annotator)}"
        path = self.folder / target.language / f"{stem}.xlsx"
        return stored_path(path, self.root) if self.root is not None else str(path)

    def tab_name(self, target: Target, tab: str) -> str:
        return tab

    def workbooks(self, language: str) -> list[Path]:
        """The workbooks pushed for a language (LibreOffice lock files left aside)."""
        return sorted(p for p in (self.folder / language).glob("*.xlsx") if not p.name.startswith((".~lock", "~$")))

    def read(self, ref: str) -> SheetContent | None:
        path = resolved_path(ref, self.root)
        if not path.exists():
            return None
        try:
            # Formulas as typed, not their cached results: a fix typed as =HYPERLINK(...) is the annotator's text.
            book = openpyxl.load_workbook(path)
        except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError):
            raise ReviewError(f"{path}: cannot be opened as an .xlsx workbook; save it as an Excel workbook (.xlsx) "
                              "and pull again") from None
        content = SheetContent(ref=ref)
        for sheet in book.worksheets:
            rows, formulas = [], {}
            for r, cells in enumerate(sheet.iter_rows()):
                rows.append([_typed(cell.value) for cell in cells])
                formulas.update({(r, c): rows[-1][c] for c, cell in enumerate(cells) if cell.data_type == "f"})
            if sheet.title == INSTRUCTIONS_TAB:
                content.meta = parse_meta(rows)
                continue
            tab = read_tab(sheet.title, rows, formulas)
            content.tabs[sheet.title] = tab.rows
            if tab.problem:
                content.problems[sheet.title] = tab.problem
        return content

    def write(self, target: Target, ref: str, writes: list[RowWrite]) -> None:
        path = resolved_path(ref, self.root)
        book = openpyxl.load_workbook(path) if path.exists() else self._new_book(target)
        for write in writes:
            sheet = book[write.tab] if write.tab in book.sheetnames else self._add_tab(book, write.tab)
            for index, column in enumerate(columns_for(write.tab)):
                if column.key in write.values:
                    _put_text(sheet.cell(write.row, index + 1), write.values[column.key], column.editable)
                if column.key in LATER_COLUMNS and sheet.cell(1, index + 1).value in (None, ""):
                    # a tab pushed before this column existed: its rows now fill it, so it gets its header
                    _put_text(sheet.cell(1, index + 1), column.header, False).font = HEADER_FONT
                    sheet.column_dimensions[column_letter(index)].width = column.width
        for sheet in book.worksheets:
            if sheet.title != INSTRUCTIONS_TAB:
                self._format(sheet)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Save beside and rename, so a crash never leaves a half-written workbook an annotator may hold rows in.
        handle, temporary = tempfile.mkstemp(suffix=".xlsx", dir=path.parent)
        os.close(handle)
        try:
            book.save(temporary)
            os.replace(temporary, path)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)

    def _new_book(self, target: Target) -> openpyxl.Workbook:
        book = openpyxl.Workbook()
        sheet = book.active
        sheet.title = INSTRUCTIONS_TAB
        language = parse_language(target.language).english
        for number, (label, text) in enumerate(instructions(language, target.annotator, target.language, target.rubric, "xlsx"), 1):
            _put_text(sheet.cell(number, 1), label, False).font = HEADER_FONT
            _put_text(sheet.cell(number, 2), text, False)
        sheet.column_dimensions["A"].width = 18
        sheet.column_dimensions["B"].width = 110
        sheet.protection.sheet = True
        for tab in ([RUBRIC_TAB] if target.rubric else list(TAB_TITLES.values())):
            self._add_tab(book, tab)
        return book

    def _add_tab(self, book: openpyxl.Workbook, tab: str) -> Worksheet:
        sheet = book.create_sheet(tab)
        for index, column in enumerate(columns_for(tab)):
            _put_text(sheet.cell(1, index + 1), column.header, False).font = HEADER_FONT
            sheet.column_dimensions[column_letter(index)].width = column.width
        sheet.freeze_panes = "B2"
        return sheet

    def _format(self, sheet: Worksheet) -> None:
        columns = columns_for(sheet.title)
        # max_row counts formatted empty rows too; the spare rows must not grow with every push.
        used = max((cell.row for row in sheet.iter_rows() for cell in row if cell.value not in (None, "")), default=1)
        last = used + SPARE_ROWS
        # Styling a cell through openpyxl's attributes costs ~0.1 ms (new style objects, hashed into the workbook's
        # tables): seconds for a push of all languages. A cell's style is an array of table indexes, so each
        # (style before, locked, filled) is styled once and its array copied onto the cells that share it.
        styled: dict[tuple, object] = {}
        for row in range(2, last + 1):
            for index, column in enumerate(columns):
                cell = sheet.cell(row, index + 1)
                filled = not column.editable and row <= used
                key = (tuple(cell._style or ()), column.editable, filled)
                if key in styled:
                    cell._style = copy(styled[key])
                    continue
                cell.alignment = Alignment(wrap_text=True, vertical="top")
                cell.protection = Protection(locked=not column.editable)
                if filled:
                    cell.fill = LOCKED_FILL
                styled[key] = copy(cell._style)
            if row <= used:
                sheet.row_dimensions[row].height = _row_height(sheet, row, columns)
        answer = next(i for i, column in enumerate(columns) if column.key in ("verdict", "score"))
        choices = RUBRIC_CHOICES if sheet.title == RUBRIC_TAB else VERDICT_CHOICES
        validation = DataValidation(type="list", formula1='"' + ",".join(choices) + '"', allow_blank=True,
                                    showErrorMessage=True, errorTitle="Pick an answer",
                                    error="Choose one of the answers in the list.")
        letter = column_letter(answer)
        validation.add(f"{letter}2:{letter}{last}")
        sheet.data_validations.dataValidation = [validation]  # replace, not pile up, on every push
        sheet.protection.sheet = True
        # Annotators may still resize rows and columns to read long texts.
        sheet.protection.formatColumns = False
        sheet.protection.formatRows = False


def _row_height(sheet: Worksheet, row: int, columns) -> float:
    """Points enough to show the longest wrapped cell of a row; Excel does not fit rows to wrapped text on opening."""
    lines = 1
    for index, column in enumerate(columns):
        value = sheet.cell(row, index + 1).value
        if value:
            # about one character per width unit; each paragraph starts a new line
            lines = max(lines, sum(max(1, -(-len(part) // max(column.width - 2, 1))) for part in str(value).split("\n")))
    return min(409.0, 15.0 * lines)  # 409 points is the tallest row a spreadsheet allows


def _typed(value: object) -> object:
    """A cell's value as typed: array and data-table formulas as their formula text."""
    text = getattr(value, "text", None)  # ArrayFormula
    if isinstance(text, str):
        return text if text.startswith("=") else f"={text}"
    return value


def _put_text(cell, text: str, editable: bool):
    cell.value = safe_text(text) if text else None
    if cell.value is not None:
        cell.data_type = "s"  # a string even when it starts with "=": never a formula
        cell.quotePrefix = True  # and Excel/LibreOffice keep it so when the annotator edits the cell
    return cell
