"""Cost in USD from the config's price table, and token estimates made before a call."""

from __future__ import annotations

import json

from curation.config import Price, Settings
from curation.llm.answer import Usage

# About four bytes of UTF-8 per token: four characters of English, one or two of Cyrillic, about one CJK
# character (three bytes) - close enough without a tokenizer, and the token limiter corrects its books with the
# real usage after each call.
BYTES_PER_TOKEN = 4
TOKENS_PER_MESSAGE = 4

# Output tokens a call of a role typically returns, for estimates made before it is sent: a description with its
# analysis, a grade with its per-criterion reasons, a domain with its reason, a QE finding list, an outline's five
# parts, the judge's scores of three outlines. Our own figures from the answers' schemas, not measured; a translation
# is estimated from its source (translation_tokens_out).
TYPICAL_OUTPUT_TOKENS = {"describe": 800, "refine": 800, "score": 400, "tag": 60, "qe": 300, "outline": 600,
                         "outline_judge": 700, "triage": 80}


def estimate_input_tokens(messages: list[dict], schema_json: dict | None) -> int:
    """Tokens a request will likely be billed for, before sending it."""
    size = sum(len(str(message.get("content", "")).encode("utf-8")) for message in messages)
    if schema_json is not None:
        size += len(json.dumps(schema_json))
    return size // BYTES_PER_TOKEN + TOKENS_PER_MESSAGE * len(messages) + 1


def cost_usd(price: Price | None, usage: Usage, batch: bool = False) -> float:
    """USD for one call's usage; no price (e.g. a local server) costs nothing.

    A batch answer is priced at the entry's batch_input / batch_output. Cache reads and writes in a batch count at
    their online prices, and a model without batch prices at its online prices: upper bounds, since no page we
    read gives a batch price for those.
    """
    if price is None:
        return 0.0
    input_rate, output_rate = price.input, price.output
    if batch and price.batch_input is not None and price.batch_output is not None:
        input_rate, output_rate = price.batch_input, price.batch_output
    cached_rate = price.input if price.cached_input is None else price.cached_input
    write_rate = price.input if price.cache_write_input is None else price.cache_write_input
    fresh = max(usage.tokens_in - usage.tokens_cached - usage.tokens_cache_write, 0)
    return (fresh * input_rate + usage.tokens_cached * cached_rate + usage.tokens_cache_write * write_rate
            + usage.tokens_out * output_rate) / 1_000_000


def prompt_cache_saving_usd(price: Price | None, tokens_cached: int, tokens_cache_write: int) -> float:
    """What the provider's prompt cache saved: cached input at the input price minus its cached price, less the
    premium paid for writing the cache (Anthropic); negative when writes were never read back."""
    if price is None:
        return 0.0
    cached_rate = price.input if price.cached_input is None else price.cached_input
    write_rate = price.input if price.cache_write_input is None else price.cache_write_input
    return (tokens_cached * (price.input - cached_rate) - tokens_cache_write * (write_rate - price.input)) / 1_000_000


def translation_tokens_out(source_text: str) -> int:
    """Output tokens a translation of `source_text` likely takes: twice the English's (other scripts need more)."""
    return 2 * len(source_text.encode("utf-8")) // BYTES_PER_TOKEN + 1


def estimated_cost(settings: Settings, role: str, usage: Usage) -> tuple[float, str | None]:
    """USD for an estimated call of `role` at its model's [prices] (batch prices in batch mode), and the
    provider:model when it has no price entry (then it counts as nothing)."""
    name, _, model = settings.provider_for(role)
    price = settings.prices.get(f"{name}:{model}")
    return cost_usd(price, usage, batch=settings.llm.mode == "batch"), None if price else f"{name}:{model}"


# Fewer items than this in the call log measure nothing yet: a first run's estimate assumes one answer an item.
MEASURED_FROM = 10


def calls_per_item(measured: dict[str, tuple[int, int]], role: str) -> float:
    """Answers paid per item of `role` as this project has measured them (retries after failed checks, validation
    retries), from Store.paid_calls_by_role(); 1.0 until MEASURED_FROM items are logged."""
    items, calls = measured.get(role, (0, 0))
    return max(1.0, calls / items) if items >= MEASURED_FROM else 1.0
