"""Tabs an annotator copied and answered in ("domain (2)" in Excel, "domain_2" in LibreOffice, "Copy of domain -
dana" in Google Sheets), often leaving the tab push made empty.

A copy is known by its rows, not its title: rows of a tab push did not make whose item ids were pushed to the
sheet's annotator. Each item's answer is read where it was given: an item answered only in a copy is read from the
copy (what the annotator meant), an item answered the same way in several tabs is one answer, and an item answered
differently in two tabs is not taken until one answer is left, as with two rows of one item in a tab. Pull names
every copy it read from or could not read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from curation.excerpt import plural
from curation.records import FIELDS, PushedRow
from curation.review.fixes import answered
from curation.review.layout import INSTRUCTIONS_TAB, RUBRIC_TAB
from curation.review.sheet import SheetContent, SheetRow

SHOWN_KEYS = 3  # item ids named in a line about a copy's differing answers


@dataclass
class Copy:
    """A tab push did not make, holding rows of one of the tabs it did make (`original`)."""

    title: str
    original: str
    rows: dict[str, SheetRow]  # item key -> its row in the copy
    taken: int = 0  # answers read from this copy
    differing: list[str] = field(default_factory=list)  # keys answered otherwise here than in another tab


def ours(tab: str) -> bool:
    """Whether push made a tab of this title (a field's or the rubric's, in Google Sheets with the annotator)."""
    return tab.partition(" - ")[0] in (*FIELDS, RUBRIC_TAB)


def find_copies(content: SheetContent, pushed_to: dict[str, dict[str, PushedRow]], owner: str) -> dict[tuple[str, str], list[Copy]]:
    """(annotator, original tab) -> the copies of that tab in the sheet. `pushed_to`: annotator -> key -> pushed row;
    `owner`: the sheet's annotator (from its Instructions tab), for copies whose title does not name one."""
    copies: dict[tuple[str, str], list[Copy]] = {}
    for title, rows in content.tabs.items():
        if title == INSTRUCTIONS_TAB or ours(title) or title in content.problems:
            continue
        annotator = title.partition(" - ")[2] or owner
        pushed = pushed_to.get(annotator, {})
        by_original: dict[str, dict[str, SheetRow]] = {}
        for row in rows:
            sent = pushed.get(row.cells.get("key", ""))
            if sent is not None and not row.merged:
                by_original.setdefault(sent.tab, {}).setdefault(sent.key, row)
        for original, found in by_original.items():
            copies.setdefault((annotator, original), []).append(Copy(title, original, found))
    return copies


def answer_of(row: SheetRow | None, sent: PushedRow, editable: tuple[str, ...], copies: list[Copy]) -> tuple[SheetRow | None, Copy | None]:
    """The row that holds an item's answer, and the copy it is in (None: the tab push made): `row` in that tab (None
    when it has no row of the item), or an answered row of a copy when that tab's row is unanswered. (None, None)
    when the tabs answer the item differently; each copy involved counts it."""
    given = [(copy, copy.rows[sent.key]) for copy in copies
             if sent.key in copy.rows and answered(copy.rows[sent.key], sent, editable)]
    if not given:
        return row, None
    own = row is not None and answered(row, sent, editable)
    answers = {_answer(found, editable) for _, found in given} | ({_answer(row, editable)} if own else set())
    if len(answers) > 1:
        for copy, _ in given:
            copy.differing.append(sent.key)
        return None, None
    if own:
        return row, None
    copy, found = given[0]
    copy.taken += 1
    return found, copy


def _answer(row: SheetRow, editable: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(row.cells.get(key, "") for key in editable)


def copy_lines(name: str, copies: list[Copy]) -> tuple[list[str], list[str]]:
    """(problems, notes) about the copies of a sheet named `name`: answers not taken for differing from another
    tab's, answers read from a copy."""
    problems, notes = [], []
    for copy in copies:
        where = f"{name} tab '{copy.title}'"
        if copy.differing:
            shown = ", ".join(copy.differing[:SHOWN_KEYS]) + (" ..." if len(copy.differing) > SHOWN_KEYS else "")
            problems.append(f"{where}: a copy of tab '{copy.original}' answers {plural(len(copy.differing), 'item')} "
                            f"otherwise than '{copy.original}' or another copy does ({shown}); they are not taken until "
                            f"one answer is left: keep the answers in '{copy.original}', delete the copy and pull again")
        if copy.taken:
            notes.append(f"{where} is a copy of tab '{copy.original}', not a tab push made; its "
                         f"{plural(copy.taken, 'answer')} {'was' if copy.taken == 1 else 'were'} read as answers in "
                         f"'{copy.original}', which had none for those items: answer in '{copy.original}' from now on "
                         "and delete the copy")
    return problems, notes
