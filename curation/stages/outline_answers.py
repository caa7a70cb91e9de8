"""What the `outline` and `outline_judge` models answer, and how the kept candidate is chosen from the judge's scores
and the lint.

The choice: among the candidates the lint finds clean, the judge's best when it is one of them, else the clean one
with the highest total (the lower number between equals); when no candidate is clean, the highest total of all,
flagged for a person.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, field_validator, model_validator

from curation.records import JUDGE_CRITERIA, CandidateVerdict, JudgedCriterion


def _sentences(sentences: list[str]) -> list[str]:
    # An empty part would publish a heading with nothing under it; the model is asked again with the reason.
    kept = [" ".join(sentence.split()) for sentence in sentences if sentence.strip()]
    if not kept:
        raise ValueError("every part needs at least one sentence; write the step, or say in one sentence that the "
                         "notebooks do nothing special there")
    return kept


Sentences = Annotated[list[str], AfterValidator(_sentences)]


class OutlineAnswer(BaseModel):
    """The outline prompt's answer: the five parts as imperative sentences, and the notebooks it draws on."""

    data_preparation: Sentences
    features: Sentences
    model: Sentences
    training_and_validation: Sentences
    inference_and_submission: Sentences
    sources: list[int]  # the notebooks' numbers in the prompt (1 = best ranked)


class JudgedOutline(BaseModel):
    """The judge's scores of one candidate, criterion by criterion."""

    outline: int
    criteria: list[JudgedCriterion]

    @field_validator("criteria")
    @classmethod
    def _every_criterion_once(cls, criteria: list[JudgedCriterion]) -> list[JudgedCriterion]:
        named = [c.criterion for c in criteria]
        if sorted(named) != sorted(JUDGE_CRITERIA):
            raise ValueError(f"score each criterion exactly once ({', '.join(JUDGE_CRITERIA)}); got "
                             f"{', '.join(named) or 'none'}")
        return sorted(criteria, key=lambda c: JUDGE_CRITERIA.index(c.criterion))

    @property
    def total(self) -> int:
        return sum(criterion.score for criterion in self.criteria)


class JudgeAnswer(BaseModel):
    """The judge prompt's answer: every candidate scored, the best one named, and why."""

    outlines: list[JudgedOutline]
    best: int
    reason: str

    @model_validator(mode="after")
    def _consistent(self) -> JudgeAnswer:
        numbers = [judged.outline for judged in self.outlines]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError(f"score every outline once, in order, numbered 1 to {len(numbers)}; got {numbers}")
        if self.best not in numbers:
            raise ValueError(f"best must be the number of one of the outlines (1 to {len(numbers)}); got {self.best}")
        # The rubric decides: a "best" below another candidate's total would be a pick the scores do not back.
        top = max(judged.total for judged in self.outlines)
        if self.outlines[self.best - 1].total < top:
            raise ValueError(f"best is outline {self.best} with {self.outlines[self.best - 1].total} points, but another "
                             f"outline has {top}: name one with the highest total, or correct the scores")
        return self


def choose(verdicts: list[CandidateVerdict], judge_best: int) -> tuple[int, bool]:
    """(the candidate kept, whether the lint found it clean): see the module's docstring."""
    clean = [verdict for verdict in verdicts if verdict.clean]
    if any(verdict.candidate == judge_best for verdict in clean):
        return judge_best, True
    pool = clean or verdicts
    best = max(pool, key=lambda verdict: (verdict.score, -verdict.candidate))
    return best.candidate, bool(clean)
