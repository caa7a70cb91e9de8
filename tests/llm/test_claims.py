"""Claims on requests (curation/llm/claims.py): a request one client is sending is not sent by another over the same
store, which waits for the answer; a claim whose process is gone, or whose lease ran out, is taken over.

Real processes racing each other are in tests/stages/test_concurrent_runs.py; here two clients share a store file in
one process, and the claims' clock is injected.
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import threading

from pydantic import BaseModel

from curation.llm import LLM
from curation.llm.claims import LEASE_SECONDS, ProcessIdentity, RequestClaims
from curation.store import RequestClaim, Store


class Domain(BaseModel):
    domain: str


MESSAGES = [{"role": "system", "content": "Pick a domain."}, {"role": "user", "content": "Competition: titanic"}]


async def until(condition) -> None:
    for _ in range(20_000):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("timed out")


async def test_a_second_client_waits_for_the_request_the_first_is_sending(llm_server, llm_settings, settings, caplog):
    opened = threading.Event()
    llm_server.respond_with(lambda request: {"domain": "finance"} if opened.wait(timeout=60) else {"domain": "late"})
    fast = llm_settings.model_copy(update={"llm": llm_settings.llm.model_copy(update={"claim_poll_seconds": 0.001})})
    with Store(settings.path("store")) as one, Store(settings.path("store")) as other, \
            caplog.at_level(logging.WARNING, logger="curation.llm"):
        async with LLM(fast, one, stage="tag") as first, LLM(fast, other, stage="tag") as second:
            sending = asyncio.create_task(first.ask(role="tag", messages=MESSAGES, schema=Domain, item="titanic"))
            await until(lambda: llm_server.count() == 1)
            waiting = asyncio.create_task(second.ask(role="tag", messages=MESSAGES, schema=Domain, item="titanic"))
            await until(lambda: "waiting for its answers" in caplog.text)
            opened.set()
            sent, waited = await sending, await waiting

        assert llm_server.count() == 1
        assert (sent.cached, waited.cached, waited.parsed.domain) == (False, True, "finance")
        assert other.request_claims() == []
    assert "this process is already asking some of these requests" in caplog.text


def claim(request_hash: str, process: ProcessIdentity, expires_at: float) -> RequestClaim:
    return RequestClaim(request_hash, "someone-else", process.pid, process.machine, process.started, expires_at)


async def test_a_claim_of_a_process_that_is_gone_is_taken_over(store):
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    unreaped = subprocess.Popen([sys.executable, "-c", "pass"])  # exited and not waited for: a zombie
    here = ProcessIdentity.this_process()
    claims = RequestClaims(store, poll_seconds=0.01, clock=lambda: 1000.0)
    try:
        await until(lambda: _stat(unreaped.pid)[0] == "Z")
        gone = [ProcessIdentity(here.machine, int(ended.stdout), here.started),
                ProcessIdentity(here.machine, unreaped.pid, _stat(unreaped.pid)[19]),
                ProcessIdentity(here.machine, os.getpid(), "1")]  # this pid, another start time: the pid was reused
        for number, process in enumerate(gone):
            store.claim_request(claim(f"gone-{number}", process, 2000.0), lambda held: True)
            assert claims.take(f"gone-{number}") is None  # taken over
        store.claim_request(claim("live", here, 2000.0), lambda held: True)
        assert claims.take("live") is not None  # a running holder keeps its claim
    finally:
        unreaped.wait()
        await claims.close()


def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name: [0] the state (Z: exited, not waited for), [19] the
    start time."""
    return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()


async def test_a_claim_from_another_machine_holds_until_its_lease_runs_out(store):
    now = [1000.0]
    claims = RequestClaims(store, poll_seconds=0.01, clock=lambda: now[0])
    elsewhere = ProcessIdentity("another-machine", 1, "")
    store.claim_request(claim("h", elsewhere, now[0] + LEASE_SECONDS), lambda held: True)

    assert claims.take("h") is not None  # its pid means nothing here: not taken over
    now[0] += LEASE_SECONDS + 1
    assert claims.take("h") is None  # its holder stopped renewing it
    assert store.request_claim("h").owner == claims.owner
    claims.release("h")
    await claims.close()
    assert store.request_claims() == []


async def test_a_holder_renews_its_claims_while_it_holds_them(store):
    now = [1000.0]

    async def sleep(seconds: float) -> None:  # time passes only when the renewal sleeps
        now[0] += seconds
        await asyncio.sleep(0)

    holder = RequestClaims(store, poll_seconds=0.01, clock=lambda: now[0], sleep=sleep)
    other = RequestClaims(store, poll_seconds=0.01, clock=lambda: now[0])
    assert holder.take("h") is None
    for _ in range(20):  # twenty renewals: ten minutes, five leases
        await asyncio.sleep(0)
    assert now[0] >= 1000.0 + 4 * LEASE_SECONDS
    assert other.take("h") is not None  # still held: renewed every quarter of a lease

    await holder.close()  # a holder that stops renewing (stuck, stopped) ...
    now[0] += LEASE_SECONDS + 1
    assert other.take("h") is None  # ... loses it once the lease runs out
