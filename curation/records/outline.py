"""Records of the outline stage: a code-free solution outline per competition, how the judge scored its candidates,
and the rubric scores reviewers give it."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from curation.records.base import Record
from curation.records.describe import LintFinding
from curation.records.review import RubricValue

# The outline's parts, in the order a solution goes through them; the model answers each as a few imperative sentences.
SECTIONS: tuple[str, ...] = ("data_preparation", "features", "model", "training_and_validation",
                             "inference_and_submission")
SECTION_TITLES = {"data_preparation": "Data preparation", "features": "Features", "model": "Model",
                  "training_and_validation": "Training and validation",
                  "inference_and_submission": "Inference and submission"}

JudgeCriterion = Literal["faithful", "complete", "executable", "no_leakage"]
JUDGE_CRITERIA: tuple[str, ...] = ("faithful", "complete", "executable", "no_leakage")
JUDGE_POINTS = 2  # each criterion is scored 0, 1 or 2


class OutlineSource(Record):
    """A notebook an outline was drawn from: its name and its place in the competition's ranking (1 = best)."""

    notebook: str
    rank: int


class JudgedCriterion(Record):
    """The judge's score of one rubric criterion for one candidate: 0 fails, 1 partly, 2 fully met."""

    criterion: JudgeCriterion
    score: Literal[0, 1, 2]
    reason: str


class CandidateVerdict(Record):
    """One of the K candidates as the lint and the judge saw it."""

    candidate: int  # 1-based, in the order the candidates were written
    score: int  # the judge's total over the criteria
    criteria: list[JudgedCriterion] = Field(default_factory=list)
    findings: list[LintFinding] = Field(default_factory=list)  # the deterministic lint's hits

    @property
    def clean(self) -> bool:
        return not self.findings


class Outline(Record):
    """The solution outline a competition ends up with: the judge's pick among K candidates, with its sources."""

    competition: str
    data_preparation: list[str]
    features: list[str]
    model: list[str]
    training_and_validation: list[str]
    inference_and_submission: list[str]
    sources: list[OutlineSource] = Field(default_factory=list)
    chosen: int = 1  # which candidate was kept (1-based)
    candidates: list[CandidateVerdict] = Field(default_factory=list)  # every candidate, the kept one included
    judge_reason: str = ""  # why the judge preferred the kept candidate
    writer: str = ""  # provider:model of the `outline` role
    judge: str = ""  # provider:model of the `outline_judge` role
    prompt_hash: str = ""
    judge_prompt_hash: str = ""
    needs_human: bool = False
    reasons: list[str] = Field(default_factory=list)  # why it needs a person, when it does
    input_hash: str = ""
    cost_usd: float = 0.0

    @property
    def kept(self) -> CandidateVerdict | None:
        return next((candidate for candidate in self.candidates if candidate.candidate == self.chosen), None)

    @property
    def max_score(self) -> int:
        return JUDGE_POINTS * len(JUDGE_CRITERIA)

    def sections(self) -> dict[str, list[str]]:
        """Section name -> its sentences, in order."""
        return {name: list(getattr(self, name)) for name in SECTIONS}

    def text(self) -> str:
        """The outline as one Markdown text: a heading per section, a bullet per sentence (what is translated and
        what annotators read)."""
        return "\n\n".join(f"## {SECTION_TITLES[name]}\n" + "\n".join(f"- {sentence}" for sentence in sentences)
                           for name, sentences in self.sections().items())

    def choice(self) -> str:
        """"2 of 3 (judge 7/8)": which candidate was kept, of how many, and its score."""
        kept = self.kept
        return f"{self.chosen} of {len(self.candidates)}" + (f" (judge {kept.score}/{self.max_score})" if kept else "")


class OutlineScore(Record):
    """One annotator's rubric score of one outline (0 unusable, 1 needs revision, 2 good). Stored append-only."""

    competition: str
    annotator: str
    score: RubricValue
    comment: str = ""
    outline_hash: str
    source: str = ""
    pulled_at: str = ""
