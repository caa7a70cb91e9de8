"""Records of the LLM call log (which is also the answer cache) and of the spend it adds up to."""

from __future__ import annotations

from curation.records.base import Record

class LLMCall(Record):
    """One `LLM.ask`: a row of the call log, which is also the answer cache. Never holds keys or headers."""

    stage: str
    role: str
    item: str
    provider: str
    model: str
    request_hash: str
    response: str | None = None  # the validated answer text; None when the call failed
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = 0
    tokens_cache_write: int = 0  # input written to the provider's prompt cache (Anthropic cache creation)
    cost_usd: float = 0.0
    saved_usd: float = 0.0  # for a cache hit: what the original call cost
    latency_ms: int = 0  # from the start of the call to its answer, waits for limits and retries included
    attempts: int = 0  # HTTP requests made (0 for a cache hit)
    cached: bool = False
    error: str | None = None
    created_at: str = ""


class CostLine(Record):
    """Spend and tokens of one (stage, role, provider:model), as `curate costs` prints them."""

    stage: str
    role: str
    model: str
    calls: int
    cache_hits: int
    call_errors: int  # calls that got no answer (an HTTP error, a refusal, no valid answer): not items that failed
    tokens_in: int
    tokens_out: int
    tokens_cached: int
    tokens_cache_write: int = 0
    cost_usd: float
    saved_usd: float
