"""One process at a time sends a given request: the client claims a request's hash in the store before sending it.

Two `curate` commands over the same store (two terminals, a `curate run` beside a `curate translate`) build many of
the same requests. Each cache miss is claimed first; a process that finds the claim held by another waits until it is
let go and then reads the answer from the call log like any cache hit. A claim whose process is gone (killed,
crashed) is taken over at once; one whose lease was not renewed (a process stopped or stuck, or on a machine whose
processes cannot be looked up from here) once the lease runs out, so no request stays blocked for good.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from curation.store import RequestClaim, Store, StoreWriteError

# A claim lasts this long unless its holder renews it, which it does every quarter of it while it holds any: only a
# holder stuck or stopped for two minutes loses its claims. A batch call holds its claim for hours, renewed.
LEASE_SECONDS = 120.0

log = logging.getLogger("curation.llm.client")


@dataclass(frozen=True)
class ProcessIdentity:
    """A process as a claim names it: where its pid means something, the pid, and when the process started."""

    machine: str
    pid: int
    started: str

    @classmethod
    def this_process(cls) -> ProcessIdentity:
        return cls(_machine(), os.getpid(), _start_time(os.getpid()) or "")


def _machine() -> str:
    """What two processes share exactly when each can look up the other's pid: the kernel's boot id with the pid
    namespace on Linux (containers on one host differ), the host name elsewhere."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        return f"{boot}/{os.readlink('/proc/self/ns/pid')}"
    except OSError:
        return socket.gethostname()


def _start_time(pid: int) -> str | None:
    """The start time of a running process in clock ticks since boot (Linux), "" where /proc is not there, None when
    no such process runs (a zombie does not: it will never answer)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return None if Path("/proc/self/stat").exists() else ""
    except OSError:
        return ""
    fields = stat[stat.rindex(")") + 2:].split()  # the command name in parentheses may hold spaces
    return None if fields[0] in ("Z", "X") else fields[19]


def running(process: ProcessIdentity) -> bool:
    """Whether `process` (of this machine) still runs: its pid is taken by a process started when it was."""
    started = _start_time(process.pid)
    if started is None:
        return False
    if started and process.started:
        return started == process.started  # else the pid was reused by another process
    try:
        os.kill(process.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it runs, as another user
    return True


class RequestClaims:
    """The claims of one LLM client: `take` before sending, `release` once the answer (or the failure) is logged,
    `wait` while another process holds the request."""

    def __init__(self, store: Store, poll_seconds: float, lease_seconds: float = LEASE_SECONDS,
                 clock: Callable[[], float] = time.time,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep):
        self.store = store
        self.poll_seconds = poll_seconds
        self.lease_seconds = lease_seconds
        self.clock, self.sleep = clock, sleep
        self.owner = uuid.uuid4().hex
        self.process = ProcessIdentity.this_process()
        self.held: set[str] = set()
        self._renewal: asyncio.Task | None = None
        self._announced: set[int] = set()  # pids of the processes already said to be waited for

    def take(self, request_hash: str) -> RequestClaim | None:
        """Claim a request: None when it is ours now, else the live claim of another process."""
        claim = RequestClaim(request_hash, self.owner, self.process.pid, self.process.machine, self.process.started,
                             self.clock() + self.lease_seconds)
        holder = self.store.claim_request(claim, self.stale)
        if holder is None:
            self.held.add(request_hash)
            if self._renewal is None or self._renewal.done():
                self._renewal = asyncio.get_running_loop().create_task(self._renew())
        return holder

    async def wait(self, holder: RequestClaim) -> None:
        """Wait until `holder` lets go of its request, or is found dead."""
        if holder.pid not in self._announced:
            self._announced.add(holder.pid)
            whose = "this process" if holder.pid == self.process.pid else f"another curate (pid {holder.pid})"
            log.warning("%s is already asking some of these requests; waiting for its answers instead of paying "
                        "for them twice", whose)
        while True:
            await self.sleep(self.poll_seconds)
            claim = self.store.request_claim(holder.request_hash)
            if claim is None or claim.owner == self.owner or self.stale(claim):
                return

    def release(self, request_hash: str) -> None:
        """Let go of a request once its answer or failure is in the call log."""
        self.held.discard(request_hash)
        try:
            self.store.release_request(request_hash, self.owner)
        except StoreWriteError as error:
            # The call's own write failed the same way and is what the user hears about; the claim lapses with
            # this process or its lease.
            log.debug("cannot release the claim on %s: %s", request_hash, error)

    def stale(self, claim: RequestClaim) -> bool:
        """Whether a claim is dead: its lease ran out, or its process (when this machine can tell) is gone."""
        if claim.expires_at < self.clock():
            return True
        if claim.machine != self.process.machine:
            return False  # its pid means nothing here: the lease decides
        return not running(ProcessIdentity(claim.machine, claim.pid, claim.started))

    async def close(self) -> None:
        """Stop renewing (every claim is released by then)."""
        if self._renewal is not None:
            self._renewal.cancel()
            await asyncio.gather(self._renewal, return_exceptions=True)
            self._renewal = None

    async def _renew(self) -> None:
        while self.held:
            await self.sleep(self.lease_seconds / 4)
            if self.held:
                try:
                    self.store.renew_claims(self.owner, self.clock() + self.lease_seconds)
                except StoreWriteError as error:  # the next call's write says so; the claims may lapse meanwhile
                    log.debug("cannot renew claims: %s", error)
