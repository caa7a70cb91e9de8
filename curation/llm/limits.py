"""Per-provider rate limits: requests per minute, tokens per minute and concurrent requests, shared by every role
that uses the provider.

Both per-minute limits are token buckets: a caller takes its share (the bucket may go into debt) and waits until
the debt is repaid. Callers pass one at a time in arrival order, which keeps them first-come first-served and costs
O(1) per request, with no polling loop.

Within that order a request may have a priority (`request_priority`, set by the task that makes it): `curate run`
lets describe's requests pass before tag's and tag's before translate's, because each answer upstream releases
work downstream. Without it a describe step would wait behind hundreds of queued translations, and the last
competitions' chains (describe, score, tag, translate) would run alone at the end while the limit sat idle.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import random
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import AsyncIterator

from curation.config import ProviderSettings
from curation.llm import pacing

MAX_BACKOFF_SECONDS = 60.0

# The priority of the requests the current task makes: lower goes first; equal ones keep their arrival order.
request_priority: ContextVar[tuple[int, ...]] = ContextVar("curation_request_priority", default=())


class TokenBucket:
    """`rate` units per second, at most `capacity` saved up."""

    def __init__(self, rate: float, capacity: float):
        self.rate = rate
        self.capacity = capacity
        self._level = capacity
        self._at = pacing.now()

    def reserve(self, amount: float) -> float:
        """Take `amount` now and return how many seconds to wait before using it."""
        now = pacing.now()
        self._level = min(self.capacity, self._level + (now - self._at) * self.rate)
        self._at = now
        self._level -= amount
        return max(0.0, -self._level / self.rate)

    def give_back(self, amount: float) -> None:
        """Correct a reservation after the fact: positive returns units, negative takes more."""
        self._level = min(self.capacity, self._level + amount)


class PriorityGate:
    """At most `slots` holders at once; waiters are let in by (priority, arrival), not by arrival alone."""

    def __init__(self, slots: int):
        self._free = slots
        self._waiting: list[tuple[tuple[int, ...], int, asyncio.Future]] = []
        self._arrivals = itertools.count()

    @asynccontextmanager
    async def held(self, priority: tuple[int, ...] = ()) -> AsyncIterator[None]:
        await self._acquire(priority)
        try:
            yield
        finally:
            self._release()

    async def _acquire(self, priority: tuple[int, ...]) -> None:
        if self._free > 0 and not self._waiting:
            self._free -= 1
            return
        turn = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._arrivals), turn))
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release()  # the slot was handed over just as the waiter was cancelled: pass it on
            else:
                turn.cancel()  # stays in the heap, skipped by _release
            raise

    def _release(self) -> None:
        while self._waiting:
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():
                turn.set_result(None)  # the slot goes straight to the next waiter
                return
        self._free += 1


class ProviderLimits:
    """The limits of one provider. Use `async with limits.slot(tokens):` around one HTTP request."""

    def __init__(self, settings: ProviderSettings):
        # Capacity 1 spaces requests evenly at 60/rpm seconds, so no 60-second window ever holds more than rpm.
        self.requests = TokenBucket(settings.requests_per_minute / 60.0, 1.0)
        # Tokens may burst by a twentieth of a minute's worth; the refill rate is lowered by the same amount so
        # that burst plus refill still fit in any one minute.
        burst = settings.tokens_per_minute / 20.0
        self.tokens = TokenBucket((settings.tokens_per_minute - burst) / 60.0, burst)
        self.concurrent = PriorityGate(settings.max_concurrent)
        self._paused_until = 0.0
        self._paused_at = float("-inf")  # when the latest pause was declared
        self._gate = PriorityGate(1)

    def pause(self, seconds: float, sent_at: float | None = None) -> None:
        """The server said 429 with retry-after: hold every request to this provider that long.

        A 429 to a request sent (`sent_at`, the pacing clock) before the latest pause was declared says nothing new: the
        server's complaint is already being honoured. Letting each of those extend the pause would line every
        retry up behind the one before it, so only the request itself waits (the caller sleeps its retry-after)."""
        now = pacing.now()
        if sent_at is not None and sent_at < self._paused_at:
            return
        if now + seconds > self._paused_until:
            self._paused_until = now + seconds
            self._paused_at = now

    @asynccontextmanager
    async def slot(self, tokens: int) -> AsyncIterator["Reservation"]:
        """Wait for a concurrency slot, a request and `tokens` tokens; yield a handle to correct the tokens later."""
        priority = request_priority.get()
        async with self.concurrent.held(priority):
            # One request at a time through the gate, in arrival order within a priority (a big request cannot be
            # starved by small ones). Waiting
            # inside the gate means the next reservation starts from when this request really left: a stalled
            # event loop delays requests but never lets a backlog out in a burst.
            async with self._gate.held(priority):
                while (pause := self._paused_until - pacing.now()) > 0:
                    await pacing.sleep(pause)
                wait = max(self.requests.reserve(1), self.tokens.reserve(tokens))
                if wait > 0:
                    await pacing.sleep(wait)
            yield Reservation(self.tokens, tokens)


class Reservation:
    """Tokens reserved for one request, corrected once the real usage is known; `sent_at` is when it left."""

    def __init__(self, bucket: TokenBucket, estimate: int):
        self._bucket = bucket
        self._estimate = estimate
        self.sent_at = pacing.now()

    def settle(self, actual: int) -> None:
        self._bucket.give_back(self._estimate - actual)
        self._estimate = actual


def backoff(failures: int, settings: ProviderSettings) -> float:
    """Exponential back-off with jitter; the first wait is 1 s, or a twentieth of the retry budget if that is less."""
    first = min(1.0, settings.max_retry_seconds / 20) or 0.01
    return min(MAX_BACKOFF_SECONDS, first * 2 ** (failures - 1)) * random.uniform(0.5, 1.0)
