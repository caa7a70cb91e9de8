"""Asking a provider whether a model exists, through its SDK's models retrieve call (no completion, nothing paid).

Both SDKs have the call: openai 3.54 `client.models.retrieve(model)` (GET {base}/models/{model}) and anthropic
2.12 `client.models.retrieve(model_id)` (GET /v1/models/{model_id}), read in the installed packages on 2026-11-23.
An unknown model is HTTP 404 at both (OpenAI: code model_not_found; Anthropic: not_found_error, per
https://platform.claude.com/docs/en/api/errors, read 2026-11-23); a bad key 401, a key without access 403.
OpenAI-compatible servers often serve only the list, GET /v1/models (vLLM: github.com/vllm-project/vllm issue
10029, read 2026-11-23), so for them a 404 is checked against the list (`models.list()`) before it counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from curation.llm.parameters import api_message
from curation.llm.providers import Provider
from curation.llm.reply import one_line, unreachable_reason
from curation.redaction import hide_credentials


@dataclass(frozen=True)
class ModelLookup:
    """What the provider said about one model: found, an HTTP error status with its message, or no answer."""

    found: bool
    status: int | None = None  # the HTTP status of an error answer
    reason: str = ""  # the server's message, or why no connection was made
    unreachable: bool = False  # no answer at all: the endpoint is down or the address is wrong

    @property
    def key_refused(self) -> bool:
        return self.status in (401, 403)


async def _listed(client: object, model: str) -> bool | None:
    """Whether the server's model list names `model`; None when the list cannot be had either."""
    try:
        async for entry in client.models.list():
            if entry.id == model:
                return True
        return False
    except Exception:  # noqa: BLE001  (no list either: the retrieve answer stands)
        return None


async def look_up_model(provider: Provider, model: str, compatible: bool = False) -> ModelLookup:
    """Retrieve `model` from the provider's models endpoint (`compatible`: an OpenAI-compatible server, whose 404
    is checked against its list); never raises for what a server or network can do."""
    client = getattr(provider, "client")  # the SDK client of OpenAIChat / AnthropicMessages

    def hide(text: str) -> str:  # a server's message may repeat the address asked, credentials and all
        return hide_credentials(text, str(client.base_url))

    try:
        await client.models.retrieve(model)
    except Exception as error:  # noqa: BLE001  (every SDK error is an answer to report, not a crash)
        status = getattr(error, "status_code", None)
        if isinstance(status, int):
            listed = await _listed(client, model) if compatible and status == 404 else None
            if listed:
                return ModelLookup(found=True)
            # The server's own words when it gave some; else what the list said, else the SDK's summary.
            message = api_message(getattr(error, "body", None), "") or (
                "not in the server's model list" if listed is False else str(error))
            return ModelLookup(found=False, status=status, reason=one_line(hide(message), 160))
        reason = unreachable_reason(error, getattr(provider, "connect_timeout", 10.0))
        return ModelLookup(found=False, reason=hide(reason or one_line(f"{type(error).__name__}: {error}", 160)),
                           unreachable=True)
    return ModelLookup(found=True)
