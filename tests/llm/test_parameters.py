"""Per-role parameters from [models] tables, and the fallback when a model refuses one, against the fake server."""

from __future__ import annotations

import logging
from typing import Literal

import pytest
from pydantic import BaseModel

from curation.config import ConfigError, Settings, load_settings
from curation.llm import LLM, LLMCallFailed
from tests.fakes.llm_server import bad_request, pointed_at

MESSAGES = [{"role": "system", "content": "You translate task descriptions."},
            {"role": "user", "content": "Translate: predict survival."}]


class Grade(BaseModel):
    grade: Literal["A", "B", "C", "D"]


def with_models(settings: Settings, **roles: object) -> Settings:
    """`settings` with some [models] entries replaced, parsed as curate.toml would parse them."""
    models = settings.models.model_dump()
    parameters = models.pop("parameters")
    models.update({"parameters": {role: p for role, p in parameters.items() if role not in roles}, **roles})
    return Settings.model_validate({**settings.model_dump(exclude={"models"}), "models": models})


async def ask(settings: Settings, store, role: str = "translate", item: str = "titanic", prompt_hash: str = "p1"):
    async with LLM(settings, store, stage="test") as llm:
        return await llm.ask(role=role, messages=MESSAGES, item=item, prompt_hash=prompt_hash)


def refusal_lines(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records if "does not take" in record.getMessage()]


async def test_a_role_table_sends_its_own_parameters(llm_server, llm_settings, store):
    settings = with_models(llm_settings, translate={"model": "openai:gpt-5.5-2026-04-23", "temperature": 0,
                                                    "reasoning_effort": "low", "max_output_tokens": 1234})
    await ask(settings, store)
    await ask(settings, store, role="tag")

    translate, tag = llm_server.requests
    assert (translate.body["temperature"], translate.body["reasoning_effort"], translate.body["max_tokens"]) == (0, "low", 1234)
    # tag has no table: [llm]'s max_output_tokens, no temperature (the model's default), no reasoning effort
    assert tag.body["max_tokens"] == 4096 and "temperature" not in tag.body and "reasoning_effort" not in tag.body


async def test_a_refused_temperature_is_dropped_for_that_model_for_the_rest_of_the_run(llm_server, llm_settings,
                                                                                       store, caplog):
    llm_server.refuse_parameter("temperature", model="gpt-5.5-2026-04-23")
    settings = with_models(llm_settings, translate={"model": "openai:gpt-5.5-2026-04-23", "temperature": 0})
    with caplog.at_level(logging.WARNING, logger="curation.llm"):
        async with LLM(settings, store, stage="translate") as llm:
            first = await llm.ask(role="translate", messages=MESSAGES, item="titanic", prompt_hash="p1")
            second = await llm.ask(role="translate", messages=MESSAGES + [{"role": "user", "content": "again"}],
                                   item="house-prices", prompt_hash="p1")

    assert first.text == "ok" and second.text == "ok"
    refused, retried, later = llm_server.requests
    assert refused.body["temperature"] == 0 and "temperature" not in retried.body and "temperature" not in later.body
    assert refusal_lines(caplog) == [
        "openai:gpt-5.5-2026-04-23 does not take temperature (Unsupported value: 'temperature' does not support 0 "
        "with this model. Only the default (1) value is supported.); leaving it out for the rest of the run"]
    # the cache key is that of the configured request: a rerun with the same config pays nothing
    assert (await ask(settings, store)).cached and llm_server.count() == 3


async def test_the_fallback_is_per_model(llm_server, llm_settings, store):
    llm_server.refuse_parameter("temperature", model="gpt-5.5-2026-04-23")
    settings = with_models(llm_settings, translate={"model": "openai:gpt-5.5-2026-04-23", "temperature": 0},
                           tag={"model": "openai:gpt-5.4-mini-2026-03-17", "temperature": 0})
    async with LLM(settings, store, stage="test") as llm:
        await llm.ask(role="translate", messages=MESSAGES, item="a")
        await llm.ask(role="tag", messages=MESSAGES, item="b")
    assert [r.body.get("temperature") for r in llm_server.requests] == [0, None, 0]


async def test_a_refused_max_tokens_becomes_max_completion_tokens(llm_server, llm_settings, store, caplog):
    llm_server.refuse_parameter("max_tokens")
    with caplog.at_level(logging.WARNING, logger="curation.llm"):
        answer = await ask(llm_settings, store)
    assert answer.text == "ok"
    refused, retried = llm_server.requests
    assert refused.body["max_tokens"] == 4096 and retried.body["max_completion_tokens"] == 4096
    assert "max_tokens" not in retried.body
    assert refusal_lines(caplog)[0].endswith("sending max_completion_tokens instead for the rest of the run")


async def test_a_refused_reasoning_effort_is_dropped(llm_server, llm_settings, store):
    llm_server.refuse_parameter("reasoning_effort")
    settings = with_models(llm_settings, translate={"model": "openai:gpt-5.5-2026-04-23", "reasoning_effort": "high"})
    await ask(settings, store)
    assert [r.body.get("reasoning_effort") for r in llm_server.requests] == ["high", None]


async def test_anthropic_effort_goes_in_output_config_and_is_dropped_when_refused(llm_server, llm_settings, store):
    settings = with_models(llm_settings, refine={"model": "anthropic:claude-sonnet-5-5", "reasoning_effort": "low"})
    await ask(settings, store, role="refine", item="a")
    assert llm_server.requests[-1].body["output_config"] == {"effort": "low"}

    llm_server.refuse_parameter("output_config.effort")
    await ask(settings, store, role="refine", item="b", prompt_hash="p2")
    refused, retried = llm_server.requests[-2:]
    assert refused.body["output_config"] == {"effort": "low"} and "output_config" not in retried.body


async def test_a_claude_model_refusing_forced_tool_use_answers_through_json_schema(llm_server, llm_settings, store,
                                                                                   caplog):
    llm_server.refuse_parameter("tool_choice", model="claude-sonnet-5-5")
    llm_server.respond_with(lambda request: {"grade": "C"})
    with caplog.at_level(logging.WARNING, logger="curation.llm"):
        async with LLM(llm_settings, store, stage="describe") as llm:
            first = await llm.ask(role="refine", messages=MESSAGES, schema=Grade, item="a")
            second = await llm.ask(role="refine", messages=MESSAGES, schema=Grade, item="b", prompt_hash="other")

    assert first.parsed == Grade(grade="C") and second.parsed == Grade(grade="C")
    assert [r.mode for r in llm_server.requests] == ["tool", "json_schema", "json_schema"]
    assert llm_server.requests[1].schema["properties"]["grade"]["enum"] == ["A", "B", "C", "D"]
    [line] = refusal_lines(caplog)
    assert line.startswith('anthropic:claude-sonnet-5-5 does not take tool_choice (tool_choice: type "tool" and "any" '
                           'are not supported for this model.)')
    assert line.endswith("asking for its JSON-schema output instead of a forced tool call for the rest of the run")


async def test_anthropic_temperature_is_sent_when_set_and_dropped_when_deprecated(llm_server, llm_settings, store):
    llm_server.refuse_parameter("temperature", model="claude-sonnet-5-5")
    settings = with_models(llm_settings, refine={"model": "anthropic:claude-sonnet-5-5", "temperature": 0.2})
    assert (await ask(settings, store, role="refine")).text == "ok"
    assert [r.body.get("temperature") for r in llm_server.requests] == [0.2, None]


async def test_a_400_that_names_no_parameter_still_fails_the_item(llm_server, llm_settings, store):
    llm_server.script(bad_request("The model `gpt-5.5-2026-04-23` does not exist or you do not have access to it."))
    with pytest.raises(LLMCallFailed):
        await ask(llm_settings, store)
    assert llm_server.count() == 1


async def test_a_parameter_refused_even_when_left_out_fails_instead_of_looping(llm_server, llm_settings, store):
    llm_server.refuse_parameter("max_tokens")
    llm_server.refuse_parameter("max_completion_tokens")
    with pytest.raises(LLMCallFailed, match="max_completion_tokens"):
        await ask(llm_settings, store)
    assert llm_server.count() == 3


def test_a_role_table_in_curate_toml(project):
    text = (project / "curate.toml").read_text(encoding="utf-8").replace(
        'translate = "openai:gpt-5.5-2026-04-23"',
        'translate = { model = "openai:gpt-5.5-2026-04-23", temperature = 0, reasoning_effort = "low", '
        'max_output_tokens = 2048 }')
    (project / "curate.toml").write_text(text, encoding="utf-8")
    settings = load_settings(project / "curate.toml")
    assert settings.models.translate == "openai:gpt-5.5-2026-04-23"  # what stages, cards and manifests show
    params = settings.role_parameters("translate")
    assert (params.temperature, params.reasoning_effort, params.max_output_tokens) == (0, "low", 2048)


@pytest.mark.parametrize(("table", "message"), [
    ('translate = { temperature = 0 }', 'models: the table for translate needs model = "provider:model"'),
    ('translate = { model = "openai:gpt-5.5-2026-04-23", temprature = 0 }', "unknown key models.translate.temprature"),
    ('translate = { model = "openai:gpt-5.5-2026-04-23", reasoning_effort = "extreme" }', "models.translate.reasoning_effort"),
    ('refine = { model = "anthropic:claude-sonnet-5-5", reasoning_effort = "none" }',
     "models.refine: reasoning_effort 'none' is not an Anthropic effort (low, medium, high, xhigh, max)"),
])
def test_a_wrong_role_table_is_one_line_naming_the_key(project, table, message):
    text = (project / "curate.toml").read_text(encoding="utf-8")
    role = table.split(" ")[0]
    start = text.index(f"{role} = ", text.index("[models]"))
    text = text[:start] + table + text[text.index("\n", start):]
    (project / "curate.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_settings(project / "curate.toml")
    assert message in str(error.value) and "\n" not in str(error.value)


def test_pointed_at_keeps_role_tables(llm_server, settings):
    settings = with_models(settings, tag={"model": "openai:gpt-5.4-mini-2026-03-17", "temperature": 0.5})
    assert pointed_at(settings, llm_server).role_parameters("tag").temperature == 0.5
