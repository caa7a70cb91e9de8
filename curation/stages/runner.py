"""The stage runner every LLM stage uses: pending items run concurrently, each recorded as soon as it finishes.

A stage says what is pending, does one item (pure, no SQL) and records its result (one transaction). The runner
owns the rest: bounded concurrency, a failed item not stopping the others, the budget stop, and the summary.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from collections.abc import Callable, Collection
from typing import Any, Protocol, runtime_checkable

from curation.config import Settings
from curation.excerpt import plural, unexpected
from curation.llm import LLM, BatchPending, BudgetExceeded, LLMCallFailed, LLMConfigError
from curation.llm.limits import request_priority
from curation.llm.tally import Tally
from curation.records import Competition
from curation.store import Store

# Items in flight at once; each provider's max_concurrent still bounds the HTTP requests.
DEFAULT_CONCURRENCY = 32
# Disk a round needs before it starts: answers, call-log rows and the WAL. Generous per item (a translation with
# its retries and checks is a few kB), so a disk this close to full is refused before any call is paid for.
BASE_BYTES = 16_000_000
BYTES_PER_ITEM = 64_000


class ItemFailed(Exception):
    """Raised by a stage's run_one for a problem of that item alone (bad input, checks that never pass): the
    runner records it as the item's failure and goes on with the others."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@runtime_checkable
class WorkItem(Protocol):
    """One unit of a stage's work: `key` names it in messages and logs (e.g. "titanic" or "titanic/description/kk"),
    `competition` is the slug its stage_status row belongs to."""

    key: str
    competition: str


class Stage(Protocol):
    name: str

    def pending(self, store: Store, settings: Settings) -> list[Any]:
        """Items with no output, a failed one, or one whose input hash differs from today's."""

    async def run_one(self, item: Any, llm: LLM) -> Any:
        """Do one item through the LLM and return its result record; no SQL here."""

    def record(self, store: Store, result: Any) -> None:
        """Store one item's result in one transaction."""


@dataclass
class RunSummary:
    """How far a stage run got."""

    stage: str
    done: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)  # (item key, reason)
    not_started: int = 0  # left for the next run (budget reached); they stay pending
    left_pending: list[tuple[str, str]] = field(default_factory=list)  # (item key, reason): batch left no answer
    cost_usd: float = 0.0
    calls: int = 0
    cache_hits: int = 0
    stopped: str | None = None  # why the run stopped starting items, if it did

    @property
    def complete(self) -> bool:
        return not self.failed and not self.not_started and not self.left_pending

    def lines(self) -> list[str]:
        """The summary as a user reads it."""
        pending = f", {len(self.left_pending)} left pending" if self.left_pending else ""
        head = (f"{self.stage}: {self.done} done, {len(self.failed)} failed, {self.not_started} not started{pending}; "
                f"{plural(self.calls, 'LLM call')} ({self.cache_hits} from cache), ${self.cost_usd:.4f}")
        lines = [head]
        lines += [f"  failed {key}: {reason}" for key, reason in self.failed]
        lines += [f"  pending {key}: {reason}" for key, reason in self.left_pending]
        if self.stopped:
            lines.append(f"  stopped: {self.stopped}; rerun to continue where it stopped")
        return lines


def looked_at(store: Store, only: str | None, competitions: Collection[str] | None = None) -> list[Competition]:
    """The competitions a stage's pending() looks at: every one (or `only`), or just `competitions` when given
    (`curate run` asks a stage again about a competition once the stages before it have settled it)."""
    if competitions is None:
        return [c for c in store.competitions() if only in (None, c.competition)]
    return [c for slug in competitions if (c := store.competition(slug)) is not None and only in (None, slug)]


def competition_of(item: Any) -> str:
    """The slug an item's stage_status row belongs to ("" for an item of no competition)."""
    return getattr(item, "competition", None) or ""


def item_key(item: Any) -> str:
    return str(getattr(item, "key", None) or getattr(item, "competition", None) or item)


# Told (stage name, items finished, items in all, items failed) when a run starts and after each item, e.g. to draw a
# progress bar; finished counts the failed items too.
ProgressCallback = Callable[[str, int, int, int], None]


async def run_stage(stage: Stage, store: Store, settings: Settings, llm: LLM,
                    concurrency: int = DEFAULT_CONCURRENCY, progress: ProgressCallback | None = None) -> RunSummary:
    """Run every pending item of a stage; MissingKey and other setup errors propagate and stop the run, and so
    does StoreError when the store cannot record answers (checked before the first call). Any other exception
    in one item's run_one fails that item (recorded, retried by the next run) and the others go on."""
    items = list(stage.pending(store, settings))
    if llm.batch_mode:
        # Every item at once: a round's batch holds the requests of all items, not of the first `concurrency`.
        concurrency = len(items)
    run = StageRun(stage, store, settings, llm, concurrency=max(1, min(concurrency, len(items))), progress=progress)
    run.add(items)
    run.close()
    return await run.run()


class StageRun:
    """One run of a stage: its items done by `concurrency` workers, each result recorded as soon as it is in.

    Items may be added while it runs, until `close()`: `curate run` adds a competition's translations as soon as its
    description and domain are final. `settled(competition)` is told when the last added item of a competition has
    ended (done, failed or left pending); `priority` is its requests' place at the rate limiter, `logged_as` the stage
    its calls are logged under when its client serves other stages too."""

    def __init__(self, stage: Stage, store: Store, settings: Settings, llm: LLM, *,
                 concurrency: int = DEFAULT_CONCURRENCY, progress: ProgressCallback | None = None,
                 priority: tuple[int, ...] = (), settled: Callable[[str], None] | None = None, logged_as: str = ""):
        self.stage, self.store, self.llm = stage, store, llm
        self.summary = RunSummary(stage=stage.name)
        self.concurrency = concurrency
        self.priority = priority
        self.logged_as = logged_as  # the stage its calls are logged under, when the client serves several
        self._progress = progress
        self._settled = settled
        self._queue: asyncio.Queue = asyncio.Queue()
        self._added = 0
        self._open: dict[str, int] = {}  # competition -> its items not ended yet
        self._closed = False

    def add(self, items: list[Any]) -> None:
        """Queue more items; the store must be able to record their answers (checked before any is sent)."""
        if not items:
            return
        if self._closed:
            raise RuntimeError(f"{self.stage.name}: items added after the run was closed")
        if self.summary.stopped is not None:  # the budget is spent: they stay pending for the next run
            self.summary.not_started += len(items)
            return
        self.store.check_writable(BASE_BYTES + BYTES_PER_ITEM * len(items))
        for item in items:
            self._queue.put_nowait(item)
            self._open[competition_of(item)] = self._open.get(competition_of(item), 0) + 1
        self._added += len(items)
        self._advanced()

    def unfinished(self, competition: str) -> bool:
        """Whether items of `competition` added to this run have not ended yet."""
        return self._open.get(competition, 0) > 0

    def close(self) -> None:
        """No more items: the workers end once the queue is empty."""
        self._closed = True
        for _ in range(self.concurrency):
            self._queue.put_nowait(_CLOSED)

    async def run(self) -> RunSummary:
        """Work until closed and drained (or stopped by the budget); the summary of everything added."""
        # This run's calls alone, though other runs (languages, stages) share the client; the workers inherit the
        # tally and the priority through their context.
        self._tally = Tally.start(self.logged_as)
        request_priority.set(self.priority)
        if not self._added:
            self._advanced()  # told of the run even when it has nothing (yet): "0 of 0"
        workers = [asyncio.create_task(self._worker(place)) for place in range(self.concurrency)]
        try:
            await asyncio.gather(*workers)
        finally:
            for task in workers:
                task.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
        while not self._queue.empty():
            if self._queue.get_nowait() is not _CLOSED:
                self.summary.not_started += 1
        tally = self._tally
        self.summary.cost_usd, self.summary.calls, self.summary.cache_hits = tally.spent_usd, tally.calls, tally.cache_hits
        return self.summary

    def _advanced(self) -> None:
        if self._progress is not None:
            failed = len(self.summary.failed)
            self._progress(self.stage.name, self.summary.done + failed, self._added, failed)

    def _ended(self, item: Any) -> None:
        competition = competition_of(item)
        self._open[competition] -= 1
        if not self._open[competition] and self._settled is not None:
            self._settled(competition)

    def _record_failure(self, item: Any, reason: str) -> None:
        with self.store.transaction():
            hook = getattr(self.stage, "record_failure", None)
            if hook is not None:
                hook(self.store, item, reason)
            if competition := competition_of(item):
                self.store.set_status(competition, self.stage.name, "failed", detail=f"{item_key(item)}: {reason}")
        self.summary.failed.append((item_key(item), reason))

    async def _worker(self, place: int) -> None:
        summary = self.summary
        # Worker n starts its first item n turns of the event loop late: when several runs share the loop and the
        # client (translate's languages), their items then start in turn (be, kk, ja, be, kk, ja, ...) and every
        # language advances at once, instead of all of the first run's items queueing at the limiter first.
        for _ in range(min(place, DEFAULT_CONCURRENCY)):  # (a batch run's thousands of workers: the first few)
            await asyncio.sleep(0)
        while summary.stopped is None:
            item = await self._queue.get()
            if item is _CLOSED:
                return
            if summary.stopped is not None:  # the budget ran out while this worker waited for an item
                summary.not_started += 1
                self._ended(item)
                return
            try:
                result = await self.stage.run_one(item, self.llm)
            except BatchPending as error:  # not the item's fault: it stays pending for the next run
                summary.left_pending.append((item_key(item), error.reason))
            except (LLMCallFailed, ItemFailed) as error:
                self._record_failure(item, error.reason)
            except BudgetExceeded as error:
                summary.stopped = str(error)
                summary.not_started += 1  # this item did not finish; it stays pending
                self._ended(item)
                continue
            except LLMConfigError:
                raise  # a missing key or a server that is down: every other item would fail the same way
            except Exception as error:  # a bug or an odd input in this item alone must not end the others
                self._record_failure(item, unexpected(error))
            else:
                with self.store.transaction():  # the stage's writes for one item land together or not at all
                    self.stage.record(self.store, result)
                summary.done += 1
            self._advanced()
            self._ended(item)


_CLOSED = object()  # the queue's end mark: one per worker
