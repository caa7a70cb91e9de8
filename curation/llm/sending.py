"""One reply through a provider's limits: the transport retries of a call (curation/llm/client.py asks through it).

Transient failures wait and retry until max_retry_seconds; a failure to connect is tried CONNECT_ATTEMPTS times; a
parameter the model refuses is left out for the rest of the run; a json_schema request the server rejects falls back to
JSON mode under `auto`. What the run learns on the way (refused parameters, JSON mode, providers given up on) lives in
one `Wire` per run, shared by every call.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from pydantic import BaseModel

from curation.config import ProviderSettings, Settings
from curation.excerpt import plural
from curation.llm import pacing
from curation.llm.backoff_notice import BackoffNotices
from curation.llm.call_progress import Progress
from curation.llm.errors import EndpointUnreachable
from curation.llm.limits import ProviderLimits, backoff
from curation.llm.parameters import ParameterRefused
from curation.llm.providers import Provider
from curation.llm.reply import Rejected, Reply, SchemaUnsupported, Transient, Unreachable, Unusable, one_line
from curation.records import LLMCall
from curation.redaction import hide_credentials

# A refused connection or an unknown host is a server not running or a wrong address far more often than a
# passing fault: a few quick tries, then the provider is given up for the run instead of every call waiting out
# max_retry_seconds.
CONNECT_ATTEMPTS = 3
# What happens instead of a refused parameter, for its one line on stderr.
WITHOUT = {"max_tokens": "sending max_completion_tokens instead", "max_completion_tokens": "sending max_tokens instead",
           "tool_choice": "asking for its JSON-schema output instead of a forced tool call"}

log = logging.getLogger(__name__)


@dataclass
class Wire:
    """What one run's calls learn about the providers as they go, shared by all of them."""

    settings: Settings
    limits: dict[str, ProviderLimits] = field(default_factory=dict)
    json_mode: set[str] = field(default_factory=set)  # providers that rejected json_schema this run
    refused: dict[str, set[str]] = field(default_factory=dict)  # provider:model -> parameters it refused (wire names)
    unreachable: dict[str, EndpointUnreachable] = field(default_factory=dict)  # providers given up on this run
    notices: BackoffNotices = field(default_factory=BackoffNotices)

    def refused_by(self, call: LLMCall) -> set[str]:
        return self.refused.setdefault(f"{call.provider}:{call.model}", set())

    async def send(self, call: LLMCall, provider: Provider, settings: ProviderSettings, conversation: list[dict],
                   schema: type[BaseModel] | None, input_tokens: int, progress: Progress) -> Reply:
        """One reply through the provider's limits. Transient failures wait and retry until max_retry_seconds;
        a failure to connect is tried CONNECT_ATTEMPTS times; a json_schema request the server rejects falls back
        to JSON mode under `auto`. A body cut off or not the API's envelope (BrokenBody) is one of the transient
        failures. Raises Rejected or Unreachable."""
        limits = self.limits[call.provider]
        # Most answers use a small part of max_output_tokens; reserving all of it would starve the token limit.
        # The reservation is corrected with the real usage once the answer is in.
        expected_tokens = input_tokens + progress.params.max_output_tokens // 8
        refused = self.refused_by(call)
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
                if connect_failures >= CONNECT_ATTEMPTS or call.provider in self.unreachable:
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
                self.notices.announce(call.provider, error.reason, wait)
                progress.skipped += await pacing.back_off(wait)
                continue
            progress.usage = progress.usage + reply.usage
            if progress.mode == "json_mode" and settings.structured_output == "auto":
                self.json_mode.add(call.provider)  # the fallback worked: keep it for the rest of the run
            return reply
