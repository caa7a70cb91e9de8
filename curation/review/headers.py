"""Reading a review tab by its header row, never by position.

Annotators delete, rename, copy and drag columns. A tab whose required columns are not where push put them, under
the headers push wrote, is not read at all: reading it by position would take a comment for a fix, and push writes
its rows by position, so it writes nothing to such a tab (a moved column would be overwritten). The tab gets one
problem line naming each such column; the curator (or annotator) undoes the change and pulls (or pushes) again.

Formula cells in the annotator's columns (`=1+1`, `=HYPERLINK(...)`) are kept as the text the person typed; the
backends hand their formula text in, and the row records which cells were formulas so pull can say so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from curation.review.layout import column_letter, columns_for
from curation.review.sheet import SheetRow, normal_text

# Columns pull does not read: their loss alone does not stop a tab (the columns after them still must not move).
NOT_READ = {"question", "check_failed", "data_card", "link"}
# How a reshaped tab's problem ends: what pull did about it (push says what it did instead).
NOT_TAKEN = "; nothing from this tab was taken: undo the change to the columns and pull again"


@dataclass
class TabRead:
    """A tab's rows by column key, or the problem that kept it from being read (then `rows` is empty)."""

    rows: list[SheetRow] = field(default_factory=list)
    problem: str | None = None


def _header(value: object) -> str:
    return " ".join(normal_text(value).split()).casefold()


def read_tab(title: str, values: list[list[object]], formulas: dict[tuple[int, int], str] | None = None) -> TabRead:
    """Rows of a tab from its cell values (row 1 the headers). `formulas` maps (row, column), both 0-based, to the
    formula text of cells holding one; in an editable column that text is taken instead of the shown value."""
    columns = columns_for(title.partition(" - ")[0])
    headers = [_header(value) for value in (values[0] if values else [])]
    wrong = []
    for index, column in enumerate(columns):
        if column.key in NOT_READ:
            continue
        names = {_header(column.header), *(_header(former) for former in column.former)}
        where = [at for at, header in enumerate(headers) if header in names]
        letter = column_letter(index)
        if not where:
            wrong.append(f"'{column.header}' is missing (deleted or renamed; it belongs in column {letter})")
        elif len(where) > 1:
            found = ", ".join(column_letter(at) for at in where)
            wrong.append(f"'{column.header}' appears {len(where)} times (columns {found}; keep only column {letter})")
        elif where[0] != index:
            wrong.append(f"'{column.header}' was moved to column {column_letter(where[0])} (it belongs in column "
                         f"{letter})")
    if wrong:
        return TabRead(problem="the column " + "; the column ".join(wrong) + NOT_TAKEN)
    formulas = formulas or {}
    rows = []
    for number, row_values in enumerate(values[1:], start=1):
        cells, typed = {}, []
        for index, column in enumerate(columns):
            value = row_values[index] if index < len(row_values) else None
            formula = formulas.get((number, index)) if column.editable else None
            if formula is not None:
                value = formula
                typed.append(column.key)
            cells[column.key] = normal_text(value)
        if any(cells.values()):
            rows.append(SheetRow(number + 1, cells, formulas=tuple(typed)))
    return TabRead(rows=rows)
