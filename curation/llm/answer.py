"""What a stage gets back from `LLM.ask`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Usage:
    """Tokens of one call. tokens_in counts every input token, tokens_cached the part the provider served from its
    prompt cache (billed at the cached-input price), tokens_cache_write the part written to it (Anthropic bills
    those at its cache-write price)."""

    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = 0
    tokens_cache_write: int = 0

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(self.tokens_in + other.tokens_in, self.tokens_out + other.tokens_out,
                     self.tokens_cached + other.tokens_cached, self.tokens_cache_write + other.tokens_cache_write)


@dataclass(frozen=True)
class Answer:
    """A validated answer: `parsed` is an instance of the requested schema (None for plain text)."""

    text: str
    parsed: Any
    usage: Usage
    cost_usd: float
    cached: bool
    request_hash: str = ""
    attempts: int = 1
    saved_usd: float = 0.0  # a cached answer: what it cost when it was paid for
