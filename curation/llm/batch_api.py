"""The providers' batch APIs through their official SDKs: submit a batch, look at it, read its results, cancel it.
This module holds what both share; each SDK's adapter is in its own module (openai_batches.py,
anthropic_batches.py), so a run imports only the SDKs its roles use.

Shapes as read on 2026-11-23 from the SDKs this project installs (openai 3.x `client.files` / `client.batches`,
anthropic 2.x `client.messages.batches`) and the providers' pages:
- OpenAI Batch API: a JSONL file (one `{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body"}` per
  line) uploaded with purpose "batch", then a batch on that file with completion_window "24h". Status: validating,
  in_progress, finalizing, completed, failed, expired, cancelling, cancelled; request_counts total/completed/failed.
  Results: output_file_id and error_file_id, JSONL lines `{"custom_id", "response": {"status_code", "body"},
  "error"}`; an expired batch still has the results of what finished
  (https://developers.openai.com/api/reference/resources/batches, linked from the SDK's docstrings).
- Anthropic Message Batches: `requests=[{"custom_id", "params"}]`; processing_status in_progress, canceling,
  ended; request_counts processing/succeeded/errored/canceled/expired; results stream as JSONL lines
  `{"custom_id", "result": {"type": succeeded|errored|canceled|expired, "message"|"error"}}`
  (https://platform.claude.com/docs/en/build-with-claude/batch-processing).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from curation.redaction import hide_credentials

# custom_id as both providers accept it: Anthropic allows 1-64 of [A-Za-z0-9_-]; a sha256 hex digest fits.
CUSTOM_ID_LENGTH = 64


@dataclass(frozen=True)
class BatchStatus:
    """A batch as the provider reports it: its state word, its request counts, and whether it has ended."""

    state: str
    counts: dict[str, int] = field(default_factory=dict)
    ended: bool = False
    detail: str = ""  # why a batch failed as a whole, when the provider says

    def line(self) -> str:
        """The counts in words, e.g. "in_progress: 3 completed, 0 failed of 10"."""
        counts = ", ".join(f"{number} {name}" for name, number in self.counts.items() if name != "total")
        total = f" of {self.counts['total']}" if "total" in self.counts else ""
        return f"{self.state}" + (f": {counts}{total}" if counts else "")


class BatchAPIError(Exception):
    """The batch endpoint itself failed (connection, HTTP error); `status` is the HTTP status when there was one."""

    def __init__(self, reason: str, status: int | None = None):
        super().__init__(reason)
        self.reason, self.status = reason, status


@dataclass(frozen=True)
class Outcome:
    """How one request of an ended batch ended: its answer body (JSON text), or why there is none and whether the
    next batch may answer it (`again`: never processed because the batch expired, or a passing fault such as a 429,
    a 5xx or an overload; not a request the provider refused, nor one the curator cancelled)."""

    answer: str | None = None
    error: str | None = None
    again: bool = False


# Per custom_id, as the provider's results list it (a request without a line has no entry).
Results = dict[str, Outcome]


class BatchAPI(Protocol):
    async def submit(self, requests: list[tuple[str, dict]]) -> tuple[str, BatchStatus]: ...
    async def status(self, remote_id: str) -> BatchStatus: ...
    async def results(self, remote_id: str) -> Results: ...
    async def cancel(self, remote_id: str) -> BatchStatus: ...


@contextmanager
def batch_api_errors(sdk_errors: tuple[type[Exception], ...], base_url: object = None) -> Iterator[None]:
    """Raise an SDK's connection or HTTP-status error (`sdk_errors`, the adapter's SDK's classes) inside the block as
    one BatchAPIError, the SDK's own traceback dropped: the batch runner says what failed in one line (without the
    credentials of `base_url`, which a server's message may repeat)."""
    try:
        yield
    except sdk_errors as error:  # both SDKs' errors carry status_code (HTTP errors only) and message
        status = getattr(error, "status_code", None)
        message = hide_credentials(getattr(error, "message", None) or str(error), str(base_url or ""))
        raise BatchAPIError(f"HTTP {status} ({message})" if status else f"connection failed ({message})",
                            status) from None
