"""The cache (a rerun sends nothing), cost figures from the price table, the budget stop, and `curate costs`."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import BaseModel
from typer.testing import CliRunner

from curation.cli import app
from curation.llm import LLM, BudgetExceeded, MissingPrice
from curation.store import Store
from tests.fakes.llm_server import answer, pointed_at


class Domain(BaseModel):
    domain: str


def messages(slug: str) -> list[dict]:
    return [{"role": "system", "content": "Pick a domain."}, {"role": "user", "content": f"Competition: {slug}"}]


SLUGS = ["titanic", "house-prices", "digit-recognizer"]


async def tag_all(settings, store, slugs=SLUGS, prompt_hash="p1", max_cost=None):
    async with LLM(settings, store, max_cost=max_cost, stage="tag") as llm:
        return [await llm.ask(role="tag", messages=messages(slug), schema=Domain, item=slug, prompt_hash=prompt_hash)
                for slug in slugs]


async def test_a_rerun_sends_zero_requests_and_costs_nothing(llm_server, llm_settings, store):
    llm_server.respond_with(lambda request: {"domain": request.user_text.split(": ")[1]})
    first = await tag_all(llm_settings, store)
    assert llm_server.count() == 3

    second = await tag_all(llm_settings, store)

    assert llm_server.count() == 3
    assert [a.parsed for a in second] == [a.parsed for a in first]
    assert all(a.cached and a.cost_usd == 0 for a in second)
    rows = store.llm_calls("tag")
    assert [r.cached for r in rows] == [False] * 3 + [True] * 3
    assert [r.saved_usd for r in rows[3:]] == [r.cost_usd for r in rows[:3]]


async def test_identical_requests_at_the_same_time_are_sent_once(llm_server, llm_settings, store):
    llm_server.latency = 0.1
    llm_server.respond_with(lambda request: {"domain": "finance"})
    async with LLM(llm_settings, store, stage="tag") as llm:
        answers = await asyncio.gather(*(llm.ask(role="tag", messages=messages("titanic"), schema=Domain, item=f"copy-{n}")
                                         for n in range(4)))
    assert llm_server.count() == 1
    assert sorted(a.cached for a in answers) == [False, True, True, True]
    assert {a.parsed.domain for a in answers} == {"finance"}


async def test_the_cache_survives_reopening_the_store(llm_server, llm_settings, settings):
    llm_server.respond_with(lambda request: {"domain": "finance"})
    with Store(settings.path("store")) as store:
        await tag_all(llm_settings, store, slugs=["titanic"])
    with Store(settings.path("store")) as store:
        [again] = await tag_all(llm_settings, store, slugs=["titanic"])
    assert again.cached and llm_server.count() == 1


async def test_the_key_covers_what_changes_the_answer_and_nothing_else(llm_server, llm_settings, store):
    llm_server.respond_with(lambda request: {"domain": "finance"})
    await tag_all(llm_settings, store, slugs=["titanic"])

    # another item asking the very same thing is a hit: the item is not part of the key
    async with LLM(llm_settings, store, stage="describe") as llm:
        same = await llm.ask(role="tag", messages=messages("titanic"), schema=Domain, item="someone-else",
                             prompt_hash="p1")
    assert same.cached and llm_server.count() == 1

    await tag_all(llm_settings, store, slugs=["titanic"], prompt_hash="p2")  # prompt file changed
    assert llm_server.count() == 2
    warmer = llm_settings.model_copy(update={"llm": llm_settings.llm.model_copy(update={"temperature": 0.7})})
    await tag_all(warmer, store, slugs=["titanic"], prompt_hash="p2")  # a parameter changed
    assert llm_server.count() == 3
    other_model = llm_settings.model_copy(update={"models": llm_settings.models.model_copy(update={"tag": "openai:gpt-5.4-nano"})})
    await tag_all(other_model, store, slugs=["titanic"], prompt_hash="p2")  # the model changed
    assert llm_server.count() == 4

    class Tagged(BaseModel):  # the schema changed
        domain: str
        confident: bool = True
    async with LLM(llm_settings, store, stage="tag") as llm:
        await llm.ask(role="tag", messages=messages("titanic"), schema=Tagged, item="titanic", prompt_hash="p2")
    assert llm_server.count() == 5


async def test_failed_calls_are_not_cached(llm_server, llm_settings, store):
    llm_server.script("not json", "still not json", "nope")
    llm_server.respond_with(lambda request: {"domain": "finance"})
    with pytest.raises(Exception):
        await tag_all(llm_settings, store, slugs=["titanic"])
    [answer_] = await tag_all(llm_settings, store, slugs=["titanic"])
    assert not answer_.cached and llm_server.count() == 4


@pytest.mark.parametrize(("role", "expected"), [
    # gpt-5.4-mini: 600 fresh x 0.75 + 400 cached x 0.075 + 200 out x 4.50, per million
    ("tag", (600 * 0.75 + 400 * 0.075 + 200 * 4.50) / 1e6),
    # claude-sonnet-5-5: 600 x 2.00 + 400 x 0.20 + 200 x 10.00, per million
    ("refine", (600 * 2.00 + 400 * 0.20 + 200 * 10.00) / 1e6),
])
async def test_cost_comes_from_the_price_table_and_the_reported_usage(llm_server, llm_settings, store, role, expected):
    llm_server.script(answer({"domain": "finance"}, tokens_in=1000, tokens_out=200, tokens_cached=400))
    async with LLM(llm_settings, store, stage="tag") as llm:
        result = await llm.ask(role=role, messages=messages("titanic"), schema=Domain, item="titanic")

    assert (result.usage.tokens_in, result.usage.tokens_out, result.usage.tokens_cached) == (1000, 200, 400)
    assert result.cost_usd == pytest.approx(expected)
    assert llm.spent_usd == pytest.approx(expected)
    [row] = store.llm_calls()
    assert (row.tokens_in, row.tokens_out, row.tokens_cached) == (1000, 200, 400)
    assert row.cost_usd == pytest.approx(expected)


async def test_the_budget_stops_starting_calls_before_spend_could_pass_it(llm_server, llm_settings, store):
    # gpt-5.4-mini: a call's worst case is ~4096 output tokens x $4.50/M = ~$0.0185; each answer here costs ~$0.0091
    llm_server.respond_with(lambda request: answer({"domain": "finance"}, tokens_in=100, tokens_out=2000))
    slugs = [f"comp-{n}" for n in range(10)]
    with pytest.raises(BudgetExceeded) as stopped:
        await tag_all(llm_settings, store, slugs=slugs, max_cost=0.0375)

    sent = llm_server.count()
    spent = sum(row.cost_usd for row in store.llm_calls())
    assert 2 <= sent < 10
    assert spent <= 0.0375
    assert spent + stopped.value.estimate > 0.0375  # the next call could indeed have passed the budget
    assert str(stopped.value).startswith("budget $0.0375 reached: $0.0")


async def test_calls_at_once_wait_for_the_budget_instead_of_stopping_early(llm_server, llm_settings, store):
    # Each call's worst case is ~$0.0185, so only four fit in $0.075 at once; each really costs ~$0.0006, so all
    # twenty fit in the budget one after another.
    llm_server.respond_with(lambda request: answer({"domain": "finance"}, tokens_in=100, tokens_out=120))
    async with LLM(llm_settings, store, max_cost=0.075, stage="tag") as llm:
        answers = await asyncio.gather(*(llm.ask(role="tag", messages=messages(f"c-{n}"), schema=Domain, item=f"c-{n}")
                                         for n in range(20)))
    assert len(answers) == 20 and llm_server.count() == 20
    assert llm_server.max_in_flight <= 4
    assert sum(row.cost_usd for row in store.llm_calls()) <= 0.075


async def test_cache_hits_do_not_count_against_the_budget(llm_server, llm_settings, store):
    llm_server.respond_with(lambda request: answer({"domain": "finance"}, tokens_in=100, tokens_out=2000))
    await tag_all(llm_settings, store, slugs=["a-1", "a-2", "a-3"])
    answers = await tag_all(llm_settings, store, slugs=["a-1", "a-2", "a-3"], max_cost=0.0001)
    assert all(a.cached for a in answers) and llm_server.count() == 3


async def test_a_budget_needs_a_price_for_the_model(llm_server, settings, store):
    llm_server.respond_with(lambda request: {"domain": "finance"})
    local = pointed_at(settings, llm_server)
    local = local.model_copy(update={"models": local.models.model_copy(update={"tag": "openai:llama-3.1-8b"})})
    with pytest.raises(MissingPrice) as missing:
        await tag_all(local, store, max_cost=1.0)
    assert 'add [prices."openai:llama-3.1-8b"]' in str(missing.value)
    assert llm_server.count() == 0
    [free] = await tag_all(local, store, slugs=["titanic"])  # without a budget a local model is simply free
    assert free.cost_usd == 0


async def test_curate_costs_prints_spend_by_stage_role_model_and_what_the_cache_saved(llm_server, llm_settings, store):
    llm_server.respond_with(lambda request: answer({"domain": "finance"}, tokens_in=1000, tokens_out=100))
    await tag_all(llm_settings, store)  # 3 paid calls, gpt-5.4-mini: (1000 x 0.75 + 100 x 4.50) / 1e6 = $0.0012 each
    await tag_all(llm_settings, store)  # 3 cache hits
    async with LLM(llm_settings, store, stage="describe") as llm:  # 1 paid claude call: ~1495 in x 2.00 + 1 out x 10.00
        await llm.ask(role="refine", messages=messages("titanic"), item="titanic")

    result = CliRunner().invoke(app, ["costs"])

    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    tag_line = next(line for line in lines if line.startswith("tag "))
    assert tag_line.split() == ["tag", "tag", "openai:gpt-5.4-mini-2026-03-17", "6", "3", "0", "3000", "300", "0",
                                "0.0036", "0.0036", "0.0000"]
    describe_line = next(line for line in lines if line.startswith("describe "))
    assert describe_line.split()[:3] == ["describe", "refine", "anthropic:claude-sonnet-5-5"]
    assert describe_line.split()[-3:] == ["0.0030", "0.0000", "0.0000"]
    assert lines[-2] == "total: $0.0066 spent, $0.0036 saved by the cache (3 cached answers)"
    assert lines[-1].startswith("prompt caching: 0 input tokens served from the providers' prompt caches, $0.0000 saved")


def test_curate_costs_on_an_empty_store(project):
    result = CliRunner().invoke(app, ["costs"])
    assert result.exit_code == 0 and "no LLM calls logged yet" in result.output
