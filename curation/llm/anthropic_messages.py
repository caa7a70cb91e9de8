"""The `anthropic` provider kind: the Messages API through the official SDK.

Structured answers use a forced tool call whose input schema is the pydantic schema: it works with Claude models
that predate the `output_config` JSON-schema format. A model that refuses forced tool use (Claude Sonnet 5.5, per
Anthropic's "What's new" page) is asked through that format instead for the rest of the run, and a provider
configured with `structured_output = "json_schema"` always uses it.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import anthropic
from pydantic import BaseModel

from curation.config import ProviderSettings
from curation.llm.answer import Usage
from curation.llm.parameters import CallParameters, ParameterRefused, api_message, refused_parameter
from curation.llm.reply import (CONNECT_TIMEOUT_SECONDS, BrokenBody, Reply, Transient, Unreachable, broken_connection,
                                classify, unreachable_reason, unreadable_body)
from curation.llm.schemas import json_schema
from curation.llm.tls import tls_context
from curation.redaction import redact_url

if TYPE_CHECKING:
    from curation.llm.anthropic_batches import AnthropicBatches


class AnthropicMessages:
    """One AsyncAnthropic client per provider, SDK retries off."""

    def __init__(self, settings: ProviderSettings, api_key: str, base_url: str | None):
        self.timeout = settings.timeout_seconds
        self.connect_timeout = min(CONNECT_TIMEOUT_SECONDS, settings.timeout_seconds)
        timeout = anthropic.Timeout(settings.timeout_seconds, connect=self.connect_timeout)
        self.client = anthropic.AsyncAnthropic(
            api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0,
            http_client=anthropic.DefaultAsyncHttpxClient(verify=tls_context()))
        self.endpoint = redact_url(str(self.client.base_url).rstrip("/"))  # for messages: no credentials

    def request_body(self, model: str, messages: list[dict], schema: type[BaseModel] | None, mode: object,
                     params: CallParameters, avoid: frozenset[str] = frozenset()) -> dict:
        """The Messages API request (the JSON body, also a Message Batches request's `params`), without the
        parameters in `avoid` (wire names this model refused this run)."""
        system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
        request: dict = {"model": model, "max_tokens": params.max_output_tokens,
                         "messages": [m for m in messages if m["role"] != "system"]}
        if system:
            # The system text is a prompt's stable part (instructions, vocabulary, language): marking it lets
            # Anthropic's prompt cache serve it to every later call of the role. A prefix shorter than the model's
            # minimum cacheable length is simply not cached.
            request["system"] = [{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}]
        if params.temperature is not None and "temperature" not in avoid:
            request["temperature"] = params.temperature  # older models take it; newer ones refuse it (then dropped)
        output_config: dict = {}
        if params.reasoning_effort is not None and "output_config.effort" not in avoid:
            output_config["effort"] = params.reasoning_effort
        # A model that refuses forced tool use (Claude Sonnet 5.5 does) answers through the JSON-schema format.
        if schema is not None and (mode == "json_schema" or "tool_choice" in avoid):
            output_config["format"] = {"type": "json_schema", "schema": anthropic.transform_schema(schema)}
        elif schema is not None:
            tool = tool_name(schema)
            request["tools"] = [{"name": tool, "description": f"Record the answer as {schema.__name__}.",
                                 "input_schema": json_schema(schema)}]
            request["tool_choice"] = {"type": "tool", "name": tool}
        if output_config:
            request["output_config"] = output_config
        return request

    async def send(self, model: str, messages: list[dict], schema: type[BaseModel] | None, mode: object,
                   params: CallParameters, avoid: frozenset[str] = frozenset()) -> Reply:
        """One request; raises Transient (BrokenBody for a body that cannot be read), Unreachable, Rejected or
        ParameterRefused."""
        request = self.request_body(model, messages, schema, mode, params, avoid)
        tool = request["tool_choice"]["name"] if "tool_choice" in request else None
        # This SDK generation has no temperature argument any more; the API still takes it on older models.
        if "temperature" in request:
            request["extra_body"] = {"temperature": request.pop("temperature")}
        try:
            message = await self.client.messages.create(**request)
        except anthropic.APIConnectionError as error:  # APITimeoutError included
            if (unreachable := unreachable_reason(error, self.connect_timeout)) is not None:
                raise Unreachable(unreachable) from None
            if isinstance(error, anthropic.APITimeoutError):
                raise Transient(f"no answer within {self.timeout:g}s") from None
            raise Transient(f"connection failed ({broken_connection(error)})") from None
        except anthropic.APIStatusError as error:
            if error.status_code == 400:
                sent = {"temperature": "extra_body" in request, "tool_choice": tool is not None,
                        "output_config.effort": "effort" in request.get("output_config", {})}
                optional = [name for name, present in sent.items() if present]
                if sent["output_config.effort"]:
                    optional.append("effort")  # the message may name it either way
                if (refused := refused_parameter(error.message, None, tuple(optional))) is not None:
                    refused = "output_config.effort" if refused == "effort" else refused
                    raise ParameterRefused(refused, api_message(error.body, error.message)) from None
            raise classify(error.status_code, error.message, error.response.headers, schema_requested=False) from None
        except (ValueError, anthropic.APIResponseValidationError) as error:
            # ValueError covers json.JSONDecodeError and UnicodeDecodeError: a body cut in the middle of a
            # multi-byte character is a complete HTTP exchange that does not decode.
            raise unreadable_body(error) from None
        return to_reply(message, tool)

    def batches(self) -> "AnthropicBatches":
        """This client's Message Batches API."""
        from curation.llm.anthropic_batches import AnthropicBatches
        return AnthropicBatches(self.client)

    def reply_from(self, body: dict, request: dict) -> Reply:
        """A batch's answer (a Message) for `request` as a Reply."""
        return to_reply(body, request.get("tool_choice", {}).get("name"))

    async def close(self) -> None:
        await self.client.close()


def tool_name(schema: type[BaseModel]) -> str:
    """Tool names allow letters, digits, _ and - only."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", schema.__name__)[:64] or "answer"


def to_reply(message: object, tool: str | None) -> Reply:
    """A Message (the SDK's object, or one read back from a batch's results) as a Reply; `tool` is the forced tool
    whose input is the structured answer, if the request forced one."""
    if isinstance(message, dict):  # the SDK's construct builds the nested objects without validating
        message = anthropic.types.Message.construct(**message)
    try:  # the SDK does not validate bodies, so a body missing its fields shows up here
        blocks = list(message.content)
        usage = message.usage
        tokens_cached = usage.cache_read_input_tokens or 0
        tokens_written = usage.cache_creation_input_tokens or 0
        tokens_in = usage.input_tokens + tokens_cached + tokens_written
        tokens_out = usage.output_tokens
    except (AttributeError, TypeError):
        raise BrokenBody("the server sent a response without content or usage") from None
    text = "".join(getattr(block, "text", "") for block in blocks if block.type == "text")
    if tool is not None:
        calls = [block for block in blocks if block.type == "tool_use" and block.name == tool]
        if calls:
            text = json.dumps(calls[0].input, ensure_ascii=False)
    return Reply(
        text=text,
        usage=Usage(tokens_in, tokens_out, tokens_cached, tokens_written),
        refusal=(text or "the model declined to answer") if message.stop_reason == "refusal" else None,
        truncated=message.stop_reason == "max_tokens",
    )
