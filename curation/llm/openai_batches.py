"""OpenAI's Batch API through an AsyncOpenAI client (shapes and sources: batch_api.py)."""

from __future__ import annotations

import json

import openai

from curation.llm.batch_api import BatchStatus, Outcome, Results, batch_api_errors
from curation.llm.reply import passing_fault

OPENAI_ENDED = {"completed", "failed", "expired", "cancelled"}
SDK_ERRORS = (openai.APIConnectionError, openai.APIStatusError)


class OpenAIBatches:
    """Batches on /v1/chat/completions through an AsyncOpenAI client."""

    def __init__(self, client: openai.AsyncOpenAI):
        self.client = client

    async def submit(self, requests: list[tuple[str, dict]]) -> tuple[str, BatchStatus]:
        lines = "".join(json.dumps({"custom_id": custom_id, "method": "POST", "url": "/v1/chat/completions",
                                    "body": body}, ensure_ascii=False) + "\n" for custom_id, body in requests)
        with batch_api_errors(SDK_ERRORS, self.client.base_url):
            upload = await self.client.files.create(file=("requests.jsonl", lines.encode("utf-8"), "application/jsonl"),
                                                    purpose="batch")
            batch = await self.client.batches.create(input_file_id=upload.id, endpoint="/v1/chat/completions",
                                                     completion_window="24h")
        return batch.id, self._status(batch)

    async def status(self, remote_id: str) -> BatchStatus:
        with batch_api_errors(SDK_ERRORS, self.client.base_url):
            return self._status(await self.client.batches.retrieve(remote_id))

    async def cancel(self, remote_id: str) -> BatchStatus:
        with batch_api_errors(SDK_ERRORS, self.client.base_url):
            return self._status(await self.client.batches.cancel(remote_id))

    async def results(self, remote_id: str) -> Results:
        results: Results = {}
        with batch_api_errors(SDK_ERRORS, self.client.base_url):
            batch = await self.client.batches.retrieve(remote_id)
            for file_id in (batch.output_file_id, batch.error_file_id):
                if file_id:
                    content = await self.client.files.content(file_id)
                    for line in content.text.splitlines():
                        if line.strip():
                            custom_id, outcome = _openai_line(json.loads(line))
                            results[custom_id] = outcome
        return results

    @staticmethod
    def _status(batch: object) -> BatchStatus:
        counts = batch.request_counts.model_dump() if getattr(batch, "request_counts", None) else {}
        errors = getattr(batch, "errors", None)
        detail = "; ".join(e.message or e.code or "" for e in (errors.data or [])) if errors and errors.data else ""
        return BatchStatus(batch.status, {k: counts[k] for k in ("completed", "failed", "total") if k in counts},
                           batch.status in OPENAI_ENDED, detail)


def _openai_line(line: dict) -> tuple[str, Outcome]:
    """One line of an output or error file as (custom_id, outcome)."""
    custom_id = line.get("custom_id", "")
    error = line.get("error")
    if error:  # not processed: batch_expired, batch_cancelled, batch_failed
        code = error.get("code") or "error"
        return custom_id, Outcome(error=f"{code}: {error.get('message') or ''}".strip(), again=code == "batch_expired")
    response = line.get("response") or {}
    body = response.get("body") or {}
    status = response.get("status_code")
    if status == 200:
        return custom_id, Outcome(answer=json.dumps(body, ensure_ascii=False))
    message = (body.get("error") or {}).get("message") if isinstance(body, dict) else None
    return custom_id, Outcome(error=f"HTTP {status} ({message or 'no message'})",
                              again=isinstance(status, int) and passing_fault(status))
