"""`curate run`'s LLM stages as one pipeline on one client: describe, tag and every language's translate at once, a
competition moving on to a stage as soon as the stages it reads have settled it.

Why: run one after another, each stage ends with its slowest items while the rate limit idles, and every stage
opens a client of its own. On one client (one limiter, budget and cache) the limiter has work until the last
request: a competition is tagged as soon as its description is final, and translated as soon as its description
and domain are, while other competitions are still being described.

Order at the limiter (`request_priority`): the steps' order. Describe's requests pass before tag's and tag's before
translate's, because each answer upstream releases work downstream; the languages come one after another, so they
finish one after another and each language's review sheets can be written (`finished`) while the next ones are
still being translated.

What a step does with a competition is what it would do run alone after the steps it reads: its items for that
competition are looked up (pending) only once every step it reads has ended all of that competition's items
(done, failed or left), or has ended altogether (a budget stop).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from curation.config import Settings
from curation.llm import LLM
from curation.stages.runner import DEFAULT_CONCURRENCY, ProgressCallback, RunSummary, Stage, StageRun, looked_at
from curation.store import Store


@dataclass(frozen=True)
class Step:
    """A stage in the pipeline: `after` names the steps whose results it reads (then its pending() also takes
    `competitions=[slug]`); `logged_as` the stage its calls are logged under (every language's translate is logged
    as "translate", as when run alone)."""

    stage: Stage
    after: tuple[str, ...] = ()
    logged_as: str = ""


# Told when a step has ended, with its summary; what it returns (e.g. a thread writing that language's review sheets)
# is awaited before the pipeline returns.
Finished = Callable[[Stage, RunSummary], Awaitable | None]


class Pipeline:
    """Run `steps` (in dependency order) on one client; `run()` returns each stage with its summary, in step order."""

    def __init__(self, store: Store, settings: Settings, llm: LLM, steps: list[Step],
                 progress: ProgressCallback | None = None, finished: Finished | None = None):
        self.store, self.settings, self.llm = store, settings, llm
        self.steps = {step.stage.name: step for step in steps}
        self.runs = {name: StageRun(step.stage, store, settings, llm, concurrency=DEFAULT_CONCURRENCY,
                                    progress=progress, priority=(place,), logged_as=step.logged_as,
                                    settled=lambda competition, name=name: self._settled(name, competition))
                     for place, (name, step) in enumerate(self.steps.items())}
        self.decided: dict[str, set[str]] = {name: set() for name in self.steps}  # competitions looked up
        self.ended = {name: asyncio.Event() for name in self.steps}  # set when a step's run has ended
        self._finished = finished
        self._after_steps: list[Awaitable] = []

    async def run(self) -> list[tuple[Stage, RunSummary]]:
        competitions = [competition.competition for competition in looked_at(self.store, None)]
        for name, step in self.steps.items():
            # One full look per step, as a run alone would take (and what a redo confirmation counted); the items
            # of competitions not settled upstream yet are dropped and looked up again once they are.
            items = step.stage.pending(self.store, self.settings)
            ready = {slug for slug in competitions if self._settled_upstream(name, slug)}
            self.decided[name] |= ready
            self.runs[name].add([item for item in items if item.competition in ready])
        tasks = [asyncio.ensure_future(self._drive(name, competitions)) for name in self.steps]
        try:
            summaries = await asyncio.gather(*tasks)
            await asyncio.gather(*self._after_steps)
        finally:  # a setup error in one step (a missing key) ends the others before the client closes
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return [(self.steps[name].stage, summary) for name, summary in zip(self.steps, summaries)]

    async def _drive(self, name: str, competitions: list[str]) -> RunSummary:
        run = self.runs[name]
        work = asyncio.ensure_future(run.run())
        try:
            for upstream in self.steps[name].after:
                ended = asyncio.ensure_future(self.ended[upstream].wait())
                # While waiting, a setup error in this step's own items (a translate key) ends the run at once.
                await asyncio.wait({work, ended}, return_when=asyncio.FIRST_COMPLETED)
                if work.done() and work.exception() is not None:
                    ended.cancel()
                    raise work.exception()
                await ended  # (a budget stop ends a run before it is closed; the upstream step still ends first)
            # Every step it reads has ended: what they left unsettled (a budget stop) is looked up as it is now.
            for slug in competitions:
                if slug not in self.decided[name]:
                    self._decide(name, slug)
            run.close()
            summary = await work
        finally:
            work.cancel()
        self.ended[name].set()
        if self._finished is not None and (after := self._finished(run.stage, summary)) is not None:
            self._after_steps.append(asyncio.ensure_future(after))
        return summary

    def _settled_upstream(self, name: str, slug: str) -> bool:
        return all(slug in self.decided[upstream] and not self.runs[upstream].unfinished(slug)
                   for upstream in self.steps[name].after)

    def _settled(self, name: str, slug: str) -> None:
        """`slug` has no unfinished items in step `name`: the steps reading it may look it up."""
        for downstream, step in self.steps.items():
            if name in step.after and slug not in self.decided[downstream] and self._settled_upstream(downstream, slug):
                self._decide(downstream, slug)

    def _decide(self, name: str, slug: str) -> None:
        self.decided[name].add(slug)
        run = self.runs[name]
        run.add(self.steps[name].stage.pending(self.store, self.settings, competitions=[slug]))
        if not run.unfinished(slug):
            self._settled(name, slug)
