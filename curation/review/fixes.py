"""What counts as an annotator's fix: any edit of the prefilled "Your version" cell.

Push fills "Your version" with the machine text it wrote in the row, so fixing one word is editing one word.
An unchanged cell is no fix, and neither is an emptied one. The text compared against is the one pushed in that
row (the store's PushedRow), not the store's current translation: a retranslation after the push must not turn
an untouched cell into a "fix" that reverts it. Sheets pushed before the prefill hold an empty column, which
reads as no fix, and whatever a person typed there differs from the machine text, which reads as a fix: nothing
entered is lost.
"""

from __future__ import annotations

from curation.records import PushedRow
from curation.review.sheet import SheetRow, normal_text, safe_text


def prefilled(sent: PushedRow) -> str:
    """The "Your version" cell as push wrote it in the row (as a cell reads back)."""
    return normal_text(safe_text(sent.text))


def own_fix(row: SheetRow, sent: PushedRow) -> str:
    """The annotator's version of a row: the cell's text when she edited it, "" when unchanged or emptied."""
    own = row.cells.get("own_version", "")
    return "" if own == prefilled(sent) else own


def answered(row: SheetRow, sent: PushedRow | None, editable: tuple[str, ...]) -> bool:
    """Whether an annotator wrote anything in the editable columns; the untouched prefilled version does not count."""
    if sent is None:
        return row.filled(editable)
    return any(row.cells.get(key, "").strip() for key in editable if key != "own_version") or (
        "own_version" in editable and bool(own_fix(row, sent)))
