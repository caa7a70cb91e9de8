"""Design (LLM, role `synthesize`): per task idea, the split, the grading block and the columns dropped as leakage.

An answer naming a column the table lacks, a metric the harness does not know for the task type, or an
impossible split is sent back with the problem said; after ATTEMPTS answers the idea fails with the last one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel

from curation.config import Settings
from curation.fingerprint import fingerprint
from curation.llm import LLM
from curation.prompts import Prompt, load_prompt
from curation.stages.runner import ItemFailed
from curation.store import Store
from curation.synthesis.brainstorm import STEP as BRAINSTORM, TaskIdeas
from curation.synthesis.metrics import METRICS, metric_names
from curation.synthesis.naming import task_slugs, task_title
from curation.synthesis.records import DatasetProfile, Direction, SplitKind, TableProfile, TaskDesign, TaskIdea

STEP = "design"
ATTEMPTS = 3


class LeakingColumn(BaseModel):
    column: str
    reason: str


class DesignAnswer(BaseModel):
    title: str
    split: SplitKind
    split_column: str | None = None
    test_share: float = 0.2
    id_col: str | None = None
    metric: str
    direction: Direction
    cv_folds: int = 5
    leakage: list[LeakingColumn] = []


@dataclass(frozen=True)
class DesignItem:
    competition: str  # the task's slug
    dataset: str
    idea: TaskIdea
    table: TableProfile
    input_hash: str

    @property
    def key(self) -> str:
        return self.competition


@dataclass
class DesignResult:
    item: DesignItem
    design: TaskDesign


def design_problems(answer: DesignAnswer, idea: TaskIdea, table: TableProfile) -> list[str]:
    """What makes a design unusable on its table."""
    problems = []
    names = {column.name for column in table.columns}
    metric = METRICS.get(answer.metric)
    if metric is None or idea.task_type not in metric.task_types:
        problems.append(f"metric {answer.metric!r} is not allowed for {idea.task_type}; use one of "
                        f"{', '.join(metric_names(idea.task_type))}")
    elif answer.direction != metric.direction:
        problems.append(f"{answer.metric} needs direction {metric.direction}")
    if answer.split in ("group", "time") and answer.split_column not in names:
        problems.append(f"a {answer.split} split needs split_column to be a column of {table.file}")
    if answer.split == "stratified" and idea.task_type == "regression":
        problems.append("a stratified split needs a classification target")
    if answer.id_col is not None and answer.id_col not in names:
        problems.append(f"id_col {answer.id_col!r} is not a column of {table.file}")
    if not 0.1 <= answer.test_share <= 0.4:
        problems.append("test_share must be between 0.1 and 0.4")
    if not 3 <= answer.cv_folds <= 10:
        problems.append("cv_folds must be between 3 and 10")
    for leak in answer.leakage:
        if leak.column not in names:
            problems.append(f"leakage column {leak.column!r} is not in {table.file}")
        elif leak.column in (idea.target, answer.id_col):
            problems.append(f"{leak.column!r} cannot be dropped: it is the target or the id")
    return problems


@dataclass
class DesignStage:
    """Design every idea whose design is missing or stale."""

    settings: Settings
    profiles: list[DatasetProfile]
    force: bool = False
    name: str = "synthesize"
    prompt: Prompt = field(init=False)

    def __post_init__(self) -> None:
        self.prompt = load_prompt(self.settings, "design")

    def pending(self, store: Store, settings: Settings) -> list[DesignItem]:
        """One item per stored idea of the datasets in this run."""
        items = []
        designs = store.synthesis_records(STEP, TaskDesign)
        for profile in self.profiles:
            stored = store.synthesis(BRAINSTORM, profile.dataset, TaskIdeas)
            ideas = [idea for idea in (stored[0].ideas if stored else []) if profile.table(idea.table) is not None]
            for idea, slug in zip(ideas, task_slugs(profile.dataset, ideas, designs)):
                table = profile.table(idea.table)
                digest = fingerprint({"idea": idea, "table": table, "prompt": self.prompt.hash,
                                      "model": self.settings.models.synthesize})
                done = store.synthesis(STEP, slug, TaskDesign)
                if done is not None and done[1] == digest and not self.force:
                    continue
                items.append(DesignItem(competition=slug, dataset=profile.dataset, idea=idea, table=table,
                                        input_hash=digest))
        return items

    async def run_one(self, item: DesignItem, llm: LLM) -> DesignResult:
        """Ask for a design until it fits the table; raise ItemFailed with the last problems otherwise."""
        error, problems = "", []
        for _ in range(ATTEMPTS):
            messages = self.prompt.render(dataset=item.dataset, idea=item.idea, table=item.table,
                                          metrics=metric_names(item.idea.task_type), error=error)
            answer = await llm.ask(role="synthesize", messages=messages, schema=DesignAnswer, item=item.key,
                                   prompt_hash=self.prompt.hash)
            design: DesignAnswer = answer.parsed
            problems = design_problems(design, item.idea, item.table)
            if not problems:
                return DesignResult(item=item, design=TaskDesign(
                    slug=item.competition, dataset=item.dataset, title=task_title(design.title, item.idea),
                    idea=item.idea, split=design.split,
                    split_column=design.split_column if design.split in ("group", "time") else None,
                    test_share=design.test_share, id_col=design.id_col, metric=design.metric,
                    direction=design.direction, cv_folds=design.cv_folds,
                    drop_columns=[leak.column for leak in design.leakage],
                    drop_reasons={leak.column: leak.reason for leak in design.leakage}))
            error = "; ".join(problems) + ". Answer with the whole design again, corrected."
        raise ItemFailed(f"no usable design after {ATTEMPTS} answers: {'; '.join(problems)}")

    def record(self, store: Store, result: DesignResult) -> None:
        """The design, replacing an earlier one."""
        store.save_synthesis(STEP, result.item.key, result.item.dataset, result.design, result.item.input_hash)
