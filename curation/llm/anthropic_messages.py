"""The `anthropic` provider kind: the Messages API through the official SDK.

Structured answers use a forced tool call whose input schema is the pydantic schema: it works with every Claude
model, including those that predate the `output_config` JSON-schema format. A provider configured with
`structured_output = "json_schema"` uses that native format instead (newer models only).
"""

from __future__ import annotations

import json
import re

import anthropic
from pydantic import BaseModel

from curation.config import ProviderSettings
from curation.llm.answer import Usage
from curation.llm.openai_chat import CONNECT_TIMEOUT_SECONDS, classify
from curation.llm.reply import Reply, Transient, Unreachable, unreachable_reason
from curation.llm.schemas import json_schema


class AnthropicMessages:
    """One AsyncAnthropic client per provider, SDK retries off."""

    def __init__(self, settings: ProviderSettings, api_key: str, base_url: str | None):
        self.timeout = settings.timeout_seconds
        self.connect_timeout = min(CONNECT_TIMEOUT_SECONDS, settings.timeout_seconds)
        timeout = anthropic.Timeout(settings.timeout_seconds, connect=self.connect_timeout)
        self.client = anthropic.AsyncAnthropic(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0)
        self.endpoint = str(self.client.base_url).rstrip("/")

    async def send(self, model: str, messages: list[dict], schema: type[BaseModel] | None, mode: object,
                   temperature: float | None, max_tokens: int) -> Reply:
        """One request; raises Transient, Unreachable or Rejected."""
        system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
        # No temperature: this SDK generation no longer takes one for the Messages API.
        request: dict = {"model": model, "max_tokens": max_tokens,
                         "messages": [m for m in messages if m["role"] != "system"]}
        if system:
            request["system"] = system
        tool = tool_name(schema) if schema is not None and mode != "json_schema" else None
        if schema is not None and mode == "json_schema":
            request["output_config"] = {"format": {"type": "json_schema", "schema": anthropic.transform_schema(schema)}}
        elif schema is not None:
            request["tools"] = [{"name": tool, "description": f"Record the answer as {schema.__name__}.",
                                 "input_schema": json_schema(schema)}]
            request["tool_choice"] = {"type": "tool", "name": tool}
        try:
            message = await self.client.messages.create(**request)
        except anthropic.APIConnectionError as error:  # APITimeoutError included
            if (unreachable := unreachable_reason(error, self.connect_timeout)) is not None:
                raise Unreachable(unreachable) from None
            if isinstance(error, anthropic.APITimeoutError):
                raise Transient(f"no answer within {self.timeout:g}s") from None
            raise Transient(f"connection failed ({error.__cause__ or error})") from None
        except anthropic.APIStatusError as error:
            raise classify(error.status_code, error.message, error.response.headers, schema_requested=False) from None
        except (json.JSONDecodeError, anthropic.APIResponseValidationError):
            raise Transient("the server sent a malformed response body") from None
        try:  # the SDK does not validate bodies, so a body missing its fields shows up here
            blocks = list(message.content)
            usage = message.usage
            tokens_cached = usage.cache_read_input_tokens or 0
            tokens_in = usage.input_tokens + tokens_cached + (usage.cache_creation_input_tokens or 0)
            tokens_out = usage.output_tokens
        except (AttributeError, TypeError):
            raise Transient("the server sent a response without content or usage") from None
        text = "".join(getattr(block, "text", "") for block in blocks if block.type == "text")
        if tool is not None:
            calls = [block for block in blocks if block.type == "tool_use" and block.name == tool]
            if calls:
                text = json.dumps(calls[0].input, ensure_ascii=False)
        return Reply(
            text=text,
            usage=Usage(tokens_in, tokens_out, tokens_cached),
            refusal=(text or "the model declined to answer") if message.stop_reason == "refusal" else None,
            truncated=message.stop_reason == "max_tokens",
        )

    async def close(self) -> None:
        await self.client.close()


def tool_name(schema: type[BaseModel]) -> str:
    """Tool names allow letters, digits, _ and - only."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", schema.__name__)[:64] or "answer"
