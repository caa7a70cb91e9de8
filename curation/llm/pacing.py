"""The clock the LLM client paces its requests by: the rate limits' buckets, a provider's pause after a 429, the
back-off between tries and the retry budget (max_retry_seconds).

One object, read at each use, so that a test can run a whole command in the default configuration (Anthropic's 50
requests a minute, one-second back-offs) without waiting those out (tests/conftest.py): `Clock(speed=100)` sleeps a
hundredth of each wait and moves its own time on to where the wait ends. Time that really passes (an HTTP request, a
timeout) counts as it is, so the retry budget still sees it. A call's latency is measured in real time, never by this
clock. A run uses `Clock()`: real time.
"""

from __future__ import annotations

import asyncio
import time


class Clock:
    """Monotonic seconds, and sleeps that take 1/`speed` of their time."""

    def __init__(self, speed: float = 1.0) -> None:
        self.speed = speed
        self._skipped = 0.0  # seconds of sleeps this clock did not wait out

    def now(self) -> float:
        return time.monotonic() + self._skipped

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0 or self.speed == 1.0:
            await asyncio.sleep(max(seconds, 0))
            return
        # The clock moves on to where this sleep ends, as real time would: sleeps that overlap (calls backing off
        # together) move it on once, by the longest, not by their sum.
        until = self.now() + seconds
        await asyncio.sleep(seconds / self.speed)
        self._skipped = max(self._skipped, until - time.monotonic())

    async def back_off(self, seconds: float) -> float:
        """Wait before one call tries again, and return the seconds of that wait not waited out (0 in real time).

        The clock stays where it is: a back-off is one call's own wait, which in real time overlaps the other calls'
        requests; moved on by each, the clock would spend every call's retry budget on the others' back-offs. The
        caller counts the returned seconds towards its own budget instead."""
        real = seconds / self.speed
        await asyncio.sleep(max(real, 0))
        return max(seconds - real, 0.0)


clock = Clock()


def now() -> float:
    """The pacing clock's monotonic seconds."""
    return clock.now()


async def sleep(seconds: float) -> None:
    """Wait `seconds` of the pacing clock (a wait every call to a provider shares: its rate limit, its pause)."""
    await clock.sleep(seconds)


async def back_off(seconds: float) -> float:
    """One call's wait before it tries again; returns the seconds not waited out (Clock.back_off)."""
    return await clock.back_off(seconds)
