"""Records passed between stages. Stages speak in these, never in rows or dicts."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from curation.fingerprint import fingerprint

# Texts that are translated and reviewed, per competition.
FIELDS = ("description", "data_card", "domain")
Field_ = Literal["description", "data_card", "domain"]

DATA_TYPES = (
    "tabular", "image", "text", "time series", "audio", "video", "graph", "multimodal", "geospatial", "signal",
)
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*[a-z0-9]$")


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Competition(Record):
    """One Kaggle competition, the benchmark's unit of work."""

    competition: str  # the Kaggle slug, the key
    comp_name: str
    competition_link: str = ""
    comp_type: str
    data_type: str
    metric: str
    metric_type: str = ""
    private: bool = False
    data_card: str = ""
    description: str | None = None  # written by a person; takes precedence over inference
    grading: dict[str, Any] | None = None  # passed through verbatim to the grading harness
    source: str = ""  # where it was read from, for messages
    synthesized: bool = False  # made by `curate synthesize` from a raw dataset (competition.yaml `source: synthesized`)
    license: str = ""  # of the data, for synthesized tasks
    origin: str = ""  # where the data came from, for synthesized tasks

    @field_validator("competition")
    @classmethod
    def _slug(cls, value: str) -> str:
        if not SLUG.match(value):
            raise ValueError(f"{value!r} is not a Kaggle slug (lowercase letters, digits and hyphens)")
        return value

    @field_validator("data_type")
    @classmethod
    def _data_type(cls, value: str) -> str:
        normal = value.strip().lower().replace("_", " ").replace("timeseries", "time series")
        if normal not in DATA_TYPES:
            raise ValueError(f"unknown data type {value!r}; use one of: {', '.join(DATA_TYPES)}")
        return normal

    def model_post_init(self, _context: Any) -> None:
        if not self.competition_link:
            self.competition_link = f"https://www.kaggle.com/competitions/{self.competition}"

    @property
    def input_hash(self) -> str:
        # The provenance fields join the hash only when set, so a Kaggle competition's hash is what it always was.
        data = self.model_dump(exclude={"source"})
        for name in ("synthesized", "license", "origin"):
            if not data[name]:
                del data[name]
        return fingerprint(data)


class Notebook(Record):
    """A public notebook's code, reduced to the text an LLM reads."""

    competition: str
    name: str
    score: float | None = None
    rank: int | None = None
    votes: int | None = None
    medal: int | None = None  # 1 gold, 2 silver, 3 bronze
    text: str
    tokens: int = 0
    cut: str | None = None  # what was cut to fit the token budget, said in words


class Problem(Record):
    """Bad input found by a stage: which file or item, and what to do about it."""

    stage: str
    path: str
    message: str
    competition: str | None = None

    def line(self) -> str:
        return f"{self.path}: {self.message}"


class IngestedCompetition(Record):
    """What a source reader yields per competition: the record and its selected notebooks."""

    competition: Competition
    notebooks: list[Notebook] = Field(default_factory=list)
    problems: list[Problem] = Field(default_factory=list)

    @property
    def input_hash(self) -> str:
        return fingerprint([self.competition.input_hash, [nb.model_dump() for nb in self.notebooks]])


StageState = Literal["done", "pending", "failed", "needs_human"]


class StageStatus(Record):
    competition: str
    stage: str
    status: StageState
    detail: str = ""
    input_hash: str = ""
    updated_at: str = ""


# -- describe / tag ------------------------------------------------------------------------------

Grade = Literal["A", "B", "C", "D"]


class Description(Record):
    """The English task description a competition ends up with (latest state of the describe stage)."""

    competition: str
    text: str
    provenance: Literal["machine", "human"]  # human: description.md written by a person
    grade: Grade | None = None
    rounds: int = 0
    needs_human: bool = False
    reasons: list[str] = Field(default_factory=list)  # why it needs a person, when it does
    input_hash: str = ""


class LintFinding(Record):
    """One hit of a deterministic lint: the rule that fired and the words it matched (a sentence, for data cards)."""

    rule: str
    matched: str

    def line(self) -> str:
        return f"{self.rule}: {self.matched!r}"


Criterion = Literal["clear_objective", "input_described", "output_described", "neutral", "no_solution_hints", "no_leakage"]
CRITERIA: tuple[str, ...] = ("clear_objective", "input_described", "output_described", "neutral", "no_solution_hints",
                             "no_leakage")


class CriterionReason(Record):
    """The scorer's judgement of one grading criterion."""

    criterion: Criterion
    met: bool
    reason: str


class GradeReport(Record):
    """The scorer's structured answer: a grade (C/D good, A/B need work) with a reason per criterion."""

    criteria: list[CriterionReason]
    grade: Grade

    @field_validator("criteria")
    @classmethod
    def _every_criterion_once(cls, criteria: list[CriterionReason]) -> list[CriterionReason]:
        named = [c.criterion for c in criteria]
        if sorted(named) != sorted(CRITERIA):
            missing = [c for c in CRITERIA if c not in named]
            raise ValueError(f"judge each criterion exactly once ({', '.join(CRITERIA)}); missing or repeated: "
                             f"{', '.join(missing) or 'a repeated one'}")
        return sorted(criteria, key=lambda c: CRITERIA.index(c.criterion))

    @model_validator(mode="after")
    def _grade_agrees_with_criteria(self) -> GradeReport:
        # The score prompt's scale: C and D mean every criterion is met, A and B that at least one is not. A "good"
        # grade over an unmet criterion would end the loop on a flawed text, and a "needs work" grade with nothing
        # unmet gives refine nothing to fix; either goes back to the model as a validation error.
        unmet = [c.criterion for c in self.criteria if not c.met]
        if self.grade in ("C", "D") and unmet:
            raise ValueError(f"grade {self.grade} means every criterion is met, but {', '.join(unmet)} "
                             f"{'is' if len(unmet) == 1 else 'are'} marked unmet; grade A or B, or mark {'it' if len(unmet) == 1 else 'them'} met")
        if self.grade in ("A", "B") and not unmet:
            raise ValueError(f"grade {self.grade} means at least one criterion is not met, but all are marked met; "
                             "grade C or D, or mark the criterion that fails as unmet with its reason")
        return self

    def problems(self) -> list[str]:
        """The reasons of the criteria that were not met, as lines for refine and for the curator."""
        return [f"{c.criterion}: {c.reason}" for c in self.criteria if not c.met]


class DescriptionRound(Record):
    """One round of the describe loop, kept for the report: the text, how it was graded and linted, what it cost."""

    competition: str
    round: int  # 1 = generated (or the person-written text), 2.. = refined
    step: Literal["describe", "refine", "human"]
    text: str
    grade: Grade | None = None
    reasons: list[CriterionReason] = Field(default_factory=list)
    findings: list[LintFinding] = Field(default_factory=list)
    model: str = ""  # the model that wrote the text ("" for a person)
    score_model: str = ""
    prompt_hash: str = ""  # of the prompt that wrote the text (describe or refine)
    score_prompt_hash: str = ""  # of the score prompt that graded it
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0

    def good(self, good_grades: list[str]) -> bool:
        return self.grade in good_grades and not self.findings


class DomainTag(Record):
    competition: str
    domain: str
    is_new: bool = False  # proposed by the model outside the vocabulary; the curator confirms it
    model: str = ""
    prompt_hash: str = ""
    input_hash: str = ""


# -- translate -----------------------------------------------------------------------------------


class CheckResult(Record):
    """One automatic translation check: its name (curation.checks.translation.CHECKS), pass or not, and why."""

    name: str
    passed: bool
    detail: str = ""


class Translation(Record):
    """The current machine translation of one field of one competition into one language."""

    competition: str
    field: Field_
    language: str
    source_text: str  # the English original
    source_hash: str
    text: str
    model: str = ""
    prompt_hash: str = ""
    attempts: int = 1
    checks: list[CheckResult] = Field(default_factory=list)
    flagged: bool = False  # a check still failed after max_attempts: the annotator's attention is needed
    provenance: Literal["machine", "retranslated"] = "machine"
    feedback: str | None = None  # an annotator's comment that asked for this retranslation
    round: int = 1  # review round this translation is for
    input_hash: str = ""

    @property
    def failed_checks(self) -> list[CheckResult]:
        return [check for check in self.checks if not check.passed]


# -- review and merge ----------------------------------------------------------------------------

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
    failed_checks: list[str] = Field(default_factory=list)  # automatic checks that still failed
    round: int = 1
    provenance: Literal["machine", "retranslated", "human"] = "machine"


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
    failed_checks: list[str] = Field(default_factory=list)
    pushed_at: str = ""


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


# -- llm: the call log ---------------------------------------------------------------------------


class LLMCall(Record):
    """One `LLM.ask`: a row of the call log, which is also the answer cache. Never holds keys or headers."""

    stage: str
    role: str
    item: str
    provider: str
    model: str
    request_hash: str
    response: str | None = None  # the validated answer text; None when the call failed
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = 0
    tokens_cache_write: int = 0  # input written to the provider's prompt cache (Anthropic cache creation)
    cost_usd: float = 0.0
    saved_usd: float = 0.0  # for a cache hit: what the original call cost
    latency_ms: int = 0  # from the start of the call to its answer, waits for limits and retries included
    attempts: int = 0  # HTTP requests made (0 for a cache hit)
    cached: bool = False
    error: str | None = None
    created_at: str = ""


class CostLine(Record):
    """Spend and tokens of one (stage, role, provider:model), as `curate costs` prints them."""

    stage: str
    role: str
    model: str
    calls: int
    cache_hits: int
    failed: int
    tokens_in: int
    tokens_out: int
    tokens_cached: int
    tokens_cache_write: int = 0
    cost_usd: float
    saved_usd: float


# -- publish -------------------------------------------------------------------------------------


class Release(Record):
    """One published release: its version, where it went, the commit that holds it and its rows per language."""

    version: str  # X.Y.Z; the tag is vX.Y.Z
    target: str  # as given to --to: a folder or hf:ORG/NAME
    date: str
    commit: str
    counts: dict[str, int] = Field(default_factory=dict)
    partial: bool = False  # published with --allow-partial and rows held back
