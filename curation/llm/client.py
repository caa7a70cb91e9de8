"""The LLM client every stage asks through: cache, limits, retries, structured output, cost and the call log."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from pydantic import BaseModel, ValidationError

from curation.config import Price, ProviderSettings, Settings
from curation.fingerprint import fingerprint
from curation.llm.answer import Answer, Usage
from curation.llm.batch_api import BatchAPI
from curation.llm.batch_calls import NoUsableAnswer, batch_reply
from curation.llm.batching import Batcher, BatchUnanswered
from curation.llm.budget import Budget
from curation.llm.call_progress import Progress
from curation.llm.claims import RequestClaims
from curation.llm.errors import BatchPending, EndpointUnreachable, KeyRejected, LLMCallFailed
from curation.llm import pacing
from curation.llm.limits import ProviderLimits
from curation.llm.parameters import CallParameters
from curation.llm.providers import Mode, Provider, open_provider, structured_mode
from curation.llm.pricing import cost_usd, estimate_input_tokens
from curation.llm.reply import Rejected, Reply, Unreachable, Unusable, usable, without_code_fence
from curation.llm.schemas import json_schema
from curation.llm.sending import Wire
from curation.llm.tally import add_answer, add_cost, logged_stage
from curation.records import LLMCall
from curation.store import Store

log = logging.getLogger(__name__)

class LLM:
    """`async with LLM(settings, store, max_cost, stage) as llm: answer = await llm.ask(...)`.

    One instance per run: it holds the SDK clients, the per-provider limits, and the run's spend.
    """

    def __init__(self, settings: Settings, store: Store, max_cost: float | None = None, stage: str = ""):
        self.settings = settings
        self.store = store
        self.budget = Budget(max_cost)
        self.stage = stage
        self.saved_usd = 0.0  # what this run's cache hits would have cost
        self.calls = 0  # answers returned, cached or not
        self.cache_hits = 0
        self.failures = 0
        self.tokens = 0  # tokens in + out of the answers that went out this run (for the live progress)
        self._providers: dict[str, Provider] = {}
        self._wire = Wire(settings)  # limits, refused parameters, JSON mode, providers given up on: curation/llm/sending.py
        self._underway: dict[str, asyncio.Event] = {}  # request hash -> set when that call finishes
        # Batch mode (`--batch`, [llm] mode = "batch"): uncached requests go to the provider's batch API.
        self.batch_mode = settings.llm.mode == "batch"
        self.batcher = Batcher(store, settings.llm.batch_poll_seconds, self.batch_api,
                                settings.llm.batch_resubmissions)
        self._claims = RequestClaims(store, settings.llm.claim_poll_seconds)  # across processes (_underway: this one)

    @property
    def spent_usd(self) -> float:
        """Paid this run (cache hits cost nothing)."""
        return self.budget.spent_usd

    async def __aenter__(self) -> "LLM":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the SDK clients."""
        providers, self._providers = list(self._providers.values()), {}
        for provider in providers:
            await provider.close()
        await self._claims.close()

    # -- the one call stages make ------------------------------------------------------------------

    async def ask(self, role: str, messages: list[dict], schema: type[BaseModel] | None = None, item: str = "",
                  prompt_hash: str = "") -> Answer:
        """Ask the model configured for `role`. Raises LLMCallFailed (this item failed), BudgetExceeded (nothing
        was sent; stop starting work) or an LLMConfigError: MissingKey, MissingPrice, KeyRejected,
        EndpointUnreachable (setup; stop the run)."""
        call, params, schema_json = self.request(role, messages, schema, item, prompt_hash)
        name, model = call.provider, call.model
        provider_settings = self.settings.providers[name]
        request_hash = call.request_hash

        # The same request already on its way (two items asking the very same thing): wait for it, then take
        # its answer from the cache rather than paying twice.
        while (underway := self._underway.get(request_hash)) is not None:
            await underway.wait()
        hit = self._from_cache(call, schema)
        if hit is not None:
            return hit

        if name in self._wire.unreachable:
            raise self._wire.unreachable[name]  # another call found the server down: do not wait for it again
        self._underway[request_hash] = finished = asyncio.Event()
        claimed, worst_case = False, 0.0
        try:
            # Another process sending this very request: wait for it to let go, then take its answer from the cache
            # (looked up once the claim is ours: it may have landed since the look above). A claim whose process
            # died is taken over; a failed call leaves no answer, so this one asks itself.
            while (holder := self._claims.take(request_hash)) is not None:
                await self._claims.wait(holder)
            claimed = True
            if (hit := self._from_cache(call, schema)) is not None:
                return hit
            price = self.settings.prices.get(f"{name}:{model}")
            input_tokens = estimate_input_tokens(messages, schema_json)
            worst_case = await self.budget.reserve(name, model, price, input_tokens, params.max_output_tokens)
            provider = self._provider(name, provider_settings)
            if self.batch_mode:
                return await self._batch_call(call, provider, provider_settings, messages, schema, price, input_tokens,
                                              params)
            return await self._call(call, provider, provider_settings, messages, schema, price, input_tokens, params)
        finally:
            if claimed:
                self._claims.release(request_hash)  # after the answer or failure is logged: a waiter reads it next
            del self._underway[request_hash]
            finished.set()
            self.budget.release(worst_case)

    def request(self, role: str, messages: list[dict], schema: type[BaseModel] | None, item: str = "",
                prompt_hash: str = "") -> tuple[LLMCall, CallParameters, dict | None]:
        """The call row a request would be logged under (its request hash is the cache key), its parameters and
        its JSON schema; nothing is looked up or sent."""
        name, _, model = self.settings.provider_for(role)
        role_params = self.settings.role_parameters(role)
        params = CallParameters(max_output_tokens=role_params.max_output_tokens or self.settings.llm.max_output_tokens,
                                temperature=role_params.temperature, reasoning_effort=role_params.reasoning_effort)
        schema_json = json_schema(schema) if schema is not None else None
        request_hash = fingerprint({"provider": name, "model": model, "messages": messages, "params": params.for_hash(),
                                    "schema": schema_json, "prompt": prompt_hash})
        call = LLMCall(stage=logged_stage(self.stage), role=role, item=item, provider=name, model=model, request_hash=request_hash)
        return call, params, schema_json

    # -- cache ------------------------------------------------------------------------------------

    def cached_answer(self, call: LLMCall, schema: type[BaseModel] | None) -> Answer | None:
        """The stored answer to this request, read only (nothing logged or counted); None when there is none."""
        stored = self.store.cached_llm_call(call.request_hash)
        if stored is None or stored.response is None:
            return None
        try:
            parsed = schema.model_validate_json(without_code_fence(stored.response)) if schema is not None else None
        except ValidationError:
            return None  # the schema's validators grew stricter since; ask again
        usage = Usage(stored.tokens_in, stored.tokens_out, stored.tokens_cached, stored.tokens_cache_write)
        return Answer(text=stored.response, parsed=parsed, usage=usage, cost_usd=0.0, cached=True,
                      request_hash=call.request_hash, attempts=0, saved_usd=stored.cost_usd)

    def _from_cache(self, call: LLMCall, schema: type[BaseModel] | None) -> Answer | None:
        answer = self.cached_answer(call, schema)
        if answer is None:
            return None
        self.store.log_llm_call(call.model_copy(update={
            "saved_usd": answer.saved_usd, "cached": True}))  # no tokens: nothing was billed
        self.calls += 1
        self.cache_hits += 1
        add_answer(cached=True)
        self.saved_usd += answer.saved_usd
        return answer

    # -- providers --------------------------------------------------------------------------------

    def _provider(self, name: str, settings: ProviderSettings) -> Provider:
        """The SDK client for a provider, built on first use, so a fully cached run needs no key."""
        if name not in self._providers:
            self._providers[name] = open_provider(name, settings, self.settings)
            self._wire.limits[name] = ProviderLimits(settings)
        return self._providers[name]

    def batch_api(self, name: str) -> BatchAPI:
        """The batch API of a configured provider (its SDK client built on first use)."""
        return self._provider(name, self.settings.providers[name]).batches()

    def _mode(self, name: str, settings: ProviderSettings, schema: type[BaseModel] | None) -> Mode:
        return structured_mode(name, settings, schema, self._wire.json_mode)

    # -- one call: retries, fallback, validation, logging -----------------------------------------

    async def _call(self, call: LLMCall, provider: Provider, settings: ProviderSettings, messages: list[dict],
                    schema: type[BaseModel] | None, price: Price | None, input_tokens: int,
                    params: CallParameters) -> Answer:
        """Ask until an answer validates (bounded), log the call, and return the answer or raise its failure."""
        progress = Progress(mode=self._mode(call.provider, settings, schema), started=time.monotonic(), params=params)
        conversation = list(messages)
        unusable = 0

        def fail(reason: str) -> LLMCallFailed:
            self._log(call, progress, price, error=reason)
            self.failures += 1
            return LLMCallFailed(call.item, call.role, reason)

        while True:
            try:
                reply = await self._wire.send(call, provider, settings, conversation, schema, input_tokens, progress)
                parsed = usable(reply, schema)
                break
            except Unreachable as error:
                unreachable = self._wire.unreachable.get(call.provider) or EndpointUnreachable(
                    call.provider, provider.endpoint, error.reason, progress.attempts,
                    configured=self.settings.base_url(call.provider, settings) is not None)
                self._wire.unreachable[call.provider] = unreachable
                tries = "attempt" if progress.attempts == 1 else "attempts"
                fail(f"cannot reach {provider.endpoint} ({error.reason}; {progress.attempts} {tries})")
                raise unreachable from None
            except Rejected as error:
                failed = fail(error.reason)  # the call row is written either way
                if error.status in (401, 403):
                    raise KeyRejected(settings.key_variable, call.provider, error.reason) from None
                raise failed from None
            except Unusable as error:
                # Empty answers, refusals, schema mismatches: ask again, as often as validation_retries allows and
                # within max_retry_seconds, then this item fails alone. (A body that did not arrive whole is no
                # answer: _send retries it as a transport fault and it never counts here.)
                unusable += 1
                elapsed = progress.since_sent(pacing.now())
                if unusable > self.settings.llm.validation_retries or elapsed > settings.max_retry_seconds:
                    tries = "try" if unusable == 1 else "tries"
                    raise fail(f"no usable answer after {unusable} {tries}: {error.reason}") from None
                if error.correction is not None:
                    conversation += [{"role": "assistant", "content": error.answer},
                                     {"role": "user", "content": error.correction}]

        return self._answered(call, progress, price, reply, parsed)

    async def _batch_call(self, call: LLMCall, provider: Provider, settings: ProviderSettings, messages: list[dict],
                          schema: type[BaseModel] | None, price: Price | None, input_tokens: int,
                          params: CallParameters) -> Answer:
        """Like `_call`, with each request answered by a batch (curation/llm/batch_calls.py). A request its batch did
        not answer is left pending (BatchPending) or, with batch_fallback = "online", asked online at once."""
        progress = Progress(mode=self._mode(call.provider, settings, schema), started=time.monotonic(), params=params)
        refused = self._wire.refused_by(call)  # learnt online this run
        try:
            reply, parsed = await batch_reply(self.batcher, provider, call, messages, schema, progress, refused,
                                              self.settings.llm.validation_retries)
        except BatchUnanswered as error:
            if self.settings.llm.batch_fallback == "online":
                log.warning("%s: %s; asking online instead (batch_fallback = online)", call.item, error.reason)
                return await self._call(call, provider, settings, messages, schema, price, input_tokens, params)
            self._log(call, progress, price, error=error.reason, batch=True)
            self.failures += 1
            raise BatchPending(call.item, call.role, error.reason) from None
        except NoUsableAnswer as error:
            self._log(call, progress, price, error=error.reason, batch=True)
            self.failures += 1
            raise LLMCallFailed(call.item, call.role, error.reason) from None
        return self._answered(call, progress, price, reply, parsed, batch=True)

    def _answered(self, call: LLMCall, progress: Progress, price: Price | None, reply: Reply, parsed: Any,
                  batch: bool = False) -> Answer:
        """A fresh answer, online or from a batch: logged, counted (calls, tokens, the run's tally) and returned."""
        cost = self._log(call, progress, price, response=reply.text, batch=batch)
        self.calls += 1
        add_answer(cached=False)
        self.tokens += progress.usage.tokens_in + progress.usage.tokens_out
        return Answer(text=reply.text, parsed=parsed, usage=progress.usage, cost_usd=cost, cached=False,
                      request_hash=call.request_hash, attempts=progress.attempts)

    def _log(self, call: LLMCall, progress: Progress, price: Price | None, response: str | None = None,
             error: str | None = None, batch: bool = False) -> float:
        """Write the call row now (a killed run keeps it) and count its cost (at the batch price for a batch answer)
        against the budget."""
        usage = progress.usage
        cost = cost_usd(price, usage, batch=batch)
        self.budget.spent_usd += cost
        add_cost(cost)
        self.store.log_llm_call(call.model_copy(update={
            "response": response, "error": error, "tokens_in": usage.tokens_in, "tokens_out": usage.tokens_out,
            "tokens_cached": usage.tokens_cached, "tokens_cache_write": usage.tokens_cache_write, "cost_usd": cost, "attempts": progress.attempts,
            "latency_ms": round((time.monotonic() - progress.started) * 1000)}))
        return cost
