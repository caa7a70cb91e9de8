"""Batch mode: the requests a round of a stage needs go to the provider as one batch per provider and model.

A stage never knows: it asks `LLM.ask` as always, and in batch mode the client hands the request to the `Batcher`
here instead of sending it. Items run together (the runner starts all of them at once in batch mode), so each
item reaches its next request at about the same moment; once no new request has come for QUIET_SECONDS and no item
is `busy()` (translate's checks run in their own process and may take seconds for a round's answers), the collected
requests are submitted as one batch per provider+model. Answers then wake every item at once, and the next round
(describe's refine, translate's retry) collects the same way: an item still in its checks after the others asked
again is waited for, not left to a batch of its own. A busy item holds a batch back at most MAX_HOLD_SECONDS.

A request a batch ended without answering because it expired or met a passing fault (429, 5xx, overloaded) goes into
the next batch of the same run, up to `[llm] batch_resubmissions` times, and so does one whose stored answer is no
answer (`broken`); a refused or cancelled one, or one past that limit, is BatchUnanswered (its item left pending, or
asked online under batch_fallback = "online").

Durability: the batch and its requests are written to the store before the submission, and the provider's id as
soon as it answers; a rerun that asks the same request (same custom_id) polls that batch, or takes the stored
answer, instead of paying for it again.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from curation.excerpt import plural
from curation.llm.batch_api import BatchAPI, BatchAPIError, BatchStatus, Outcome
from curation.store import Store

log = logging.getLogger(__name__)

# Long enough for every woken item to ask again once its work is done; short against any batch.
QUIET_SECONDS = 0.2
LOOK_SECONDS = 0.05  # how often to look whether the collected requests may go
MAX_HOLD_SECONDS = 120.0  # how long work in progress may hold a batch back (short against a batch's hours)
MAX_POLL_SECONDS = 600.0


class BatchUnanswered(Exception):
    """The batch ended without an answer for this request (a per-request error, expired, cancelled, failed)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class _Waiting:
    custom_id: str
    request_hash: str
    body: dict
    submitted: asyncio.Future


class Batcher:
    """Collects requests into batches, submits them, polls them with back-off and stores their results."""

    def __init__(self, store: Store, poll_seconds: float, api_for: Callable[[str], BatchAPI], resubmissions: int = 0):
        self.store = store
        self.poll_seconds = poll_seconds
        self.resubmissions = resubmissions  # how often one request may go into another batch this run
        self._api_for = api_for  # provider name -> its batch API (builds the SDK client on first use)
        self._resubmitted: dict[str, int] = {}  # custom_id -> batches it went into again this run
        self._again: dict[str, int] = {}  # custom_id -> the ended batch after which it goes into the next one
        self._pending: dict[tuple[str, str], list[_Waiting]] = {}
        self._flush: asyncio.Task | None = None
        self._watchers: dict[int, asyncio.Task] = {}
        self._submitting: set[int] = set()
        self._ended_here: set[int] = set()  # batches whose results this run read: their errors are news
        self.submitted = 0  # batches this run submitted
        self._busy = 0  # items doing work that leads to their next request (busy())

    @contextmanager
    def busy(self) -> Iterator[None]:
        """Around an item's work between an answer and its next request that may take long (translate's checks):
        the round's batch waits for it."""
        self._busy += 1
        try:
            yield
        finally:
            self._busy -= 1

    async def answer(self, provider: str, model: str, custom_id: str, request_hash: str, body: dict) -> str:
        """The answer body (JSON text) for one request, from a stored batch result, a batch already submitted
        (by this run or a killed one) or a new batch. Raises BatchUnanswered."""
        return await self._answer(provider, model, custom_id, request_hash, body)

    async def _answer(self, provider: str, model: str, custom_id: str, request_hash: str, body: dict) -> str:
        while True:
            row = self.store.batch_request(custom_id)
            if row is not None and row.result is not None:
                return row.result
            if row is not None and not row.batch_closed:
                if row.remote_id is None and row.batch_id not in self._submitting:
                    # Recorded by a run killed before the provider answered the submission: nothing to poll.
                    log.warning("batch %d was being submitted when curate stopped; submitting its requests again",
                                row.batch_id)
                    self.store.close_batch(row.batch_id, "not submitted", {}, missing="not submitted")
                    continue
                await self._watch(row.batch_id, provider)
                continue
            if row is not None and row.batch_id in self._ended_here and self._again.get(custom_id) != row.batch_id:
                raise BatchUnanswered(f"batch {row.remote_id or row.batch_id}: {row.error}"
                                      + self._times_unanswered(custom_id))
            # New, an error from an earlier run's batch, or one this run's batch left worth another: submit it.
            waiting = _Waiting(custom_id, request_hash, body, asyncio.get_running_loop().create_future())
            self._pending.setdefault((provider, model), []).append(waiting)
            if self._flush is None:
                self._flush = asyncio.ensure_future(self._flush_when_quiet())
            await waiting.submitted

    # -- collect and submit -----------------------------------------------------------------------

    async def _flush_when_quiet(self) -> None:
        seen, quiet, held = -1, 0.0, 0.0
        while held < MAX_HOLD_SECONDS:
            await asyncio.sleep(LOOK_SECONDS)
            held += LOOK_SECONDS
            count = sum(len(group) for group in self._pending.values())
            quiet = quiet + LOOK_SECONDS if count == seen and not self._busy else 0.0
            seen = count
            if quiet >= QUIET_SECONDS:
                break
        groups, self._pending, self._flush = self._pending, {}, None
        for (provider, model), waiting in groups.items():
            try:
                await self._submit(provider, model, waiting)
            except Exception as error:  # the waiting items hear of it, not a task nobody awaits
                for request in waiting:
                    if not request.submitted.done():
                        request.submitted.set_exception(error)
            for request in waiting:
                if not request.submitted.done():
                    request.submitted.set_result(None)

    async def _submit(self, provider: str, model: str, waiting: list[_Waiting]) -> None:
        unique = {request.custom_id: request for request in waiting}  # two waiters, one request
        requests = [(r.custom_id, r.request_hash, r.body) for r in unique.values()]
        batch_id = self.store.add_batch(provider, model, requests)  # before anything reaches the provider
        self._submitting.add(batch_id)
        try:
            remote_id, status = await self._api_for(provider).submit([(cid, body) for cid, _, body in requests])
        except BatchAPIError as error:
            self.store.close_batch(batch_id, "not submitted", {}, missing=f"the batch was not accepted: {error.reason}")
            self._ended_here.add(batch_id)
            log.warning("%s:%s: a batch of %d requests was not accepted (%s)", provider, model, len(requests),
                        error.reason)
            return
        finally:
            self._submitting.discard(batch_id)
        self.store.update_batch(batch_id, status.state, status.counts, remote_id=remote_id)
        self.submitted += 1
        log.warning("%s:%s: submitted batch %s with %s; waiting for it (`curate batches` lists it)",
                    provider, model, remote_id, plural(len(requests), "request"))

    # -- wait for a batch -------------------------------------------------------------------------

    async def _watch(self, batch_id: int, provider: str) -> None:
        """Wait until a batch's results are stored; one watcher per batch however many requests wait on it."""
        if batch_id not in self._watchers:
            self._watchers[batch_id] = asyncio.ensure_future(self._poll(batch_id, provider))
        await asyncio.shield(self._watchers[batch_id])

    async def _poll(self, batch_id: int, provider: str) -> None:
        batch = self.store.batch(batch_id)
        assert batch is not None and batch.remote_id is not None
        api = self._api_for(provider)
        wait = self.poll_seconds
        last = ""
        while True:
            try:
                status = await api.status(batch.remote_id)
            except BatchAPIError as error:
                status = None
                log.warning("batch %s: cannot look at it (%s); trying again in %gs", batch.remote_id, error.reason,
                            round(wait, 1))
            if status is not None:
                self.store.update_batch(batch_id, status.state, status.counts)
                line = f"batch {batch.remote_id} ({batch.provider}:{batch.model}): {status.line()}"
                if line != last:  # the progress a waiting curator sees, once per change
                    log.warning(line)
                    last = line
                if status.ended:
                    break
            await asyncio.sleep(wait)
            wait = min(wait * 2, MAX_POLL_SECONDS)
        await self._collect(batch_id, batch.remote_id, api, status)

    async def _collect(self, batch_id: int, remote_id: str, api: BatchAPI, status: BatchStatus) -> None:
        wait = self.poll_seconds
        while True:
            try:
                results = await api.results(remote_id)
                break
            except BatchAPIError as error:
                log.warning("batch %s: cannot read its results (%s); trying again in %gs", remote_id, error.reason,
                            round(wait, 1))
                await asyncio.sleep(wait)
                wait = min(wait * 2, MAX_POLL_SECONDS)
        missing = f"batch {status.state}" + (f" ({status.detail})" if status.detail else "")
        # A request without a line was never processed; only an expired batch's are worth another batch.
        unlisted = Outcome(error=missing, again=status.state == "expired")
        outcomes = {custom_id: results.get(custom_id, unlisted) for custom_id, _ in self.store.batch_requests(batch_id)}
        self.store.close_batch(batch_id, status.state, {custom_id: (outcome.answer, outcome.error)
                                                        for custom_id, outcome in outcomes.items()}, missing=missing)
        again = [custom_id for custom_id, outcome in outcomes.items()
                 if outcome.again and self._ask_again(custom_id, batch_id)]
        self._ended_here.add(batch_id)
        if again:
            why = Counter(kind_of(outcomes[custom_id].error or "") for custom_id in again)
            log.warning("batch %s: %s not answered (%s); asking again in the next batch", remote_id,
                        plural(len(again), "request"), ", ".join(f"{count} {kind}" for kind, count in why.items()))

    def broken(self, custom_id: str, reason: str) -> None:
        """The stored answer to a request is no answer (a body without the API's fields): drop it, so that `answer`
        submits the request again, in this run's next batch within batch_resubmissions, else in the next run's."""
        row = self.store.batch_request(custom_id)
        assert row is not None and row.result is not None
        self.store.drop_batch_result(row.batch_id, custom_id, reason)
        if row.batch_id in self._ended_here and self._ask_again(custom_id, row.batch_id):
            log.warning("batch %s: 1 request not answered (%s); asking again in the next batch",
                        row.remote_id or row.batch_id, reason)

    def _ask_again(self, custom_id: str, batch_id: int) -> bool:
        """Whether a request the ended batch `batch_id` left unanswered may go into the next batch of this run (and
        if so, count it)."""
        if self._resubmitted.get(custom_id, 0) >= self.resubmissions:
            return False
        self._resubmitted[custom_id] = self._resubmitted.get(custom_id, 0) + 1
        self._again[custom_id] = batch_id
        return True

    def _times_unanswered(self, custom_id: str) -> str:
        """For a request left unanswered: how many batches of this run it was in, when more than one."""
        resubmitted = self._resubmitted.get(custom_id, 0)
        if not resubmitted:
            return ""
        return f" (unanswered by {resubmitted + 1} batches this run; batch_resubmissions = {self.resubmissions})"


def kind_of(error: str) -> str:
    """An unanswered request's error in a word or two ("batch_expired", "HTTP 500", "overloaded_error")."""
    return error.split(":", 1)[0].split(" (", 1)[0].strip() or "error"


async def cancel_batch(store: Store, batch_id: int, api: BatchAPI) -> BatchStatus:
    """Ask the provider to cancel a stored batch; the next run collects what it finished and resubmits the rest."""
    batch = store.batch(batch_id)
    assert batch is not None and batch.remote_id is not None
    status = await api.cancel(batch.remote_id)
    store.update_batch(batch_id, status.state, status.counts)
    return status
