"""The providers' batch APIs through their official SDKs: submit a batch, look at it, read its results, cancel it.

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

import json
from dataclasses import dataclass, field
from typing import Protocol

import anthropic
import openai

OPENAI_ENDED = {"completed", "failed", "expired", "cancelled"}
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


# Per custom_id: (the answer body as JSON text, None) or (None, why there is no answer).
Results = dict[str, tuple[str | None, str | None]]


class BatchAPI(Protocol):
    async def submit(self, requests: list[tuple[str, dict]]) -> tuple[str, BatchStatus]: ...
    async def status(self, remote_id: str) -> BatchStatus: ...
    async def results(self, remote_id: str) -> Results: ...
    async def cancel(self, remote_id: str) -> BatchStatus: ...


def _api_error(error: Exception) -> BatchAPIError:
    status = getattr(error, "status_code", None)
    message = getattr(error, "message", None) or str(error)
    return BatchAPIError(f"HTTP {status} ({message})" if status else f"connection failed ({message})", status)


class OpenAIBatches:
    """Batches on /v1/chat/completions through an AsyncOpenAI client."""

    def __init__(self, client: openai.AsyncOpenAI):
        self.client = client

    async def submit(self, requests: list[tuple[str, dict]]) -> tuple[str, BatchStatus]:
        lines = "".join(json.dumps({"custom_id": custom_id, "method": "POST", "url": "/v1/chat/completions",
                                    "body": body}, ensure_ascii=False) + "\n" for custom_id, body in requests)
        try:
            upload = await self.client.files.create(file=("requests.jsonl", lines.encode("utf-8"), "application/jsonl"),
                                                    purpose="batch")
            batch = await self.client.batches.create(input_file_id=upload.id, endpoint="/v1/chat/completions",
                                                     completion_window="24h")
        except (openai.APIConnectionError, openai.APIStatusError) as error:
            raise _api_error(error) from None
        return batch.id, self._status(batch)

    async def status(self, remote_id: str) -> BatchStatus:
        try:
            return self._status(await self.client.batches.retrieve(remote_id))
        except (openai.APIConnectionError, openai.APIStatusError) as error:
            raise _api_error(error) from None

    async def cancel(self, remote_id: str) -> BatchStatus:
        try:
            return self._status(await self.client.batches.cancel(remote_id))
        except (openai.APIConnectionError, openai.APIStatusError) as error:
            raise _api_error(error) from None

    async def results(self, remote_id: str) -> Results:
        results: Results = {}
        try:
            batch = await self.client.batches.retrieve(remote_id)
            for file_id in (batch.output_file_id, batch.error_file_id):
                if file_id:
                    content = await self.client.files.content(file_id)
                    for line in content.text.splitlines():
                        if line.strip():
                            custom_id, outcome = _openai_line(json.loads(line))
                            results[custom_id] = outcome
        except (openai.APIConnectionError, openai.APIStatusError) as error:
            raise _api_error(error) from None
        return results

    @staticmethod
    def _status(batch: object) -> BatchStatus:
        counts = batch.request_counts.model_dump() if getattr(batch, "request_counts", None) else {}
        errors = getattr(batch, "errors", None)
        detail = "; ".join(e.message or e.code or "" for e in (errors.data or [])) if errors and errors.data else ""
        return BatchStatus(batch.status, {k: counts[k] for k in ("completed", "failed", "total") if k in counts},
                           batch.status in OPENAI_ENDED, detail)


def _openai_line(line: dict) -> tuple[str, tuple[str | None, str | None]]:
    """One line of an output or error file as (custom_id, (answer, error))."""
    custom_id = line.get("custom_id", "")
    error = line.get("error")
    if error:
        return custom_id, (None, f"{error.get('code') or 'error'}: {error.get('message') or ''}".strip())
    response = line.get("response") or {}
    body = response.get("body") or {}
    if response.get("status_code") == 200:
        return custom_id, (json.dumps(body, ensure_ascii=False), None)
    message = (body.get("error") or {}).get("message") if isinstance(body, dict) else None
    return custom_id, (None, f"HTTP {response.get('status_code')} ({message or 'no message'})")


class AnthropicBatches:
    """Message Batches through an AsyncAnthropic client."""

    def __init__(self, client: anthropic.AsyncAnthropic):
        self.client = client

    async def submit(self, requests: list[tuple[str, dict]]) -> tuple[str, BatchStatus]:
        try:
            batch = await self.client.messages.batches.create(
                requests=[{"custom_id": custom_id, "params": body} for custom_id, body in requests])
        except (anthropic.APIConnectionError, anthropic.APIStatusError) as error:
            raise _api_error(error) from None
        return batch.id, self._status(batch)

    async def status(self, remote_id: str) -> BatchStatus:
        try:
            return self._status(await self.client.messages.batches.retrieve(remote_id))
        except (anthropic.APIConnectionError, anthropic.APIStatusError) as error:
            raise _api_error(error) from None

    async def cancel(self, remote_id: str) -> BatchStatus:
        try:
            return self._status(await self.client.messages.batches.cancel(remote_id))
        except (anthropic.APIConnectionError, anthropic.APIStatusError) as error:
            raise _api_error(error) from None

    async def results(self, remote_id: str) -> Results:
        results: Results = {}
        try:
            async for entry in await self.client.messages.batches.results(remote_id):
                result = entry.result
                if result.type == "succeeded":
                    results[entry.custom_id] = (result.message.model_dump_json(), None)
                elif result.type == "errored":
                    inner = getattr(result.error, "error", None)
                    results[entry.custom_id] = (None, f"{getattr(inner, 'type', 'error')}: "
                                                      f"{getattr(inner, 'message', '')}")
                else:  # canceled, expired: never processed
                    results[entry.custom_id] = (None, f"request {result.type}")
        except (anthropic.APIConnectionError, anthropic.APIStatusError) as error:
            raise _api_error(error) from None
        return results

    @staticmethod
    def _status(batch: object) -> BatchStatus:
        counts = batch.request_counts.model_dump()
        return BatchStatus(batch.processing_status, {k: v for k, v in counts.items() if v or k == "processing"},
                           batch.processing_status == "ended")
