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

from curation.records import FIELDS
from curation.review.layout import LATER_COLUMNS, RUBRIC_COLUMNS, RUBRIC_TAB, column_letter, columns_for
from curation.review.sheet import SheetRow, normal_text

# Columns pull does not read: their loss alone does not stop a tab (the columns after them still must not move).
NOT_READ = {"question", "check_failed", "data_card", "link", "outline"}
# How a reshaped tab's problem ends: what pull did about it (push says what it did instead).
NOT_TAKEN = "; nothing from this tab was taken: undo the change to the columns and pull again"


@dataclass
class TabRead:
    """A tab's rows by column key, or the problem that kept it from being read (then `rows` is empty), and a line
    per range of merged cells over its rows (those rows are marked `merged`)."""

    rows: list[SheetRow] = field(default_factory=list)
    problem: str | None = None
    merged: list[str] = field(default_factory=list)


# A merged range as (first row, last row, first column, last column), 0-based and inclusive.
Merge = tuple[int, int, int, int]


def _header(value: object) -> str:
    return " ".join(normal_text(value).split()).casefold()


def read_tab(title: str, values: list[list[object]], formulas: dict[tuple[int, int], str] | None = None,
             merges: list[Merge] = ()) -> TabRead:
    """Rows of a tab from its cell values (row 1 the headers). `formulas` maps (row, column), both 0-based, to the
    formula text of cells holding one; in an editable column that text is taken instead of the shown value.
    `merges`: the tab's merged ranges. A tab push did not make (a copy) is read by the layout its first header names."""
    headers = [_header(value) for value in (values[0] if values else [])]
    kind = title.partition(" - ")[0]
    rubric = kind == RUBRIC_TAB or (kind not in FIELDS and headers[:1] == [_header(RUBRIC_COLUMNS[0].header)])
    columns = columns_for(RUBRIC_TAB if rubric else kind)
    wrong = []
    for index, column in enumerate(columns):
        if column.key in NOT_READ:
            continue
        names = {_header(column.header), *(_header(former) for former in column.former)}
        where = [at for at, header in enumerate(headers) if header in names]
        letter = column_letter(index)
        if not where and column.key in LATER_COLUMNS and not any(headers[index:]):
            continue  # a tab pushed before the column existed: nothing was typed there
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
    lines, covered = _merged(columns, merges)
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
            rows.append(SheetRow(number + 1, cells, formulas=tuple(typed), merged=number in covered))
    return TabRead(rows=rows, merged=lines)


def _merged(columns, merges: list[Merge]) -> tuple[list[str], set[int]]:
    """A line per merged range over rows and columns pull reads, and the 0-based rows such ranges cover. Only the
    first cell of a range holds a value, so the rows under it look unanswered (or their locked text edited)."""
    lines, covered = [], set()
    for first, last, left, right in sorted(merges):
        names = [f"'{column.header}'" for index, column in enumerate(columns)
                 if left <= index <= right and column.key not in NOT_READ]
        if last < 1 or not names or (first == last and left == right):
            continue
        first = max(first, 1)  # a header merged into the rows: the rows are what counts
        rows = f"rows {first + 1}-{last + 1}" if last > first else f"row {first + 1}"
        cells = f"{column_letter(left)}{first + 1}:{column_letter(right)}{last + 1}"
        lines.append(f"{rows}: the cells {cells} ({', '.join(names)}) are merged into one, so only its first cell "
                     f"holds what was typed; {rows} were not read: unmerge the cells, fill in each row and pull again")
        covered.update(range(first, last + 1))
    return lines, covered
