"""The LLM client every stage asks through: cache, limits, retries, structured output, cost and the call log."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from pydantic import BaseModel, ValidationError

from curation.config import Price, ProviderSettings, Settings
from curation.excerpt import plural
from curation.fingerprint import fingerprint
from curation.llm.answer import Answer, Usage
from curation.llm.backoff_notice import BackoffNotices
from curation.llm.batch_api import BatchAPI
from curation.llm.batch_calls import NoUsableAnswer, batch_reply
from curation.llm.batching import Batcher, BatchUnanswered
from curation.llm.budget import Budget
from curation.llm.call_progress import Progress
from curation.llm.claims import RequestClaims
from curation.llm.errors import BatchPending, EndpointUnreachable, KeyRejected, LLMCallFailed
from curation.llm import pacing
from curation.llm.limits import ProviderLimits, backoff
from curation.llm.parameters import CallParameters, ParameterRefused
from curation.llm.providers import Mode, Provider, open_provider, structured_mode
from curation.llm.pricing import cost_usd, estimate_input_tokens
from curation.llm.reply import (Rejected, Reply, SchemaUnsupported, Transient, Unreachable, Unusable,
                                one_line, usable, without_code_fence)
from curation.llm.schemas import json_schema
from curation.llm.tally import add_answer, add_cost, logged_stage
from curation.records import LLMCall
from curation.redaction import hide_credentials
from curation.store import Store

# A refused connection or an unknown host is a server not running or a wrong address far more often than a
# passing fault: a few quick tries, then the provider is given up for the run instead of every call waiting out
# max_retry_seconds.
CONNECT_ATTEMPTS = 3
# What happens instead of a refused parameter, for its one line on stderr.
WITHOUT = {"max_tokens": "sending max_completion_tokens instead", "max_completion_tokens": "sending max_tokens instead",
           "tool_choice": "asking for its JSON-schema output instead of a forced tool call"}

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
        self._limits: dict[str, ProviderLimits] = {}
        self._json_mode: set[str] = set()  # providers that rejected json_schema this run
        self._refused: dict[str, set[str]] = {}  # provider:model -> parameters it refused this run (wire names)
        self._underway: dict[str, asyncio.Event] = {}  # request hash -> set when that call finishes
        self._unreachable: dict[str, EndpointUnreachable] = {}  # providers given up on this run
        self._notices = BackoffNotices()
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

        if name in self._unreachable:
            raise self._unreachable[name]  # another call found the server down: do not wait for it again
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
            self._limits[name] = ProviderLimits(settings)
        return self._providers[name]

    def batch_api(self, name: str) -> BatchAPI:
        """The batch API of a configured provider (its SDK client built on first use)."""
        return self._provider(name, self.settings.providers[name]).batches()

    def _mode(self, name: str, settings: ProviderSettings, schema: type[BaseModel] | None) -> Mode:
        return structured_mode(name, settings, schema, self._json_mode)

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
                reply = await self._send(call, provider, settings, conversation, schema, input_tokens, progress)
                parsed = usable(reply, schema)
                break
            except Unreachable as error:
                unreachable = self._unreachable.get(call.provider) or EndpointUnreachable(
                    call.provider, provider.endpoint, error.reason, progress.attempts,
                    configured=self.settings.base_url(call.provider, settings) is not None)
                self._unreachable[call.provider] = unreachable
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
        refused = self._refused.setdefault(f"{call.provider}:{call.model}", set())  # learnt online this run
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

    async def _send(self, call: LLMCall, provider: Provider, settings: ProviderSettings, conversation: list[dict],
                    schema: type[BaseModel] | None, input_tokens: int, progress: Progress) -> Reply:
        """One reply through the provider's limits. Transient failures wait and retry until max_retry_seconds;
        a failure to connect is tried CONNECT_ATTEMPTS times; a json_schema request the server rejects falls back
        to JSON mode under `auto`. A body cut off or not the API's envelope (BrokenBody) is one of the transient
        failures. Raises Rejected or Unreachable."""
        limits = self._limits[call.provider]
        # Most answers use a small part of max_output_tokens; reserving all of it would starve the token limit.
        # The reservation is corrected with the real usage once the answer is in.
        expected_tokens = input_tokens + progress.params.max_output_tokens // 8
        refused = self._refused.setdefault(f"{call.provider}:{call.model}", set())
        failures = 0
        connect_failures = 0
        while True:
            progress.attempts += 1
            reservation = None
            try:
                async with limits.slot(expected_tokens) as reservation:
                    if progress.sent is None:
                        progress.sent = reservation.sent_at
                    try:
                        reply = await provider.send(call.model, conversation, schema, progress.mode,
                                                    progress.params, avoid := frozenset(refused))
                    except (Transient, Unusable, Unreachable, Rejected, ParameterRefused) as error:
                        # a server's words may repeat the address asked, credentials and all (a 404 naming its path)
                        error.reason = hide_credentials(error.reason, self.settings.base_url(call.provider, settings))
                        if isinstance(error, Unreachable):
                            reservation.settle(0)  # nothing reached the server: its tokens are free for the next try
                        raise
                    reservation.settle(reply.usage.tokens_in + reply.usage.tokens_out)
            except ParameterRefused as error:
                if error.parameter in avoid:
                    raise Rejected(error.reason, 400) from None  # refused even without it: nothing left to try
                if error.parameter not in refused:  # calls under way at the same time share the one line
                    refused.add(error.parameter)
                    log.warning("%s:%s does not take %s (%s); %s for the rest of the run", call.provider, call.model,
                                error.parameter, one_line(error.reason, 160),
                                WITHOUT.get(error.parameter, "leaving it out"))
                continue  # the cache key stays that of the configured request
            except SchemaUnsupported:
                if settings.structured_output != "auto" or progress.mode != "json_schema" or settings.kind != "openai":
                    raise
                progress.mode = "json_mode"  # llama.cpp-like server: validated JSON mode instead
                continue
            except Unreachable as error:
                connect_failures += 1
                if connect_failures >= CONNECT_ATTEMPTS or call.provider in self._unreachable:
                    raise
                wait = backoff(connect_failures, settings)
                log.info("%s: cannot reach %s (%s); attempt %d of %d, trying again in %.1fs", call.provider,
                         provider.endpoint, error.reason, connect_failures, CONNECT_ATTEMPTS, wait)
                progress.skipped += await pacing.back_off(wait)
                continue
            except Transient as error:
                if error.retry_after is None:  # a 429 that said how long to wait was honoured: no cause to wait longer
                    failures += 1
                wait = error.retry_after if error.retry_after is not None else backoff(failures, settings)
                if error.retry_after is not None:  # this request waits as told; others only if the news is fresh
                    limits.pause(wait, sent_at=reservation.sent_at if reservation is not None else None)
                if progress.since_sent(pacing.now()) + wait > settings.max_retry_seconds:
                    raise Rejected(f"{error.reason}; gave up after {plural(progress.attempts, 'attempt')} in "
                                   f"{progress.since_sent(pacing.now()):.1f}s "
                                   f"(max_retry_seconds = {settings.max_retry_seconds:g})") from None
                self._notices.announce(call.provider, error.reason, wait)
                progress.skipped += await pacing.back_off(wait)
                continue
            progress.usage = progress.usage + reply.usage
            if progress.mode == "json_mode" and settings.structured_output == "auto":
                self._json_mode.add(call.provider)  # the fallback worked: keep it for the rest of the run
            return reply

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
