"""Anthropic's Message Batches through an AsyncAnthropic client (shapes and sources: batch_api.py)."""

from __future__ import annotations

import anthropic

from curation.llm.batch_api import BatchStatus, Outcome, Results, batch_api_errors

SDK_ERRORS = (anthropic.APIConnectionError, anthropic.APIStatusError)
# The error types of an errored request that say the server had a passing fault (429, 500, 504, 529), worth the next
# batch; the others (invalid_request_error, request_too_large, ...) would be refused again.
PASSING_FAULTS = {"rate_limit_error", "api_error", "timeout_error", "overloaded_error"}


class AnthropicBatches:
    """Message Batches through an AsyncAnthropic client."""

    def __init__(self, client: anthropic.AsyncAnthropic):
        self.client = client

    async def submit(self, requests: list[tuple[str, dict]]) -> tuple[str, BatchStatus]:
        with batch_api_errors(SDK_ERRORS, self.client.base_url):
            batch = await self.client.messages.batches.create(
                requests=[{"custom_id": custom_id, "params": body} for custom_id, body in requests])
        return batch.id, self._status(batch)

    async def status(self, remote_id: str) -> BatchStatus:
        with batch_api_errors(SDK_ERRORS, self.client.base_url):
            return self._status(await self.client.messages.batches.retrieve(remote_id))

    async def cancel(self, remote_id: str) -> BatchStatus:
        with batch_api_errors(SDK_ERRORS, self.client.base_url):
            return self._status(await self.client.messages.batches.cancel(remote_id))

    async def results(self, remote_id: str) -> Results:
        results: Results = {}
        with batch_api_errors(SDK_ERRORS, self.client.base_url):
            async for entry in await self.client.messages.batches.results(remote_id):
                result = entry.result
                if result.type == "succeeded":
                    results[entry.custom_id] = Outcome(answer=result.message.model_dump_json())
                elif result.type == "errored":
                    inner = getattr(result.error, "error", None)
                    kind = getattr(inner, "type", "error")
                    results[entry.custom_id] = Outcome(error=f"{kind}: {getattr(inner, 'message', '')}",
                                                       again=kind in PASSING_FAULTS)
                else:  # canceled, expired: never processed
                    results[entry.custom_id] = Outcome(error=f"request {result.type}", again=result.type == "expired")
        return results

    @staticmethod
    def _status(batch: object) -> BatchStatus:
        counts = batch.request_counts.model_dump()
        return BatchStatus(batch.processing_status, {k: v for k, v in counts.items() if v or k == "processing"},
                           batch.processing_status == "ended")
