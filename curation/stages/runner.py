"""The stage runner every LLM stage uses: pending items run concurrently, each recorded as soon as it finishes.

A stage says what is pending, does one item (pure, no SQL) and records its result (one transaction). The runner
owns the rest: bounded concurrency, a failed item not stopping the others, the budget stop, and the summary.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from curation.config import Settings
from curation.excerpt import plural
from curation.llm import LLM, BatchPending, BudgetExceeded, LLMCallFailed, LLMConfigError
from curation.llm.tally import Tally
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


def unexpected(error: BaseException) -> str:
    """An exception nobody planned for, as one line: its type and first line, enough to find it in the code."""
    text = " ".join(str(error).split())
    text = text if len(text) <= 200 else text[:199] + "…"
    return f"unexpected {type(error).__name__}: {text}" if text else f"unexpected {type(error).__name__}"


def item_key(item: Any) -> str:
    return str(getattr(item, "key", None) or getattr(item, "competition", None) or item)


# Told (stage name, items finished, items in all) when a run starts and after each item, e.g. to draw a progress bar.
ProgressCallback = Callable[[str, int, int], None]


async def run_stage(stage: Stage, store: Store, settings: Settings, llm: LLM,
                    concurrency: int = DEFAULT_CONCURRENCY, progress: ProgressCallback | None = None) -> RunSummary:
    """Run every pending item of a stage; MissingKey and other setup errors propagate and stop the run, and so
    does StoreError when the store cannot record answers (checked before the first call). Any other exception
    in one item's run_one fails that item (recorded, retried by the next run) and the others go on."""
    items = list(stage.pending(store, settings))
    summary = RunSummary(stage=stage.name)
    if items:  # before the first paid call: an answer that cannot be recorded is money lost
        store.check_writable(BASE_BYTES + BYTES_PER_ITEM * len(items))

    def advanced() -> None:
        if progress is not None:
            progress(stage.name, summary.done + len(summary.failed), len(items))

    advanced()
    tally = Tally.start()  # this run's calls alone, though other runs (languages) share the client
    queue: asyncio.Queue = asyncio.Queue()
    for item in items:
        queue.put_nowait(item)

    def record_failure(item: Any, reason: str) -> None:
        with store.transaction():
            hook = getattr(stage, "record_failure", None)
            if hook is not None:
                hook(store, item, reason)
            competition = getattr(item, "competition", None)
            if competition:
                store.set_status(competition, stage.name, "failed", detail=f"{item_key(item)}: {reason}")
        summary.failed.append((item_key(item), reason))

    async def worker(place: int) -> None:
        # Worker n starts its first item n turns of the event loop late: when several runs share the loop and the
        # client (translate's languages), their items then start in turn (be, kk, ja, be, kk, ja, ...) and every
        # language advances at once, instead of all of the first run's items queueing at the limiter first.
        for _ in range(min(place, DEFAULT_CONCURRENCY)):  # (a batch run's thousands of workers: the first few)
            await asyncio.sleep(0)
        while summary.stopped is None:
            try:
                item = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            try:
                result = await stage.run_one(item, llm)
            except BatchPending as error:  # not the item's fault: it stays pending for the next run
                summary.left_pending.append((item_key(item), error.reason))
                advanced()
                continue
            except (LLMCallFailed, ItemFailed) as error:
                record_failure(item, error.reason)
                advanced()
                continue
            except BudgetExceeded as error:
                summary.stopped = str(error)
                summary.not_started += 1  # this item did not finish; it stays pending
                continue
            except LLMConfigError:
                raise  # a missing key or a server that is down: every other item would fail the same way
            except Exception as error:  # a bug or an odd input in this item alone must not end the others
                record_failure(item, unexpected(error))
                advanced()
                continue
            with store.transaction():  # the stage's writes for one item land together or not at all
                stage.record(store, result)
            summary.done += 1
            advanced()

    if llm.batch_mode:
        # Every item at once: a round's batch holds the requests of all items, not of the first `concurrency`.
        concurrency = len(items)
    workers = [asyncio.create_task(worker(place)) for place in range(max(1, min(concurrency, len(items))))]
    try:
        await asyncio.gather(*workers)
    finally:
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
    summary.not_started += queue.qsize()
    summary.cost_usd, summary.calls, summary.cache_hits = tally.spent_usd, tally.calls, tally.cache_hits
    return summary
