"""Prompt caching: stable prompt parts first, Anthropic's cache_control, cached and written tokens in the call log
and in `curate costs`, against the fake server reporting cache usage the way the APIs do."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.config import Price
from curation.llm import LLM, Usage
from curation.llm.pricing import cost_usd, prompt_cache_saving_usd
from curation.prompts import load_prompt

# ~1500 tokens of stable instructions: over the 1024-token minimum the fake (like OpenAI) caches from
INSTRUCTIONS = "Follow the rules of the benchmark when answering. " * 120


def messages(item: str) -> list[dict]:
    return [{"role": "system", "content": INSTRUCTIONS}, {"role": "user", "content": f"Now the item {item}."}]


async def ask_items(settings, store, role: str, items: list[str]):
    async with LLM(settings, store, stage="test") as llm:
        return [await llm.ask(role=role, messages=messages(item), item=item) for item in items]


def test_prompts_keep_per_item_text_out_of_the_system_part(settings):
    """The system part of each role's prompt (sent first) depends only on the project and the target language,
    so every item of a role shares it as a cacheable prefix; per-item text is in the user part."""
    stable = {"english", "native", "vocabulary", "allow_new", "domain"}
    for role in ("describe", "score", "refine", "tag", "translate"):
        prompt = load_prompt(settings, role)
        names = set(re.findall(r"{{-?\s*([a-z_]+)", prompt.system)) | set(re.findall(r"{%-?\s*(?:if|for)\s+([a-z_]+)",
                                                                                  prompt.system))
        assert names <= stable, f"{role}: per-item variables in the system part: {sorted(names - stable)}"


async def test_openai_cached_prefix_tokens_are_logged_and_billed_at_the_cached_price(llm_server, llm_settings, store):
    llm_server.prompt_cache = True
    first, second = await ask_items(llm_settings, store, "translate", ["titanic", "house-prices"])

    assert first.usage.tokens_cached == 0 and second.usage.tokens_cached == len(INSTRUCTIONS) // 4
    rows = store.llm_calls()
    assert [row.tokens_cached for row in rows] == [0, len(INSTRUCTIONS) // 4]
    price = llm_settings.prices["openai:gpt-5.5-2026-04-23"]
    assert rows[1].cost_usd == pytest.approx(cost_usd(price, second.usage))
    assert rows[1].cost_usd < rows[0].cost_usd


async def test_anthropic_gets_cache_control_on_the_system_block_and_logs_writes_then_reads(llm_server, llm_settings,
                                                                                          store):
    llm_server.prompt_cache = True
    first, second = await ask_items(llm_settings, store, "refine", ["titanic", "house-prices"])

    request = llm_server.requests[0]
    assert request.body["system"] == [{"type": "text", "text": INSTRUCTIONS, "cache_control": {"type": "ephemeral"}}]
    assert request.messages == [{"role": "user", "content": "Now the item titanic."}]
    prefix = len(INSTRUCTIONS) // 4
    assert (first.usage.tokens_cache_write, first.usage.tokens_cached) == (prefix, 0)
    assert (second.usage.tokens_cache_write, second.usage.tokens_cached) == (0, prefix)
    rows = store.llm_calls()
    assert [(row.tokens_cache_write, row.tokens_cached) for row in rows] == [(prefix, 0), (0, prefix)]
    # Sonnet 5.5: writes at $2.50/M, reads at $0.20/M, the rest at $2.00/M
    fresh = first.usage.tokens_in - prefix
    assert rows[0].cost_usd == pytest.approx((fresh * 2.00 + prefix * 2.50 + first.usage.tokens_out * 10.00) / 1e6)


def test_the_saving_counts_reads_and_the_write_premium():
    price = Price(input=2.00, output=10.00, cached_input=0.20, cache_write_input=2.50)
    assert prompt_cache_saving_usd(price, 10_000, 1_000) == pytest.approx((10_000 * 1.80 - 1_000 * 0.50) / 1e6)
    assert prompt_cache_saving_usd(Price(input=1, output=1), 10_000, 0) == 0  # no cached price: no saving known
    assert prompt_cache_saving_usd(None, 10_000, 0) == 0
    assert cost_usd(price, Usage(tokens_in=3000, tokens_out=0, tokens_cached=1000, tokens_cache_write=1000)) == \
        pytest.approx((1000 * 2.00 + 1000 * 0.20 + 1000 * 2.50) / 1e6)


async def test_curate_costs_shows_cached_input_tokens_and_what_they_saved(llm_server, llm_settings, store):
    llm_server.prompt_cache = True
    await ask_items(llm_settings, store, "translate", ["a", "b", "c"])  # the 2nd and 3rd read the prefix
    cached = 2 * (len(INSTRUCTIONS) // 4)

    result = CliRunner().invoke(app, ["costs"])

    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("test "))
    saving = cached * (5.00 - 0.50) / 1e6  # gpt-5.5: input $5.00/M, cached input $0.50/M
    assert line.split()[8] == str(cached) and line.split()[-1] == f"{saving:.4f}"
    assert result.output.splitlines()[-1] == (f"prompt caching: {cached} input tokens served from the providers' "
                                              f"prompt caches, ${saving:.4f} saved at [prices] (cache writes "
                                              "counted against it)")
