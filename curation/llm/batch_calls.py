"""Batch mode of the LLM client: one request answered through the provider's batch API instead of online.

This is the batch side alone: the request's body and custom_id, waiting for its batch, and asking again (in the next
batch) when the answer does not validate. Everything around it - cache, budget, call log, the online fallback - is
the client's (`LLM._batch_call`), so a batch answer is logged and cached exactly like an online one.
"""

from __future__ import annotations

import json
from collections.abc import Set

from pydantic import BaseModel

from curation.fingerprint import fingerprint
from curation.llm.batching import Batcher
from curation.llm.call_progress import Progress
from curation.llm.providers import Provider
from curation.llm.reply import BrokenBody, Reply, Unusable, usable
from curation.records import LLMCall


class NoUsableAnswer(Exception):
    """No batch answer to a request validated within validation_retries; `reason` is the item's failure."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


async def batch_reply(batcher: Batcher, provider: Provider, call: LLMCall, messages: list[dict],
                      schema: type[BaseModel] | None, progress: Progress, refused: Set[str],
                      validation_retries: int) -> tuple[Reply, BaseModel | None]:
    """The reply to `call` and its parsed answer, each request answered by a batch; an invalid answer's correction
    goes in the next batch, at most `validation_retries` times. `progress` counts the attempts and usage; `refused`
    holds the parameters the model refused online this run (read again before each request). Raises
    BatchUnanswered when a batch ended without answering, NoUsableAnswer when no answer validated."""
    conversation = list(messages)
    unusable = 0
    while True:
        body = provider.request_body(call.model, conversation, schema, progress.mode, progress.params,
                                     frozenset(refused))
        # The first request's custom_id is its cache key, so a rerun finds it; a follow-up has its own.
        custom_id = call.request_hash if not unusable else fingerprint(
            {"request": call.request_hash, "conversation": conversation, "try": unusable})
        progress.attempts += 1
        try:
            result = await batcher.answer(call.provider, call.model, custom_id, call.request_hash, body)
            reply = provider.reply_from(json.loads(result), body)
            progress.usage = progress.usage + reply.usage
            return reply, usable(reply, schema)
        except BrokenBody as error:
            # No answer came back (a body without the API's fields): a transport fault, not a validation retry. The
            # request goes into another batch; read back as stored, it would be broken on every rerun.
            batcher.broken(custom_id, error.reason)
        except Unusable as error:  # as online: ask again (in the next batch), a bounded number of times
            unusable += 1
            if unusable > validation_retries:
                tries = "try" if unusable == 1 else "tries"
                raise NoUsableAnswer(f"no usable answer after {unusable} {tries}: {error.reason}") from None
            if error.correction is not None:
                conversation += [{"role": "assistant", "content": error.answer},
                                 {"role": "user", "content": error.correction}]
