"""The provider seam: what the client needs of an SDK adapter, which adapter a provider's `kind` picks, and which
structured-output mode it is asked in."""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel

from curation.config import ProviderSettings, Settings
from curation.llm.batch_api import BatchAPI
from curation.llm.errors import MissingKey
from curation.llm.parameters import CallParameters
from curation.llm.reply import Reply

# Any OpenAI-compatible server reached by base URL may need no key, but the SDK insists on one.
PLACEHOLDER_KEY = "not-needed"

Mode = Literal["json_schema", "json_mode", "tool"] | None


class Provider(Protocol):
    endpoint: str  # the base URL requests go to, for messages

    async def send(self, model: str, messages: list[dict], schema: type[BaseModel] | None, mode: Any,
                   params: CallParameters, avoid: frozenset[str] = frozenset()) -> Reply: ...

    def request_body(self, model: str, messages: list[dict], schema: type[BaseModel] | None, mode: Any,
                     params: CallParameters, avoid: frozenset[str] = frozenset()) -> dict: ...

    def reply_from(self, body: dict, request: dict) -> Reply: ...

    def batches(self) -> BatchAPI: ...

    async def close(self) -> None: ...


def import_sdks(settings: Settings, roles: tuple[str, ...]) -> None:
    """Import now the SDK adapters `roles` will use (each is imported on first use anyway): `curate run` does it
    before the checks' process starts loading its models on the other core, which would slow the import down."""
    kinds = {settings.provider_for(role)[1].kind for role in settings.roles_in_use(roles)}
    if "anthropic" in kinds:
        import curation.llm.anthropic_messages  # noqa: F401
    if kinds - {"anthropic"}:
        import curation.llm.openai_chat  # noqa: F401


def open_provider(name: str, provider: ProviderSettings, settings: Settings) -> Provider:
    """The SDK adapter for a configured provider, or MissingKey naming the variable to set."""
    base_url = settings.base_url(name, provider)
    key = settings.api_key(provider) or (PLACEHOLDER_KEY if base_url else None)
    if key is None:
        raise MissingKey(provider.key_variable, provider.kind, name)
    if provider.kind == "anthropic":
        from curation.llm.anthropic_messages import AnthropicMessages
        return AnthropicMessages(provider, key, base_url)
    from curation.llm.openai_chat import OpenAIChat
    return OpenAIChat(provider, key, base_url)


def structured_mode(name: str, provider: ProviderSettings, schema: type[BaseModel] | None,
                    json_mode_fallback: set[str]) -> Mode:
    """How a structured answer is asked for: none without a schema; a forced tool call or JSON-schema output for
    Anthropic; JSON schema for OpenAI unless the server refused it this run (then JSON mode)."""
    if schema is None:
        return None
    if provider.kind == "anthropic":
        return "json_schema" if provider.structured_output == "json_schema" else "tool"
    if provider.structured_output == "auto":
        return "json_mode" if name in json_mode_fallback else "json_schema"
    return provider.structured_output
