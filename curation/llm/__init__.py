"""LLM client: providers (OpenAI, Anthropic, OpenAI-compatible servers), cache and call log, limits, retries, costs.

    async with LLM(settings, store, max_cost=None, stage="describe") as llm:
        answer = await llm.ask(role="score", messages=prompt.render(...), schema=Grade, item=slug,
                               prompt_hash=prompt.hash)
"""

from curation.llm.answer import Answer, Usage
from curation.llm.client import LLM
from curation.llm.errors import (
    BatchPending,
    BudgetExceeded,
    EndpointUnreachable,
    KeyRejected,
    LLMCallFailed,
    LLMConfigError,
    LLMError,
    MissingKey,
    MissingPrice,
)

__all__ = ["LLM", "BatchPending", "Answer", "Usage", "LLMCallFailed", "BudgetExceeded", "MissingKey", "MissingPrice", "KeyRejected",
           "EndpointUnreachable", "LLMConfigError", "LLMError"]
