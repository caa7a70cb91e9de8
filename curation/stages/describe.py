"""The describe stage: reverse-infer a task description from a competition's top notebooks.

Per competition: generate (role `describe`) -> lint + score (role `score`) -> refine (role `refine`) ... until
the grade is good (C/D by default) with no lint findings, or `max_rounds` graded versions exist. Every round is
kept. A description written by a person (description.md) is never regenerated; it is linted and scored once,
for the report. Open "redescribe" requests from review re-run the loop with the reviewers' comments.

Pinned: a machine description the rubric annotators approved stays final when a prompt, model or call parameter
of the loop changes (it is listed as "reviewed under an older prompt"); only `redo_reviewed` writes it again.
A changed task (data card, notebooks, metric) still redoes it: the approval was of a text about the old task.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from typing import Annotated

from pydantic import AfterValidator, BaseModel

from curation.checks.description_lint import explain, lint_description
from curation.checks.not_content import not_content
from curation.config import Settings
from curation.fingerprint import fingerprint
from curation.llm import LLM, Answer, LLMCallFailed
from curation.prompts import Prompt, load_prompt
from curation.records import Competition, Description, DescriptionRound, GradeReport, Notebook, Problem
from curation.review.approval import approved_descriptions
from curation.store import Store

STAGE = "describe"
ROLES = ("describe", "score", "refine")


# -- what the models answer -----------------------------------------------------------------------



def task_inputs(competition: Competition, notebooks: list[Notebook]) -> dict:
    """What a description is written from; part of both the input hash and the source hash, so they never drift."""
    return {
        "task": [competition.comp_name, competition.data_type, competition.metric, competition.data_card],
        "person_written": competition.description,
        "notebooks": [notebook.text for notebook in notebooks],
    }

class CodeAnalysis(BaseModel):
    problem: str
    input_data: str
    expected_output: str


class TaskStructure(BaseModel):
    objective: str
    input_data: str
    desired_output: str


def _content(text: str) -> str:
    # An answer that is not a description (our retry text echoed, a refusal, a placeholder) fails validation,
    # so the client asks again with the reason, as for a malformed answer, and never stores it as content.
    reason = not_content(text)
    if reason:
        raise ValueError(f"the description is not a task description: {reason}; write the description itself")
    return text


class GeneratedDescription(BaseModel):
    """The describe prompt's answer: the three steps, so the final text carries none of the working."""

    analysis: CodeAnalysis
    structure: TaskStructure
    description: Annotated[str, AfterValidator(_content)]


class RefinedDescription(BaseModel):
    changes: list[str]
    description: Annotated[str, AfterValidator(_content)]


# -- work items and results -----------------------------------------------------------------------


@dataclass(frozen=True)
class DescribeItem:
    competition: str  # the slug, as the runner expects
    record: Competition
    notebooks: tuple[Notebook, ...]
    input_hash: str
    max_rounds: int
    feedback: str = ""  # reviewers' comments from open redescribe requests
    rejected: str = ""  # the description those reviewers scored too low: a rewrite must differ from it
    source_hash: str = ""  # the task the description is about (see DescribeStage.source_hash)

    @property
    def key(self) -> str:
        return self.competition

    @property
    def person_written(self) -> bool:
        return bool(self.record.description)


@dataclass
class DescribeResult:
    item: DescribeItem
    rounds: list[DescriptionRound]
    description: Description
    detail: str
    resolved: bool = True  # the description answers the open redescribe requests (not a copy of the rejected one)


@dataclass
class DescribeStage:
    """`curate describe`: options narrow the run (one competition, more rounds, redo everything)."""

    settings: Settings
    only: str | None = None
    max_rounds: int | None = None
    force: bool = False
    redo_reviewed: bool = False  # also rewrite stale descriptions the rubric approved (they go back to review)
    pinned: list[Description] = field(default_factory=list)  # approved descriptions left as they are though stale
    name: str = STAGE
    prompts: dict[str, Prompt] = field(init=False)

    def __post_init__(self) -> None:
        # Loaded once per run: a prompt edited mid-run must not mix two versions into one item.
        self.prompts = {role: load_prompt(self.settings, role) for role in ROLES}

    @property
    def rounds_limit(self) -> int:
        return self.max_rounds or self.settings.describe.max_rounds

    # -- select ---------------------------------------------------------------------------------

    def input_hash(self, competition: Competition, notebooks: list[Notebook]) -> str:
        """Everything that changes the outcome: task facts, notebook code, person-written text, prompts, models."""
        # changed call parameters only, so a project that never set any keeps its hashes
        params = {role: changed for role in ROLES if (changed := self.settings.changed_parameters(role))}
        return fingerprint({
            **({"params": params} if params else {}),
            **task_inputs(competition, notebooks),
            "prompts": {role: prompt.hash for role, prompt in self.prompts.items()},
            "models": {role: getattr(self.settings.models, role) for role in ROLES},
            "max_rounds": self.rounds_limit,
            "good_grades": sorted(self.settings.describe.good_grades),
        })

    def source_hash(self, competition: Competition, notebooks: list[Notebook]) -> str:
        """The task a description is about: facts, data card, notebooks and person-written text, not how it is written."""
        return fingerprint(task_inputs(competition, notebooks))

    def pending(self, store: Store, settings: Settings) -> list[DescribeItem]:
        """Competitions without a description, with a stale or failed one, or with an open redescribe request.

        A competition with neither notebooks nor a person-written description cannot be described; it is
        reported as a problem (and its status says what to add) instead of being sent to a model.
        """
        items, problems = self.select(store)
        for problem in problems:
            store.set_status(problem.competition, STAGE, "needs_human", problem.message)
        if self.only is None:  # a run narrowed to one competition must not erase the others' problems
            store.replace_problems(STAGE, problems)
        return items

    def select(self, store: Store) -> tuple[list[DescribeItem], list[Problem]]:
        """What `pending` finds, without writing anything: the items, the problems, and (in `pinned`) the approved
        descriptions kept though stale."""
        self.pinned = []
        approved = approved_descriptions(store, self.settings)
        requests: dict[str, list[str]] = {}
        for request in store.open_requests("redescribe"):
            requests.setdefault(request["competition"], []).append(request["feedback"])
        items, problems = [], []
        # Whole tables read once (notebooks as a stream, one competition's at a time), not three queries per competition.
        described = {description.competition: description for description in store.descriptions()}
        states = {status.competition: status for status in store.statuses(STAGE)}
        notebooks_of = store.notebooks_by_competition(self.only)
        for competition in store.competitions():
            slug = competition.competition
            if self.only and slug != self.only:
                continue
            notebooks = notebooks_of(slug)
            if not notebooks and not competition.description:
                message = "no notebooks and no description.md: add notebooks, or write description.md, then run `curate ingest`"
                problems.append(Problem(stage=STAGE, path=competition.source or slug, message=message, competition=slug))
                continue
            digest = self.input_hash(competition, notebooks)
            source = self.source_hash(competition, notebooks)
            stored = described.get(slug)
            status = states.get(slug)
            fresh = (stored is not None and stored.input_hash == digest and status is not None
                     and status.status != "failed" and status.input_hash == digest)
            if fresh and not self.force and slug not in requests:
                continue
            if (stored is not None and stored.provenance == "machine" and slug not in requests and slug in approved
                    and not self.redo_reviewed and stored.source_hash in ("", source)):
                # Rubric annotators approved this text: a new prompt or model does not undo that. (A description
                # stored before source hashes were kept is taken to be about today's task.)
                if stored.input_hash != digest:
                    self.pinned.append(stored)
                continue
            feedback = "\n".join(f"- {text}" for text in requests.get(slug, []) if text.strip())
            rejected = stored.text if stored is not None and slug in requests else ""
            items.append(DescribeItem(competition=slug, record=competition, notebooks=tuple(notebooks),
                                      input_hash=digest, max_rounds=self.rounds_limit, feedback=feedback,
                                      rejected=rejected, source_hash=source))
        return items, problems

    # -- do one ---------------------------------------------------------------------------------

    async def run_one(self, item: DescribeItem, llm: LLM) -> DescribeResult:
        """The loop for one competition; raises LLMCallFailed when a call keeps failing (cached calls are kept)."""
        if item.person_written:
            rounds = [await self._grade(item, llm, 1, "human", item.record.description or "", model="", prompt_hash="")]
            return self._result(item, rounds)
        rounds = await self._loop(item, llm)
        if item.rejected and _same_text(rounds[-1].text, item.rejected):
            # The rewrite is the rejected text again: a failed attempt, never an answer to the reviewers. Once more,
            # told so (a new request, not the cached one); a second copy goes to the curator, the request stays open.
            again = replace(item, feedback=item.feedback + "\n- " + IDENTICAL_REWRITE)
            rounds = await self._loop(again, llm)
            if _same_text(rounds[-1].text, item.rejected):
                return self._result(item, rounds, identical=True)
            item = again
        return self._result(item, rounds)

    async def _loop(self, item: DescribeItem, llm: LLM) -> list[DescriptionRound]:
        rounds = [await self._generate(item, llm)]
        while not rounds[-1].good(self.settings.describe.good_grades) and len(rounds) < item.max_rounds:
            rounds.append(await self._refine(item, llm, rounds[-1]))
        return rounds

    def task_variables(self, item: DescribeItem) -> dict[str, object]:
        """The describe and refine prompts' variables about the task: name, data type, metric, data card, notebooks."""
        record = item.record
        return {"comp_name": record.comp_name, "data_type": record.data_type, "metric": record.metric,
                "data_card": record.data_card,
                "notebooks": [{"name": nb.name, "text": nb.text} for nb in item.notebooks]}

    async def _generate(self, item: DescribeItem, llm: LLM) -> DescriptionRound:
        prompt = self.prompts["describe"]
        answer = await llm.ask(role="describe", messages=prompt.render(**self.task_variables(item), feedback=item.feedback),
                               schema=GeneratedDescription, item=item.key, prompt_hash=prompt.hash)
        text = _nonempty(answer.parsed.description, item, "describe")
        graded = await self._grade(item, llm, 1, "describe", text, model=self.settings.models.describe,
                                   prompt_hash=prompt.hash)
        return _with_cost(graded, answer)

    async def _refine(self, item: DescribeItem, llm: LLM, previous: DescriptionRound) -> DescriptionRound:
        prompt = self.prompts["refine"]
        reasons = [f"{c.criterion}: {c.reason}" for c in previous.reasons if not c.met]
        messages = prompt.render(**self.task_variables(item), description=previous.text, grade=previous.grade or "",
                                 reasons=reasons, findings=explain(previous.findings), feedback=item.feedback)
        answer = await llm.ask(role="refine", messages=messages, schema=RefinedDescription, item=item.key,
                               prompt_hash=prompt.hash)
        text = _nonempty(answer.parsed.description, item, "refine")
        graded = await self._grade(item, llm, previous.round + 1, "refine", text, model=self.settings.models.refine,
                                   prompt_hash=prompt.hash)
        return _with_cost(graded, answer)

    async def _grade(self, item: DescribeItem, llm: LLM, number: int, step: str, text: str, model: str,
                     prompt_hash: str) -> DescriptionRound:
        """Lint and score one version of the text."""
        prompt = self.prompts["score"]
        record = item.record
        answer = await llm.ask(role="score", schema=GradeReport, item=item.key, prompt_hash=prompt.hash,
                               messages=prompt.render(comp_name=record.comp_name, data_type=record.data_type,
                                                      metric=record.metric, data_card=record.data_card, description=text))
        report: GradeReport = answer.parsed
        return _with_cost(DescriptionRound(
            competition=item.competition, round=number, step=step, text=text, grade=report.grade,
            reasons=report.criteria, findings=lint_description(text), model=model,
            score_model=self.settings.models.score, prompt_hash=prompt_hash, score_prompt_hash=prompt.hash,
        ), answer)

    def _result(self, item: DescribeItem, rounds: list[DescriptionRound], identical: bool = False) -> DescribeResult:
        final = rounds[-1]
        good = final.good(self.settings.describe.good_grades)
        reasons: list[str] = []
        if identical:
            reasons.append("reviewers sent the description back, and describe wrote the same text again twice; "
                           "write description.md for it (or change the describe prompt) and run `curate ingest`")
        if final.grade not in self.settings.describe.good_grades:
            unmet = [f"{c.criterion}: {c.reason}" for c in final.reasons if not c.met]
            reasons.append(f"grade {final.grade}" + (f" ({'; '.join(unmet)})" if unmet else ""))
        reasons += [f"lint {finding.line()}" for finding in final.findings]
        if item.person_written and item.feedback:
            reasons.append(f"reviewers asked for a new description; edit description.md: {item.feedback}")
        description = Description(
            competition=item.competition, text=final.text, provenance="human" if item.person_written else "machine",
            grade=final.grade, rounds=len(rounds), needs_human=bool(reasons), reasons=reasons,
            input_hash=item.input_hash, source_hash=item.source_hash,
        )
        who = "written by a person" if item.person_written else f"{len(rounds)} round{'s' if len(rounds) != 1 else ''}"
        if good and not reasons:
            detail = f"grade {final.grade}, {who}"
        else:
            detail = f"grade {final.grade}, {who}; " + "; ".join(reasons)
        return DescribeResult(item=item, rounds=rounds, description=description, detail=detail, resolved=not identical)

    # -- record ---------------------------------------------------------------------------------

    def record(self, store: Store, result: DescribeResult) -> None:
        """The rounds, the final description, its status and the answered requests, in one transaction."""
        item = result.item
        with store.transaction():
            store.save_description_rounds(item.competition, result.rounds)
            store.save_description(result.description)
            status = "needs_human" if result.description.needs_human else "done"
            store.set_status(item.competition, STAGE, status, result.detail, item.input_hash)
            if item.feedback and result.resolved:
                store.resolve_requests("redescribe", item.competition)


IDENTICAL_REWRITE = ("Your last rewrite repeated the rejected description word for word. Write a different "
                     "description that answers the reviewers' comments above.")


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def _nonempty(text: str, item: DescribeItem, role: str) -> str:
    text = text.strip()
    if not text:
        raise LLMCallFailed(item.key, role, "the model returned an empty description")
    return text


def _with_cost(round_: DescriptionRound, answer: Answer) -> DescriptionRound:
    """Add one call's tokens and cost to a round (a round is one writing call plus its scoring call)."""
    return round_.model_copy(update={
        "tokens_in": round_.tokens_in + answer.usage.tokens_in,
        "tokens_out": round_.tokens_out + answer.usage.tokens_out,
        "cost_usd": round_.cost_usd + answer.cost_usd,
    })
