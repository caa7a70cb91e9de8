"""The outline stage: a code-free solution outline per competition, from the top notebooks ingest keeps.

Per competition: the code of its top notebooks (best ranked first, cut to `[outline] token_budget` tokens in all)
-> K candidate outlines (role `outline`, each its own cached request) -> the deterministic lint on each -> one
`outline_judge` request scoring every candidate on the rubric (faithful, complete, executable, no leakage) and naming
the best -> the kept candidate (curation/stages/outline_answers.py says which) with every candidate's score, lint
findings and the judge's reasons.

A competition without notebooks waits (its status says so); it gets an outline once ingest finds notebooks for it.
Outlines never enter the task description: they are published as a release config of their own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from dataclasses import dataclass, field

from curation.checks.outline_lint import explain, lint_outline
from curation.config import Settings
from curation.excerpt import plural
from curation.fingerprint import fingerprint
from curation.llm import LLM, LLMCallFailed
from curation.prompts import Prompt, load_prompt
from curation.records import SECTIONS, CandidateVerdict, Competition, Notebook, Outline, OutlineSource
from curation.sources.notebooks import cap_tokens, count_tokens
from curation.stages.outline_answers import JudgeAnswer, OutlineAnswer, choose
from curation.stages.runner import looked_at
from curation.store import Store

STAGE = "outline"
ROLES = ("outline", "outline_judge")
WAITING = "waiting: no notebooks to outline from; add notebooks to its folder (or the dump) and run `curate ingest`"


@dataclass(frozen=True)
class SourceNotebook:
    """A notebook as the outline prompts show it: its number and rank (1 = best), its name and its code, cut to fit."""

    number: int
    rank: int
    name: str
    text: str


def fit_notebooks(notebooks: list[Notebook], budget: int) -> tuple[SourceNotebook, ...]:
    """The notebooks (best first) within `budget` tokens in all: each gets an equal share, and what a short one leaves
    of its share goes to the longer ones; a notebook longer than its share keeps its head and tail."""
    sizes = [count_tokens(notebook.text) for notebook in notebooks]
    shares: dict[int, int] = {}
    left, open_ = budget, len(notebooks)
    for index in sorted(range(len(notebooks)), key=sizes.__getitem__):
        shares[index] = min(sizes[index], left // open_)
        left -= shares[index]
        open_ -= 1
    fitted = []
    for index, notebook in enumerate(notebooks):
        text = notebook.text if sizes[index] <= shares[index] else cap_tokens(notebook.text, shares[index])[0]
        fitted.append(SourceNotebook(number=index + 1, rank=index + 1, name=notebook.name, text=text))
    return tuple(fitted)


@dataclass(frozen=True)
class OutlineItem:
    competition: str  # the slug, as the runner expects
    record: Competition
    notebooks: tuple[SourceNotebook, ...]
    input_hash: str

    @property
    def key(self) -> str:
        return self.competition


@dataclass
class OutlineResult:
    item: OutlineItem
    outline: Outline
    detail: str


@dataclass
class OutlineStage:
    """`curate outline`: one competition or all, `force` to redo finished ones (cached answers are reused)."""

    settings: Settings
    only: str | None = None
    force: bool = False
    name: str = STAGE
    waiting: list[str] = field(default_factory=list)  # competitions without notebooks
    prompts: dict[str, Prompt] = field(init=False)

    def __post_init__(self) -> None:
        self.prompts = {role: load_prompt(self.settings, role) for role in ROLES}

    @property
    def candidates(self) -> int:
        return self.settings.outline.candidates

    def input_hash(self, competition: Competition, notebooks: tuple[SourceNotebook, ...]) -> str:
        """What changes an outline: the task's facts, the code sent, the prompts, the models, K and call parameters."""
        params = {role: changed for role in ROLES if (changed := self.settings.changed_parameters(role))}
        return fingerprint({
            **({"params": params} if params else {}),
            "task": [competition.comp_name, competition.data_type, competition.metric, competition.data_card],
            "notebooks": [[notebook.name, notebook.text] for notebook in notebooks],
            "prompts": {role: prompt.hash for role, prompt in self.prompts.items()},
            "models": {role: getattr(self.settings.models, role) for role in ROLES},
            "candidates": self.candidates,
        })

    def pending(self, store: Store, settings: Settings, competitions: Collection[str] | None = None) -> list[OutlineItem]:
        """Competitions with notebooks and no outline, a stale or a failed one; those without notebooks wait (their
        status says so). `competitions`: look again at these only."""
        self.waiting = [] if competitions is None else [slug for slug in self.waiting if slug not in set(competitions)]
        stored = {outline.competition: outline for outline in store.outlines()}
        states = {status.competition: status for status in store.statuses(STAGE)}
        # Every competition's notebooks in one streamed query (in slug order); a few asked again, one by one.
        notebooks_of = store.notebooks_by_competition(self.only) if competitions is None else store.notebooks
        items = []
        for competition in looked_at(store, self.only, competitions):
            slug = competition.competition
            notebooks = notebooks_of(slug)
            if not notebooks:
                self.waiting.append(slug)
                if (state := states.get(slug)) is None or (state.status, state.detail) != ("pending", WAITING):
                    store.set_status(slug, STAGE, "pending", WAITING)
                continue
            fitted = fit_notebooks(notebooks, self.settings.outline.token_budget)
            digest = self.input_hash(competition, fitted)
            outline, status = stored.get(slug), states.get(slug)
            fresh = (outline is not None and outline.input_hash == digest and status is not None
                     and status.status != "failed" and status.input_hash == digest)
            if fresh and not self.force:
                continue
            items.append(OutlineItem(competition=slug, record=competition, notebooks=fitted, input_hash=digest))
        return items

    # -- do one ---------------------------------------------------------------------------------

    def task_variables(self, item: OutlineItem) -> dict[str, object]:
        """The variables both prompts share: the task's facts and the notebooks' code."""
        record = item.record
        return {"comp_name": record.comp_name, "data_type": record.data_type, "metric": record.metric,
                "data_card": record.data_card,
                "notebooks": [{"number": nb.number, "rank": nb.rank, "name": nb.name, "text": nb.text}
                              for nb in item.notebooks]}

    async def run_one(self, item: OutlineItem, llm: LLM) -> OutlineResult:
        """K candidates at once (one batch round in batch mode), the lint, then the judge; LLMCallFailed when a call
        keeps failing (the answers already in are cached)."""
        prompt = self.prompts["outline"]
        variables = self.task_variables(item)
        # Every candidate's call ends before a failure is raised: the answers that came are cached, none is orphaned.
        answers = await asyncio.gather(*(llm.ask(
            role="outline", schema=OutlineAnswer, item=item.key, prompt_hash=prompt.hash,
            messages=prompt.render(**variables, candidate=number, candidates=self.candidates))
            for number in range(1, self.candidates + 1)), return_exceptions=True)
        for answer in answers:
            if isinstance(answer, BaseException):
                raise answer
        drafts = [self._draft(item, answer.parsed) for answer in answers]
        judge = self.prompts["outline_judge"]
        verdict = await llm.ask(role="outline_judge", schema=JudgeAnswer, item=item.key, prompt_hash=judge.hash,
                                messages=judge.render(**variables, outlines=[
                                    {"number": number, "text": draft.text()}
                                    for number, draft in enumerate(drafts, start=1)]))
        judged: JudgeAnswer = verdict.parsed
        if len(judged.outlines) != len(drafts):
            raise LLMCallFailed(item.key, "outline_judge", f"scored {len(judged.outlines)} outlines of {len(drafts)}; "
                                                           "change prompts/outline_judge.md or [models] outline_judge")
        verdicts = [CandidateVerdict(candidate=number, score=scored.total, criteria=scored.criteria,
                                     findings=lint_outline(draft.text(), item.record))
                    for number, (draft, scored) in enumerate(zip(drafts, judged.outlines), start=1)]
        chosen, clean = choose(verdicts, judged.best)
        kept = verdicts[chosen - 1]
        reasons = []
        if not clean:
            reasons.append(f"every candidate failed the lint; the kept one: {'; '.join(explain(kept.findings))}")
        reasons += [f"judge scored {criterion.criterion} 0: {criterion.reason}" for criterion in kept.criteria
                    if criterion.score == 0]
        outline = drafts[chosen - 1].model_copy(update={
            "chosen": chosen, "candidates": verdicts, "needs_human": bool(reasons), "reasons": reasons,
            "judge_reason": judged.reason if chosen == judged.best else
            f"the judge preferred outline {judged.best}, which failed the lint; kept the best clean one",
            "judge": self.settings.models.outline_judge, "judge_prompt_hash": judge.hash,
            "cost_usd": sum(answer.cost_usd for answer in answers) + verdict.cost_usd})
        detail = f"best of {self.candidates}: kept candidate {chosen} (judge {kept.score}/{outline.max_score})"
        lint = sum(not candidate.clean for candidate in verdicts)
        detail += f"; {plural(lint, 'candidate')} failed the lint" if lint else "; lint clean"
        if reasons:
            detail += "; " + "; ".join(reasons)
        return OutlineResult(item=item, outline=outline, detail=detail)

    def _draft(self, item: OutlineItem, answer: OutlineAnswer) -> Outline:
        """One candidate as an Outline (not chosen yet): its sections and the notebooks it names, with their rank."""
        by_number = {notebook.number: notebook for notebook in item.notebooks}
        named = [by_number[number] for number in dict.fromkeys(answer.sources) if number in by_number]
        return Outline(competition=item.competition, **{name: getattr(answer, name) for name in SECTIONS},
                       sources=[OutlineSource(notebook=nb.name, rank=nb.rank) for nb in named or item.notebooks],
                       writer=self.settings.models.outline, prompt_hash=self.prompts["outline"].hash,
                       input_hash=item.input_hash)

    # -- record ---------------------------------------------------------------------------------

    def record(self, store: Store, result: OutlineResult) -> None:
        """The outline and its status, in one transaction."""
        outline = result.outline
        with store.transaction():
            store.save_outline(outline)
            store.set_status(outline.competition, STAGE, "needs_human" if outline.needs_human else "done",
                             result.detail, result.item.input_hash)
