"""An LLM client for dry runs: it answers from the cache and, for anything the cache cannot answer, notes what
would be asked and stops the item there. Nothing is sent and nothing is written to the call log.

A stage's own run_one runs against it unchanged, so the requests counted are exactly those a real run would build
(same prompts, same cache keys), and a cached answer lets the stage go on to its next call (a cached first
translation whose checks fail leads to the retry, which is then counted).
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from curation.config import Settings
from curation.llm.answer import Answer
from curation.llm.client import LLM
from curation.llm.errors import LLMError
from curation.llm.pricing import estimate_input_tokens
from curation.store import Store


class NotSent(LLMError):
    """A dry run reached a request the cache cannot answer: the item stops here (it is not the item's failure)."""

    def __init__(self, item: str, role: str):
        super().__init__(f"{item}: {role} would be asked")
        self.item, self.role = item, role


@dataclass(frozen=True)
class WantedCall:
    """A request a real run would send: its role, the item that asks it first, and its estimated input tokens."""

    role: str
    item: str
    tokens_in: int


class DryRunLLM(LLM):
    """`ask` answers from the cache only; a miss is kept in `wanted` (once per request hash) and raises NotSent."""

    def __init__(self, settings: Settings, store: Store, stage: str = ""):
        super().__init__(settings, store, stage=stage)
        self.wanted: dict[str, WantedCall] = {}  # request hash -> the call; identical requests count once

    async def ask(self, role: str, messages: list[dict], schema: type[BaseModel] | None = None, item: str = "",
                  prompt_hash: str = "") -> Answer:
        """The cached answer, or NotSent after noting the request."""
        call, _, schema_json = self.request(role, messages, schema, item, prompt_hash)
        answer = self.cached_answer(call, schema)
        if answer is not None:
            self.calls += 1
            self.cache_hits += 1
            return answer
        self.wanted.setdefault(call.request_hash, WantedCall(role, item, estimate_input_tokens(messages, schema_json)))
        raise NotSent(item, role)
