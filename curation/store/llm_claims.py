"""Claims on LLM requests (migration 12): which process is sending a request right now, so that another process
wanting the same answer waits for it instead of paying for it a second time.

A claim names its holder's process; a claim whose process is gone (killed, crashed) or whose lease was not renewed
in time is taken over, so that no request stays blocked by a process that will never answer it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from curation.store.base import StoreMixin, now


@dataclass(frozen=True)
class RequestClaim:
    """A process's claim on one request hash while it sends that request."""

    request_hash: str
    owner: str  # the LLM client holding it: one random token per client, so two clients in a process are told apart
    pid: int
    machine: str  # where `pid` can be looked up (boot id and pid namespace; the host name elsewhere)
    started: str  # the process's start time as its kernel counts it ("" when unknown): a reused pid is not the holder
    expires_at: float  # unix time; the holder renews it while its call is under way
    claimed_at: str = ""


class LLMClaimsMixin(StoreMixin):
    """The claims table. Every method is one transaction."""

    def claim_request(self, claim: RequestClaim, stale: Callable[[RequestClaim], bool]) -> RequestClaim | None:
        """Take the claim on `claim.request_hash` unless a live one is there: None when it is now ours, else the
        claim in the way. A claim that `stale` says is dead (its process gone, its lease run out) is taken over."""
        with self.transaction() as db:
            row = db.execute("SELECT * FROM llm_claims WHERE request_hash = ?", (claim.request_hash,)).fetchone()
            if row is not None:
                held = _claim(row)
                if held.owner != claim.owner and not stale(held):
                    return held
            db.execute("INSERT OR REPLACE INTO llm_claims (request_hash, owner, pid, machine, started, expires_at, "
                       "claimed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (claim.request_hash, claim.owner, claim.pid, claim.machine, claim.started, claim.expires_at,
                        now()))
        return None

    def request_claim(self, request_hash: str) -> RequestClaim | None:
        """The claim on a request, or None when nobody is sending it."""
        row = self.db.execute("SELECT * FROM llm_claims WHERE request_hash = ?", (request_hash,)).fetchone()
        return _claim(row) if row is not None else None

    def request_claims(self) -> list[RequestClaim]:
        """Every claim held, oldest first."""
        return [_claim(row) for row in self.db.execute("SELECT * FROM llm_claims ORDER BY claimed_at, request_hash")]

    def release_request(self, request_hash: str, owner: str) -> None:
        """Let go of a claim (only the owner's own: one taken over since belongs to its new holder)."""
        with self.transaction() as db:
            db.execute("DELETE FROM llm_claims WHERE request_hash = ? AND owner = ?", (request_hash, owner))

    def renew_claims(self, owner: str, expires_at: float) -> None:
        """Push back the lease of every claim `owner` holds."""
        with self.transaction() as db:
            db.execute("UPDATE llm_claims SET expires_at = ? WHERE owner = ?", (expires_at, owner))


def _claim(row) -> RequestClaim:
    return RequestClaim(**{key: row[key] for key in row.keys()})
