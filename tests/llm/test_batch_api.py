"""The batch adapters' failures through the real SDKs against the fake server: every call of either provider's
batch API turns the SDK's connection or HTTP error into one BatchAPIError line, with the HTTP status when there
was one."""

from __future__ import annotations

import anthropic
import openai
import pytest

from curation.llm.anthropic_batches import AnthropicBatches
from curation.llm.batch_api import BatchAPIError
from curation.llm.openai_batches import OpenAIBatches
from tests.llm.test_unreachable import closed_port

CALLS = ["status", "cancel", "results"]


def adapter(provider: str, openai_url: str, anthropic_url: str):
    if provider == "openai":
        return OpenAIBatches(openai.AsyncOpenAI(api_key="test", base_url=openai_url, max_retries=0))
    return AnthropicBatches(anthropic.AsyncAnthropic(api_key="test", base_url=anthropic_url, max_retries=0))


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("call", CALLS)
async def test_a_batch_the_provider_does_not_know_is_an_http_error_line(llm_server, provider, call):
    batches = adapter(provider, llm_server.openai_base_url, llm_server.anthropic_base_url)

    with pytest.raises(BatchAPIError) as raised:
        await getattr(batches, call)("batch_nobody_made")

    assert raised.value.status == 404
    assert str(raised.value).startswith("HTTP 404 (") and "\n" not in str(raised.value)
    assert raised.value.__cause__ is None and raised.value.__suppress_context__  # no SDK traceback behind it


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("call", ["submit", *CALLS])
async def test_a_server_that_is_down_is_a_connection_failed_line(provider, call):
    url = f"http://127.0.0.1:{closed_port()}"
    batches = adapter(provider, url + "/v1", url)
    argument = [("custom-1", {"model": "m", "messages": []})] if call == "submit" else "batch_1"

    with pytest.raises(BatchAPIError) as raised:
        await getattr(batches, call)(argument)

    assert raised.value.status is None
    assert str(raised.value) == "connection failed (Connection error.)"
