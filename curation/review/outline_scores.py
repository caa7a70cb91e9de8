"""The rubric sheet's outline columns: an annotator's score of a competition's solution outline (0 unusable,
1 needs revision, 2 good) and its comment, read by pull beside the description's score and kept the same way:
annotations/en/<timestamp>-<annotator>-outline.csv first, then the store (append-only, the latest answer counts)."""

from __future__ import annotations

from curation.records import OutlineScore, PushedRow
from curation.review.sheet import SheetRow
from curation.review.verdicts import parse_score

OUTLINE_ANSWERS = ("outline_score", "outline_comment")


def read_outline_score(row: SheetRow, sent: PushedRow, annotator: str, at: str, source: str,
                       ) -> OutlineScore | str | None:
    """The row's outline score; a problem line when it cannot be taken; None when nothing was entered."""
    answer, comment = row.cells.get("outline_score", ""), row.cells.get("outline_comment", "")
    if not answer:
        return f"{at}: an outline comment but no outline score; pick 0, 1 or 2" if comment else None
    if not sent.outline_hash:
        return (f"{at}: an outline score, but this row was pushed without an outline; clear it, or push again for the "
                "row with the outline")
    score = parse_score(answer)
    if score is None:
        return f"{at}: {answer!r} is not an outline score; pick 0 (unusable), 1 (needs revision) or 2 (good)"
    return OutlineScore(competition=sent.item_id, annotator=annotator, score=score, comment=comment,
                        outline_hash=sent.outline_hash, source=source)


def new_outline_scores(known: list[OutlineScore], scores: list[OutlineScore]) -> list[OutlineScore]:
    """`scores` that are not the annotator's latest answer on the same outline already."""
    latest = {(s.competition, s.annotator, s.outline_hash): s for s in known}
    return [s for s in scores if (previous := latest.get((s.competition, s.annotator, s.outline_hash))) is None
            or (previous.score, previous.comment) != (s.score, s.comment)]
