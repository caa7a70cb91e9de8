"""The pacing clock (curation/llm/pacing.py): what a faster clock does to waits, the clock's time and a call's budget."""

from __future__ import annotations

import asyncio
import time

from curation.llm.pacing import Clock


async def test_a_faster_clock_sleeps_a_fraction_and_moves_on_by_the_whole_wait():
    clock = Clock(speed=1000)
    before, started = clock.now(), time.monotonic()

    await clock.sleep(5.0)

    assert time.monotonic() - started < 1.0  # 5 ms of a 5 s wait
    assert 5.0 <= clock.now() - before < 6.0


async def test_overlapping_sleeps_move_the_clock_once_by_the_longest():
    clock = Clock(speed=1000)
    before = clock.now()

    await asyncio.gather(clock.sleep(3.0), clock.sleep(2.0), clock.sleep(3.0))

    assert 3.0 <= clock.now() - before < 4.0  # as in real time: not 8 s


async def test_a_back_off_leaves_the_clock_and_returns_what_it_skipped():
    clock = Clock(speed=1000)
    before = clock.now()

    skipped = await clock.back_off(2.0)

    assert 1.99 <= skipped < 2.0  # the caller adds this to its own retry budget
    assert clock.now() - before < 1.0  # other calls' budgets do not pay for it


async def test_the_real_clock_waits_out_every_second_and_skips_nothing():
    clock = Clock()
    started = time.monotonic()

    assert await clock.back_off(0.02) == 0.0
    await clock.sleep(0.02)

    assert time.monotonic() - started >= 0.04
