"""Per-provider limits, observed from the server side: requests per window, tokens per window, requests at once."""

from __future__ import annotations

import asyncio
import time

import pytest

from curation.llm import LLM
from curation.llm.limits import PriorityGate, Reservation, TokenBucket, request_priority
from tests.fakes.llm_server import answer, pointed_at, rate_limited

# The limits are measured on the server's side, in real time.
pytestmark = pytest.mark.real_pacing


def most_in_any_window(times: list[float], window: float) -> int:
    """The most requests whose arrival falls in any half-open window [t, t + window)."""
    times = sorted(times)
    most, start = 0, 0
    for end, at in enumerate(times):
        while at - times[start] >= window:
            start += 1
        most = max(most, end - start + 1)
    return most


async def ask_many(settings, store, count: int, role: str = "tag", text: str = "") -> None:
    async with LLM(settings, store, stage="tag") as llm:
        await asyncio.gather(*(llm.ask(role=role, messages=[{"role": "user", "content": f"{text}item {n}"}], item=f"i{n}")
                               for n in range(count)))


async def test_requests_per_minute_are_never_exceeded_in_any_window(llm_server, settings, store):
    # 1200 per minute = one every 50 ms; 30 calls fired at once would all land within a few ms without the limiter
    limited = pointed_at(settings, llm_server, requests_per_minute=1200)
    await ask_many(limited, store, 30)

    arrivals = [r.received_at for r in llm_server.requests]
    assert len(arrivals) == 30
    # a bucket of one request refilled 20 times a second lets at most 1 + 20 t through in any t seconds, and never
    # a burst (30 at once). Arrivals are stamped by the server, so a loaded machine can bunch two or three requests
    # that left the client 50 ms apart: allow that much jitter, far below a burst.
    assert most_in_any_window(arrivals, 1.0) <= 24
    assert most_in_any_window(arrivals, 0.25) <= 9


async def test_roles_on_one_provider_share_its_limit(llm_server, settings, store):
    limited = pointed_at(settings, llm_server, requests_per_minute=1200)
    async with LLM(limited, store, stage="mixed") as llm:
        await asyncio.gather(*(llm.ask(role=role, messages=[{"role": "user", "content": f"{role} {n}"}], item=str(n))
                               for n in range(10) for role in ("describe", "score", "tag")))
    openai_arrivals = [r.received_at for r in llm_server.requests if r.api == "openai"]
    assert len(openai_arrivals) == 30
    # One bucket for the three roles: 1 + 20 t in any t seconds, with the same allowance for server-side jitter as
    # above (a loaded machine bunched 8 into a quarter second); three buckets would let about 16 through.
    assert most_in_any_window(openai_arrivals, 0.25) <= 9


async def test_tokens_per_minute_are_never_exceeded_in_any_window(llm_server, settings, store):
    # 600k tokens per minute: bursts of at most 30k, refilled at 9.5k a second. Each request here is ~2k tokens
    # (8k characters, answered with 2000 input tokens reported), so 30 requests need about three seconds.
    limited = pointed_at(settings, llm_server, tokens_per_minute=600_000)
    small_output = limited.model_copy(update={"llm": limited.llm.model_copy(update={"max_output_tokens": 8})})
    llm_server.respond_with(lambda request: answer("ok", tokens_in=2000, tokens_out=1))
    await ask_many(small_output, store, 30, text="x" * 8000)

    arrivals = sorted(r.received_at for r in llm_server.requests)
    assert len(arrivals) == 30
    # The limiter bounds when requests leave the client; the server sees them later, by a delay that varies with the
    # machine's load: under a loaded CI run (three test workers on two cores) one second of arrivals held 22 requests,
    # where the bucket releases at most 19 in any second. Three requests of slack absorb that; a bucket refilling
    # twice as fast, or none at all, still overflows it (24 and 30 requests).
    most_tokens_per_second = most_in_any_window(arrivals, 1.0) * 2001
    assert most_tokens_per_second <= 30_000 + 9_500 + 3 * 2001  # burst + one second of refill + the arrival jitter
    assert most_in_any_window(arrivals, 0.05) < 30  # it did hold requests back


async def test_no_more_requests_at_once_than_max_concurrent(llm_server, settings, store):
    llm_server.latency = 0.1
    limited = pointed_at(settings, llm_server, max_concurrent=3)
    await ask_many(limited, store, 12)
    assert llm_server.max_in_flight == 3


async def test_a_429_holds_back_the_other_requests_to_that_provider(llm_server, settings, store):
    limited = pointed_at(settings, llm_server, max_concurrent=1)
    llm_server.script(rate_limited(retry_after=0.3))
    await ask_many(limited, store, 3)
    first, *rest = sorted(r.received_at for r in llm_server.requests)
    assert len(rest) == 3 and all(at - first >= 0.3 for at in rest)



def test_a_token_reservation_is_corrected_with_the_real_usage():
    bucket = TokenBucket(rate=0.001, capacity=1000)  # refills so slowly that only the correction can free tokens
    assert bucket.reserve(900) == 0  # the estimate fits the burst
    Reservation(bucket, 900).settle(100)  # the request really used 100 tokens: 800 come back
    assert bucket.reserve(900) == 0  # so a second one fits at once
    assert bucket.reserve(100) > 0  # and now the bucket is empty


def test_only_a_fresh_429_holds_the_other_requests_back(settings):
    """A 429 answering a request sent before the provider was paused says nothing new; letting it extend the pause
    would line every retry up behind the one before (the storm in issue 16)."""
    from curation.llm.limits import ProviderLimits

    limits = ProviderLimits(next(iter(settings.providers.values())))
    sent_before = time.monotonic()
    limits.pause(0.5)
    paused_until = limits._paused_until

    limits.pause(30.0, sent_at=sent_before)  # in flight when the pause began: only that request waits
    assert limits._paused_until == paused_until

    limits.pause(30.0, sent_at=time.monotonic())  # sent after: the server is still unhappy, everyone waits
    assert limits._paused_until > paused_until + 20


async def test_requests_of_a_higher_priority_pass_the_queued_ones(llm_server, settings, store):
    # `curate run` queues hundreds of translations at the limiter; a describe or tag request, whose answer releases
    # more work, must not wait behind them. 12 low-priority requests queue first, then 3 high-priority ones: the
    # high ones are sent next, in their own arrival order, and no request is lost.
    limited = pointed_at(settings, llm_server, requests_per_minute=600, max_concurrent=1)

    async def ask(llm, text: str, priority: tuple[int, ...]) -> None:
        request_priority.set(priority)  # this task's requests only
        await llm.ask(role="tag", messages=[{"role": "user", "content": text}], item=text)

    async with LLM(limited, store, stage="tag") as llm:
        low = [asyncio.ensure_future(ask(llm, f"low {n}", (2,))) for n in range(12)]
        await asyncio.sleep(0.25)  # the low ones are queued (one every 100 ms, one at a time)
        high = [asyncio.ensure_future(ask(llm, f"high {n}", (0,))) for n in range(3)]
        await asyncio.gather(*low, *high)

    order = [request.user_text for request in llm_server.requests]
    assert sorted(order) == sorted([f"low {n}" for n in range(12)] + [f"high {n}" for n in range(3)])
    first_high = order.index("high 0")
    assert order[first_high:first_high + 3] == ["high 0", "high 1", "high 2"]
    assert first_high <= 5  # sent within a request or two of being asked, not after the 12 queued before them


async def test_a_waiter_cancelled_at_the_gate_neither_takes_nor_loses_a_slot():
    gate = PriorityGate(1)
    admitted: list[str] = []

    async def enter(name: str, priority: tuple[int, ...]) -> None:
        async with gate.held(priority):
            admitted.append(name)
            await asyncio.sleep(0.01)

    async with gate.held(()):
        cancelled = asyncio.ensure_future(enter("cancelled", (0,)))
        waiting = [asyncio.ensure_future(enter(name, priority))
                   for name, priority in (("late", (2,)), ("urgent", (1,)), ("also urgent", (1,)))]
        await asyncio.sleep(0)
        cancelled.cancel()
        await asyncio.sleep(0)
    await asyncio.gather(*waiting)
    assert admitted == ["urgent", "also urgent", "late"]
    await asyncio.wait_for(enter("after", (5,)), 1)  # the one slot is free again, not lost to the cancelled waiter
    assert admitted[-1] == "after"
