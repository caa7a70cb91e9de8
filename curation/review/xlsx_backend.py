"""The default backend: one .xlsx workbook per language and annotator, opened in Excel or LibreOffice.

Dropdown validation on the answer column, grey locked columns under sheet protection (editable cells are
unlocked), wrapped text. Every value is written as a string cell with a quote prefix, so text starting with
"=" never becomes a formula.
"""

from __future__ import annotations

import functools
import hashlib
import io
import re
import zipfile
from copy import copy
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

from curation.languages import parse_language
from curation.review.layout import (
    INSTRUCTIONS_TAB,
    INSTRUCTIONS_WIDTHS,
    ANSWER_COLUMNS,
    LATER_COLUMNS,
    RUBRIC_CHOICES,
    RUBRIC_TAB,
    TAB_TITLES,
    VERDICT_CHOICES,
    columns_for,
    column_letter,
    instructions,
)
from curation.output_folders import cannot_write, write_whole
from curation.project_paths import resolved_path, stored_path
from curation.review.headers import read_tab
from curation.review.sheet import ReviewError, RowWrite, SheetContent, Target, parse_meta, safe_text

if TYPE_CHECKING:
    import openpyxl
    from openpyxl.worksheet.worksheet import Worksheet

__all__ = ["XlsxBackend", "safe_text"]

# The dropdown reaches this far below the last pushed row, so pasted rows still get it.
SPARE_ROWS = 50
# Where workbooks are written before they are renamed into place: beside the language folders, not in them.
PARTIALS = ".partial"
# What a push killed by earlier versions left: a temporary file named like mkstemp's, in the language folder.
_OLD_TEMPORARY = re.compile(r"tmp[a-z0-9_]{8}\.xlsx")


# openpyxl is imported where a workbook is opened or made, not with this module: importing it (and the numpy it
# loads) takes ~0.6 s, more than a whole push that can prove no workbook gets anything.
@functools.cache
def _styles() -> SimpleNamespace:
    from openpyxl.styles import Alignment, Font, PatternFill, Protection

    return SimpleNamespace(locked_fill=PatternFill("solid", fgColor="EDEDED"), header_font=Font(bold=True),
                           wrapped=Alignment(wrap_text=True, vertical="top"),
                           locked=Protection(locked=True), unlocked=Protection(locked=False))


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
        # The workbook last read, by reference and stamp: a push that writes to it right after reading it need not
        # parse the same bytes twice (only when the file still holds exactly those bytes).
        self._last_read: tuple[str, str, openpyxl.Workbook] | None = None

    def locate(self, target: Target) -> str:
        stem = f"rubric-{_slug(target.annotator)}" if target.rubric else f"{target.language}-{_slug(target.annotator)}"
        path = self.folder / target.language / f"{stem}.xlsx"
        return stored_path(path, self.root) if self.root is not None else str(path)

    def tab_name(self, target: Target, tab: str) -> str:
        return tab

    def workbooks(self, language: str) -> list[Path]:
        """The workbooks pushed for a language (LibreOffice lock files left aside)."""
        return sorted(p for p in (self.folder / language).glob("*.xlsx") if not p.name.startswith((".~lock", "~$")))

    def stamp(self, ref: str) -> str | None:
        """The SHA-256 of the workbook file's bytes (None when there is none)."""
        try:
            return _digest(resolved_path(ref, self.root).read_bytes())
        except OSError:
            return None

    def read(self, ref: str) -> SheetContent | None:
        import openpyxl
        from openpyxl.utils.exceptions import InvalidFileException

        path = resolved_path(ref, self.root)
        self._last_read = None
        if not path.exists():
            return None
        try:
            data = path.read_bytes()
            # Formulas as typed, not their cached results: a fix typed as =HYPERLINK(...) is the annotator's text.
            book = openpyxl.load_workbook(io.BytesIO(data))
        except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError):
            raise ReviewError(f"{path}: cannot be opened as an .xlsx workbook; save it as an Excel workbook (.xlsx) "
                              "and pull again") from None
        content = SheetContent(ref=ref, stamp=_digest(data))
        for sheet in book.worksheets:
            rows, formulas = [], {}
            for r, cells in enumerate(sheet.iter_rows()):
                rows.append([_typed(cell.value) for cell in cells])
                formulas.update({(r, c): rows[-1][c] for c, cell in enumerate(cells) if cell.data_type == "f"})
            if sheet.title == INSTRUCTIONS_TAB:
                content.meta = parse_meta(rows)
                continue
            merges = [(r.min_row - 1, r.max_row - 1, r.min_col - 1, r.max_col - 1) for r in sheet.merged_cells.ranges]
            tab = read_tab(sheet.title, rows, formulas, merges)
            content.tabs[sheet.title] = tab.rows
            if tab.problem:
                content.problems[sheet.title] = tab.problem
            if tab.merged:
                content.merged[sheet.title] = tab.merged
        self._last_read = (ref, content.stamp, book)
        return content

    def write(self, target: Target, ref: str, writes: list[RowWrite]) -> str | None:
        """Write the rows; returns the stamp of the workbook saved, or None when it was not written over exactly what
        was read (not read first, or deleted since): then the next push reads it again rather than trust the stamp.
        A workbook whose bytes changed since it was read is not written at all (ReviewError)."""
        path = resolved_path(ref, self.root)
        book, as_read = self._open(target, ref, path)
        for write in writes:
            sheet = book[write.tab] if write.tab in book.sheetnames else self._add_tab(book, write.tab)
            for index, column in enumerate(columns_for(write.tab)):
                if column.key in write.values:
                    _put_text(sheet.cell(write.row, index + 1), write.values[column.key], column.editable)
                if column.key in LATER_COLUMNS and sheet.cell(1, index + 1).value in (None, ""):
                    # a tab pushed before this column existed: its rows now fill it, so it gets its header
                    _put_text(sheet.cell(1, index + 1), column.header, False).font = _styles().header_font
                    sheet.column_dimensions[column_letter(index)].width = column.width
        written: dict[str, dict[int, set[str]]] = {}
        for write in writes:
            written.setdefault(write.tab, {}).setdefault(write.row, set()).update(write.values)
        for sheet in book.worksheets:
            if sheet.title != INSTRUCTIONS_TAB:
                self._format(sheet, written.get(sheet.title, {}))
        buffer = io.BytesIO()
        book.save(buffer)
        data = buffer.getvalue()
        # Written whole or not at all, so a crash never leaves a half-written workbook an annotator may hold rows in;
        # the partial file goes outside the language folders, which the curator sends out (output_folders.py).
        scratch = path.parent.parent / PARTIALS
        try:
            _clear_old_temporaries(path.parent)
            write_whole(path, data, scratch)
        except OSError as error:
            raise cannot_write(path, error, "paths.review_sheets", "push again", scratch) from None
        return _digest(data) if as_read else None

    def _open(self, target: Target, ref: str, path: Path) -> tuple[openpyxl.Workbook, bool]:
        """The workbook to write to (a new one when there is none), and whether it is exactly what was last read of it
        (then its parse is reused)."""
        import openpyxl

        last, self._last_read = self._last_read, None
        read_it = last is not None and last[0] == ref
        if not path.exists():
            return self._new_book(target), not read_it  # a workbook deleted since it was read is not as read
        data = path.read_bytes()
        if read_it and last[1] != _digest(data):
            # Rows go by position: placed from the older picture, they could land on rows the annotator just filled.
            raise ReviewError(f"{path}: changed while push was writing to it (saved in Excel or LibreOffice just now?); "
                              "nothing was written to it: save and close it there, then push again")
        if read_it:
            return last[2], True
        return openpyxl.load_workbook(io.BytesIO(data)), False

    def _new_book(self, target: Target) -> openpyxl.Workbook:
        import openpyxl

        book = openpyxl.Workbook()
        sheet = book.active
        sheet.title = INSTRUCTIONS_TAB
        language = parse_language(target.language).english
        rows = instructions(language, target.annotator, target.language, target.rubric, "xlsx")
        for number, (label, text) in enumerate(rows, 1):
            _put_text(sheet.cell(number, 1), label, False).font = _styles().header_font
            _put_text(sheet.cell(number, 2), text, False)
            for column in (1, 2):
                sheet.cell(number, column).alignment = _styles().wrapped
        for letter, width in zip("AB", INSTRUCTIONS_WIDTHS):
            sheet.column_dimensions[letter].width = width
        columns = [SimpleNamespace(width=width) for width in INSTRUCTIONS_WIDTHS]
        for number in range(1, len(rows) + 1):
            sheet.row_dimensions[number].height = _row_height(sheet, number, columns)
        # Printed or saved as PDF: one page wide, as many tall as the text needs.
        sheet.page_setup.fitToWidth, sheet.page_setup.fitToHeight = 1, 0
        sheet.sheet_properties.pageSetUpPr.fitToPage = True
        sheet.protection.sheet = True
        for tab in ([RUBRIC_TAB] if target.rubric else list(TAB_TITLES.values())):
            self._add_tab(book, tab)
        return book

    def _add_tab(self, book: openpyxl.Workbook, tab: str) -> Worksheet:
        sheet = book.create_sheet(tab)
        for index, column in enumerate(columns_for(tab)):
            _put_text(sheet.cell(1, index + 1), column.header, False).font = _styles().header_font
            sheet.column_dimensions[column_letter(index)].width = column.width
        sheet.freeze_panes = "B2"
        return sheet

    def _format(self, sheet: Worksheet, rows: dict[int, set[str]]) -> None:
        """Style the rows written now (`rows`: row -> the column keys written), give every column the style its empty
        cells show, and set the dropdown and the protection. Rows written by earlier pushes keep their styles."""
        from openpyxl.worksheet.datavalidation import DataValidation

        styles = _styles()
        columns = columns_for(sheet.title)
        # An empty cell shows its column's style: editable columns unlocked, so an annotator can type (or paste rows)
        # below the pushed rows, which therefore need no cells of their own (styled spare rows were ~70% of the cells
        # a first push saved, and saving cells is most of a push's time).
        for index, column in enumerate(columns):
            dimension = sheet.column_dimensions[column_letter(index)]
            dimension.alignment = styles.wrapped
            dimension.protection = styles.unlocked if column.editable else styles.locked
        # Styling a cell through openpyxl's attributes costs ~0.1 ms (new style objects, hashed into the workbook's
        # tables): seconds for a push of all languages. A cell's style is an array of table indexes, so each
        # (style before, locked) is styled once and its array copied onto the cells that share it.
        styled: dict[tuple, object] = {}
        for row, keys in sorted(rows.items()):
            for index, column in enumerate(columns):
                if column.editable and column.key not in keys:
                    continue  # left empty for the annotator: its column's style unlocks it, no cell needed
                cell = sheet.cell(row, index + 1)
                key = (tuple(cell._style or ()), column.editable)
                if key in styled:
                    cell._style = copy(styled[key])
                    continue
                cell.alignment = styles.wrapped
                cell.protection = styles.unlocked if column.editable else styles.locked
                if not column.editable:
                    cell.fill = styles.locked_fill
                styled[key] = copy(cell._style)
            sheet.row_dimensions[row].height = _row_height(sheet, row, columns)
        # The last row with an item id; max_row counts formatted empty rows too, and the dropdown must not grow with
        # every push.
        used = max((cell.row for (cell,) in sheet.iter_rows(min_col=1, max_col=1) if cell.value not in (None, "")),
                   default=1)
        last = used + SPARE_ROWS
        choices = RUBRIC_CHOICES if sheet.title == RUBRIC_TAB else VERDICT_CHOICES
        validation = DataValidation(type="list", formula1='"' + ",".join(choices) + '"', allow_blank=True,
                                    showErrorMessage=True, errorTitle="Pick an answer",
                                    error="Choose one of the answers in the list.")
        for answer in (i for i, column in enumerate(columns) if column.key in ANSWER_COLUMNS):
            letter = column_letter(answer)
            validation.add(f"{letter}2:{letter}{last}")
        sheet.data_validations.dataValidation = [validation]  # replace, not pile up, on every push
        sheet.protection.sheet = True
        # Annotators may still resize rows and columns to read long texts.
        sheet.protection.formatColumns = False
        sheet.protection.formatRows = False


def _clear_old_temporaries(folder: Path) -> None:
    """Remove what a push killed by an earlier version left among the workbooks: a temporary file that is not a
    whole workbook (nothing an annotator could have written in)."""
    for leftover in folder.glob("tmp*.xlsx"):
        if _OLD_TEMPORARY.fullmatch(leftover.name) and not zipfile.is_zipfile(leftover):
            leftover.unlink(missing_ok=True)


def _row_height(sheet: Worksheet, row: int, columns) -> float:
    """Points enough to show the longest wrapped cell of a row; Excel does not fit rows to wrapped text on opening."""
    lines = 1
    for index, column in enumerate(columns):
        value = sheet.cell(row, index + 1).value
        if value:
            # about one character per width unit; each paragraph starts a new line
            lines = max(lines, sum(max(1, -(-len(part) // max(column.width - 2, 1))) for part in str(value).split("\n")))
    return min(409.0, 15.0 * lines)  # 409 points is the tallest row a spreadsheet allows


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


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
