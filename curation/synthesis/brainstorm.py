"""Brainstorm (LLM, role `synthesize`): up to N distinct prediction tasks per dataset, from its profile and README.

A proposal that names a table, column or metric the data does not have is sent back with the problem said
(a bounded number of times); the valid ones are kept, best first. A dataset with no valid proposal fails with
what the model proposed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel

from curation.config import Settings
from curation.fingerprint import fingerprint
from curation.llm import LLM
from curation.prompts import Prompt, load_prompt
from curation.stages.runner import ItemFailed
from curation.store import Store
from curation.synthesis.metrics import METRICS, metric_names
from curation.synthesis.records import DatasetProfile, TaskIdea

STEP = "brainstorm"
ATTEMPTS = 3  # answers with unusable proposals tolerated before keeping what is valid


class BrainstormAnswer(BaseModel):
    tasks: list[TaskIdea]


class TaskIdeas(BaseModel):
    """What the brainstorm keeps for a dataset: the valid ideas, and why the others were dropped."""

    ideas: list[TaskIdea]
    dropped: list[str] = []


@dataclass(frozen=True)
class BrainstormItem:
    competition: str  # empty: a dataset is not a competition yet, so no stage_status row
    profile: DatasetProfile
    input_hash: str

    @property
    def key(self) -> str:
        return self.profile.dataset


@dataclass
class BrainstormResult:
    item: BrainstormItem
    ideas: TaskIdeas


def idea_problem(idea: TaskIdea, profile: DatasetProfile) -> str | None:
    """Why a proposal cannot be used on this dataset, or None."""
    table = profile.table(idea.table)
    if table is None:
        return f"table {idea.table!r} is not one of {', '.join(t.file for t in profile.tables)}"
    if table.column(idea.target) is None:
        return f"column {idea.target!r} is not in {idea.table}"
    if idea.target not in table.plausible_targets():
        return f"column {idea.target!r} is a key, constant, free text or mostly missing"
    metric = METRICS.get(idea.metric)
    if metric is None or idea.task_type not in metric.task_types:
        return f"metric {idea.metric!r} is not allowed for {idea.task_type}; use one of {', '.join(metric_names(idea.task_type))}"
    if idea.direction != metric.direction:
        return f"{idea.metric} is better when {'higher' if metric.direction == 'maximize' else 'lower'}: direction {metric.direction}"
    return None


@dataclass
class BrainstormStage:
    """Propose tasks for each profiled dataset that has none yet, or whose profile or prompt changed."""

    settings: Settings
    profiles: list[DatasetProfile]
    tasks: int
    force: bool = False
    name: str = "synthesize"
    prompt: Prompt = field(init=False)

    def __post_init__(self) -> None:
        self.prompt = load_prompt(self.settings, "brainstorm")

    def input_hash(self, profile: DatasetProfile) -> str:
        return fingerprint({"profile": profile.model_dump(exclude={"path"}), "tasks": self.tasks,
                            "prompt": self.prompt.hash, "model": self.settings.models.synthesize})

    def pending(self, store: Store, settings: Settings) -> list[BrainstormItem]:
        """Datasets with tables whose ideas are missing or stale."""
        items = []
        for profile in self.profiles:
            digest = self.input_hash(profile)
            stored = store.synthesis(STEP, profile.dataset, TaskIdeas)
            if stored is not None and stored[1] == digest and not self.force:
                continue
            items.append(BrainstormItem(competition="", profile=profile, input_hash=digest))
        return items

    async def run_one(self, item: BrainstormItem, llm: LLM) -> BrainstormResult:
        """Ask for tasks until every proposal fits the data (or ATTEMPTS answers), keep the valid distinct ones."""
        profile = item.profile
        metrics = {task_type: metric_names(task_type) for task_type in ("binary", "multiclass", "regression")}
        error = ""
        for attempt in range(1, ATTEMPTS + 1):
            messages = self.prompt.render(dataset=profile.dataset, readme=profile.readme, tables=profile.tables,
                                          tasks=self.tasks, metrics=metrics, error=error)
            answer = await llm.ask(role="synthesize", messages=messages, schema=BrainstormAnswer, item=item.key,
                                   prompt_hash=self.prompt.hash)
            kept, dropped, seen = [], [], set()
            for idea in answer.parsed.tasks:
                problem = idea_problem(idea, profile)
                if problem is None and (idea.table, idea.target) in seen:
                    problem = f"repeats the task on {idea.target}"
                if problem:
                    dropped.append(f"{idea.name}: {problem}")
                    continue
                seen.add((idea.table, idea.target))
                kept.append(idea)
            if not dropped or attempt == ATTEMPTS:
                break
            error = "; ".join(dropped) + ". Fix or replace these tasks and answer with the whole list again."
        if not kept:
            raise ItemFailed(f"no proposed task fits the data ({'; '.join(dropped) or 'none proposed'})")
        return BrainstormResult(item=item, ideas=TaskIdeas(ideas=kept[:self.tasks], dropped=dropped))

    def record(self, store: Store, result: BrainstormResult) -> None:
        """The dataset's ideas, replacing earlier ones."""
        store.save_synthesis(STEP, result.item.key, result.item.key, result.ideas, result.item.input_hash)
