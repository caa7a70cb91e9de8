"""The `openai` provider kind: chat completions through the official SDK, for OpenAI and any compatible server."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Literal

import openai
from pydantic import BaseModel

from curation.config import ProviderSettings
from curation.llm.answer import Usage
from curation.llm.parameters import CallParameters, ParameterRefused, api_message, refused_parameter
from curation.llm.reply import (CONNECT_TIMEOUT_SECONDS, BrokenBody, Reply, Transient, Unreachable, broken_connection,
                                classify, unreadable_body, unreachable_reason)
from curation.llm.schemas import json_schema, strict_json_schema
from curation.llm.tls import tls_context
from curation.redaction import redact_url

if TYPE_CHECKING:
    from curation.llm.openai_batches import OpenAIBatches

Mode = Literal["json_schema", "json_mode"] | None

# Parameters a model may refuse, which a request can do without (the output limit under its other name).
OPTIONAL_PARAMETERS = ("temperature", "reasoning_effort", "max_tokens", "max_completion_tokens")


class OpenAIChat:
    """One AsyncOpenAI client per provider. The SDK's own retries are off: the LLM client's policy is in force."""

    def __init__(self, settings: ProviderSettings, api_key: str, base_url: str | None):
        self.timeout = settings.timeout_seconds
        self.connect_timeout = min(CONNECT_TIMEOUT_SECONDS, settings.timeout_seconds)
        timeout = openai.Timeout(settings.timeout_seconds, connect=self.connect_timeout)
        self.client = openai.AsyncOpenAI(
            api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0,
            http_client=openai.DefaultAsyncHttpxClient(verify=tls_context()))
        self.endpoint = redact_url(str(self.client.base_url).rstrip("/"))  # for messages: no credentials
        # Compatible servers (vLLM, Ollama, llama.cpp) all know max_tokens; OpenAI itself prefers the newer name.
        self.max_tokens_field = "max_tokens" if base_url else "max_completion_tokens"

    def request_body(self, model: str, messages: list[dict], schema: type[BaseModel] | None, mode: Mode,
                     params: CallParameters, avoid: frozenset[str] = frozenset()) -> dict:
        """The chat-completions request (the JSON body, also a Batch API line's `body`), without the parameters in
        `avoid` (wire names this model refused this run)."""
        field = self.max_tokens_field
        if field in avoid:  # the server wants the other spelling of the output limit
            field = "max_completion_tokens" if field == "max_tokens" else "max_tokens"
        request: dict = {"model": model, "messages": messages, field: params.max_output_tokens}
        if params.temperature is not None and "temperature" not in avoid:
            request["temperature"] = params.temperature  # unset: the model's default
        if params.reasoning_effort is not None and "reasoning_effort" not in avoid:
            request["reasoning_effort"] = params.reasoning_effort
        if schema is not None and mode == "json_schema":
            request["response_format"] = {"type": "json_schema", "json_schema": {
                "name": schema.__name__, "schema": strict_json_schema(schema), "strict": True}}
        elif schema is not None:
            request["messages"] = with_json_instruction(messages, schema)
            request["response_format"] = {"type": "json_object"}
        return request

    async def send(self, model: str, messages: list[dict], schema: type[BaseModel] | None, mode: Mode,
                   params: CallParameters, avoid: frozenset[str] = frozenset()) -> Reply:
        """One request; raises Transient (BrokenBody for a body that cannot be read), Unreachable, Rejected,
        SchemaUnsupported or ParameterRefused."""
        request = self.request_body(model, messages, schema, mode, params, avoid)
        try:
            completion = await self.client.chat.completions.create(**request)
        except openai.APIConnectionError as error:  # APITimeoutError included
            if (unreachable := unreachable_reason(error, self.connect_timeout)) is not None:
                raise Unreachable(unreachable) from None
            if isinstance(error, openai.APITimeoutError):
                raise Transient(f"no answer within {self.timeout:g}s") from None
            raise Transient(f"connection failed ({broken_connection(error)})") from None
        except openai.APIStatusError as error:
            if error.status_code == 400:
                optional = tuple(name for name in OPTIONAL_PARAMETERS if name in request and name not in avoid)
                if (refused := refused_parameter(error.message, error.param, optional)) is not None:
                    raise ParameterRefused(refused, api_message(error.body, error.message)) from None
            raise classify(error.status_code, error.message, error.response.headers,
                           schema_requested=mode == "json_schema" and schema is not None) from None
        except (ValueError, openai.APIResponseValidationError) as error:
            # ValueError covers json.JSONDecodeError and UnicodeDecodeError: a body cut in the middle of a
            # multi-byte character is a complete HTTP exchange that does not decode.
            raise unreadable_body(error) from None
        return to_reply(completion)

    def batches(self) -> "OpenAIBatches":
        """This client's Batch API."""
        from curation.llm.openai_batches import OpenAIBatches
        return OpenAIBatches(self.client)

    def reply_from(self, body: dict, request: dict) -> Reply:
        """A batch's answer body for `request` as a Reply."""
        return to_reply(body)

    async def close(self) -> None:
        await self.client.close()


def with_json_instruction(messages: list[dict], schema: type[BaseModel]) -> list[dict]:
    """JSON mode only promises JSON, not its shape: tell the model the schema in the system message."""
    instruction = ("Reply with a single JSON object and nothing else. It must validate against this JSON schema:\n"
                   + json.dumps(json_schema(schema), ensure_ascii=False))
    if messages and messages[0].get("role") == "system":
        first = dict(messages[0], content=f"{messages[0]['content']}\n\n{instruction}")
        return [first, *messages[1:]]
    return [{"role": "system", "content": instruction}, *messages]


def to_reply(completion: object) -> Reply:
    """A chat completion (the SDK's object, or one read back from a batch's output file) as a Reply."""
    if isinstance(completion, dict):  # the SDK's construct builds the nested objects without validating
        completion = openai.types.chat.ChatCompletion.construct(**completion)
    try:  # the SDK does not validate bodies, so a body missing its fields shows up here
        choice = completion.choices[0]
        message = choice.message
    except (AttributeError, IndexError, TypeError):
        raise BrokenBody("the server sent a response without choices") from None
    usage = completion.usage
    cached = 0
    if usage is not None and getattr(usage, "prompt_tokens_details", None) is not None:
        cached = usage.prompt_tokens_details.cached_tokens or 0
    return Reply(
        text=message.content or "",
        usage=Usage(usage.prompt_tokens, usage.completion_tokens, cached) if usage else Usage(),
        refusal=getattr(message, "refusal", None) or (message.content or "the provider's content filter stopped the answer"
                                                      if choice.finish_reason == "content_filter" else None),
        truncated=choice.finish_reason == "length",
    )
