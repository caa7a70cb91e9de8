"""Records of review and merge: sheet items and rows, verdicts and rubric scores, their statistics, final texts."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from curation.records.base import Record
from curation.records.competition import Field_
from curation.records.translation import CheckResult

VERDICTS = ("YES and YES", "NO and YES", "YES and NO", "NO and NO")
VerdictText = Literal["YES and YES", "NO and YES", "YES and NO", "NO and NO"]
Provenance = Literal["machine", "native_fix", "retranslated", "human"]


class FinalText(Record):
    """The merged text of one (competition, field, language) that a release publishes."""

    competition: str
    field: Field_
    language: str
    text: str
    provenance: Provenance
    verdict: VerdictText | None = None  # the review verdict it rests on (None for the English source)
    checks_passed: bool = True
    source_hash: str = ""
    # Automatic checks that failed on the machine text and that the reviewers' YES and YES overrode (language,
    # length, adequacy ...), and those no verdict overrides (protected identifiers, numbers): "name: detail".
    overridden_checks: list[str] = Field(default_factory=list)
    blocking_checks: list[str] = Field(default_factory=list)


class ReviewStats(Record):
    """Review figures for one language, as the dataset card and report show them."""

    language: str
    items: int  # items with at least one verdict
    verdict_shares: dict[str, float] = Field(default_factory=dict)  # verdict -> share of judged items
    share_fixed: float = 0.0  # share of items whose final text is an annotator's own version
    agreement_items: int = 0  # items judged by two annotators
    raw_agreement: float | None = None
    kappa: float | None = None  # Cohen's kappa over the doubly judged items
    open_items: int = 0  # items without a usable verdict yet


class ReviewItem(Record):
    """One text an annotator judges: the translation of one field of one competition, with its English original."""

    item_id: str  # "titanic/description/kk": stable across pushes
    competition: str
    field: Field_
    language: str
    text: str  # the machine translation (or, for the rubric, the English description itself)
    original: str  # the English original ("" for the rubric)
    translation_hash: str  # hash of text and original: a verdict holds for exactly this pair
    failed_checks: list[CheckResult] = Field(default_factory=list)  # automatic checks that still failed
    round: int = 1
    provenance: Literal["machine", "retranslated", "human"] = "machine"
    outline: str = ""  # the rubric's second text: the competition's solution outline, when it has one
    outline_hash: str = ""  # hash of `outline`: an outline score holds for exactly this text


class PushedRow(Record):
    """What was written to one sheet row for one annotator: pull compares locked columns against it."""

    language: str
    annotator: str
    key: str  # what the id column shows: the item id, with " #2" etc. when an item came back changed
    item_id: str
    sheet: str  # workbook path or spreadsheet id
    tab: str
    row: int
    translation_hash: str
    text: str
    original: str
    failed_checks: list[str] = Field(default_factory=list)  # as CheckResult.line() gives them
    pushed_at: str = ""
    outline_hash: str = ""  # rubric rows: the outline the row shows ("" for none)


class Verdict(Record):
    """One annotator's judgement of one translation, as pulled from a sheet. Stored append-only."""

    item_id: str
    competition: str
    field: Field_
    language: str
    annotator: str
    verdict: VerdictText
    own_version: str = ""
    comment: str = ""
    translation: str  # the text that was judged
    translation_hash: str
    source: str = ""  # the sheet and row it came from
    pulled_at: str = ""

    @property
    def has_fix(self) -> bool:
        return bool(self.own_version.strip())


RubricValue = Literal[0, 1, 2]
RUBRIC_SCORES = {0: "unusable", 1: "needs revision", 2: "good"}


class RubricScore(Record):
    """One annotator's rubric score of one English description: 0 unusable, 1 needs revision, 2 good."""

    competition: str
    annotator: str
    score: RubricValue
    comment: str = ""
    description_hash: str
    source: str = ""
    pulled_at: str = ""


class RubricStats(Record):
    """Rubric figures over the English descriptions."""

    items: int  # descriptions with at least one score
    score_shares: dict[int, float] = Field(default_factory=dict)  # final score -> share of scored descriptions
    agreement_items: int = 0  # descriptions scored by two annotators
    raw_agreement: float | None = None
    kappa: float | None = None
    open_items: int = 0  # descriptions waiting for a score or for a third annotator
