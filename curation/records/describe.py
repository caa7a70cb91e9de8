"""Records of the describe and tag stages: the English description, its rounds and grades, the domain tag."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from curation.records.base import Record

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
    source_hash: str = ""  # of the task it describes (facts, data card, notebooks): a new prompt keeps it


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
