"""How verdicts become a decision per item, and rubric scores a final score: the rules merge applies.

Two annotators on one translation: an own version beats a YES (the person who fixed it saw a problem the
other missed); a NO without an own version beats a YES and sends the text back for retranslation (one
native speaker doubting the text is enough to look again); when both wrote a version, the one pulled first
is taken and the other is kept in the store and the annotations files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from curation.records import RubricScore, Verdict, VerdictText

YES = "YES and YES"


@dataclass(frozen=True)
class Decision:
    """What merge does with one item: keep the machine text, take a fix, ask a retranslation, or wait."""

    kind: Literal["keep", "fix", "retranslate", "open"]
    verdict: VerdictText | None = None
    text: str | None = None
    feedback: str = ""
    annotator: str = ""


def decide(verdicts: list[Verdict]) -> Decision:
    """The decision for one translation from its verdicts (each annotator's latest, in pull order)."""
    if not verdicts:
        return Decision("open")
    doubts = [v for v in verdicts if v.verdict != YES]
    fixes = [v for v in doubts if v.has_fix]
    if fixes:
        first = fixes[0]
        return Decision("fix", first.verdict, first.own_version.strip(), annotator=first.annotator)
    if doubts:
        feedback = "\n".join(f"{v.verdict}: {v.comment.strip()}" if v.comment.strip() else v.verdict for v in doubts)
        return Decision("retranslate", doubts[0].verdict, feedback=feedback, annotator=doubts[0].annotator)
    return Decision("keep", YES, annotator=verdicts[0].annotator)


def latest_per_annotator(verdicts: list[Verdict]) -> list[Verdict]:
    """Each annotator's last verdict, ordered by when the annotator first answered."""
    latest: dict[str, Verdict] = {}
    for verdict in verdicts:
        latest[verdict.annotator] = verdict  # dicts keep first-insertion order, values take the last
    return list(latest.values())


@dataclass(frozen=True)
class RubricDecision:
    """The final rubric score of one description, or why there is none yet."""

    score: int | None
    detail: str
    comments: list[str] = field(default_factory=list)


def decide_rubric(scores: list[RubricScore], needed: int) -> RubricDecision:
    """Two scores one apart keep the lower; two apart need a third annotator, whose score breaks the tie (median)."""
    latest: dict[str, RubricScore] = {}
    for score in scores:
        latest[score.annotator] = score
    ordered = list(latest.values())
    comments = [f"{s.annotator}: {s.comment.strip()}" for s in ordered if s.comment.strip()]
    values = [s.score for s in ordered]
    if len(values) < needed:
        return RubricDecision(None, f"{len(values)} of {needed} scores", comments)
    if len(values) == 1:
        return RubricDecision(values[0], "one annotator", comments)
    first, second = values[0], values[1]
    if abs(first - second) <= 1:
        return RubricDecision(min(first, second), f"scores {first} and {second}", comments)
    if len(values) >= 3:
        three = sorted(values[:3])
        return RubricDecision(three[1], f"scores {first} and {second}, third annotator {values[2]}", comments)
    return RubricDecision(None, f"scores {first} and {second} are two apart: needs a third annotator", comments)
