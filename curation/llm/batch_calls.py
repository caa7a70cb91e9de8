"""Batch mode in the LLM client: one call answered through the provider's batch API instead of a request.

`LLM` takes `_batch_call` from the mixin here; everything else (cache, budget, call log, what counts as a usable
answer) is the client's own, so a batch answer is logged and cached exactly like an online one.
"""

from __future__ import annotations

import json
import logging
import time
from typing import TYPE_CHECKING

from pydantic import BaseModel

from curation.config import Price, ProviderSettings
from curation.fingerprint import fingerprint
from curation.llm.answer import Answer
from curation.llm.batching import BatchUnanswered
from curation.llm.call_progress import Progress
from curation.llm.errors import BatchPending, LLMCallFailed
from curation.llm.parameters import CallParameters
from curation.llm.reply import Unusable, usable
from curation.records import LLMCall

if TYPE_CHECKING:
    from curation.llm.client import LLM
    from curation.llm.providers import Provider

log = logging.getLogger("curation.llm.client")


class BatchCalls:
    """The batch-mode call of `LLM` (a mixin: `self` is the LLM client)."""

    async def _batch_call(self: LLM, call: LLMCall, provider: Provider, settings: ProviderSettings, messages: list[dict],
                          schema: type[BaseModel] | None, price: Price | None, input_tokens: int,
                          params: CallParameters) -> Answer:
        """Like `_call`, with each request answered by a batch: a correction for an invalid answer goes in the next
        batch. A request its batch did not answer is left pending (BatchPending) or, with batch_fallback =
        "online", asked online at once."""
        progress = Progress(mode=self._mode(call.provider, settings, schema), started=time.monotonic(), params=params)
        conversation = list(messages)
        unusable = 0
        while True:
            avoid = frozenset(self._refused.get(f"{call.provider}:{call.model}", ()))  # learnt online this run
            body = provider.request_body(call.model, conversation, schema, progress.mode, params, avoid)
            # The first request's custom_id is its cache key, so a rerun finds it; a follow-up has its own.
            custom_id = call.request_hash if not unusable else fingerprint(
                {"request": call.request_hash, "conversation": conversation, "try": unusable})
            progress.attempts += 1
            try:
                result = await self._batcher.answer(call.provider, call.model, custom_id, call.request_hash, body)
                reply = provider.reply_from(json.loads(result), body)
                progress.usage = progress.usage + reply.usage
                parsed = usable(reply, schema)
                break
            except BatchUnanswered as error:
                if self.settings.llm.batch_fallback == "online":
                    log.warning("%s: %s; asking online instead (batch_fallback = online)", call.item, error.reason)
                    return await self._call(call, provider, settings, messages, schema, price, input_tokens, params)
                self._log(call, progress, price, error=error.reason, batch=True)
                self.failures += 1
                raise BatchPending(call.item, call.role, error.reason) from None
            except Unusable as error:  # as online: ask again (in the next batch), a bounded number of times
                unusable += 1
                if unusable > self.settings.llm.validation_retries:
                    self._log(call, progress, price, error=error.reason, batch=True)
                    self.failures += 1
                    tries = "try" if unusable == 1 else "tries"
                    raise LLMCallFailed(call.item, call.role, f"no usable answer after {unusable} {tries}: "
                                                              f"{error.reason}") from None
                if error.correction is not None:
                    conversation += [{"role": "assistant", "content": error.answer},
                                     {"role": "user", "content": error.correction}]

        return self._answered(call, progress, price, reply, parsed, batch=True)
