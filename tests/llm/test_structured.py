"""Structured and plain answers on both providers, through the real SDKs against the fake server."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel

from curation.llm import LLM, LLMCallFailed
from tests.fakes.llm_server import answer, pointed_at

MESSAGES = [{"role": "system", "content": "You grade task descriptions."},
            {"role": "user", "content": "Grade the description of titanic."}]


class Grade(BaseModel):
    grade: Literal["A", "B", "C", "D"]
    reasons: list[str]


async def test_openai_structured_output_sends_the_schema_and_parses_the_answer(llm_server, llm_settings, store):
    llm_server.respond_with(lambda request: {"grade": "C", "reasons": ["clear target"]})
    async with LLM(llm_settings, store, stage="describe") as llm:
        result = await llm.ask(role="score", messages=MESSAGES, schema=Grade, item="titanic", prompt_hash="p1")

    assert result.parsed == Grade(grade="C", reasons=["clear target"])
    assert not result.cached
    [request] = llm_server.requests
    assert request.api == "openai"
    assert request.mode == "json_schema"
    assert request.body["response_format"]["json_schema"]["name"] == "Grade"
    assert set(request.schema["properties"]) == {"grade", "reasons"}
    assert request.body["model"] == "gpt-5.5-2026-04-23"
    assert request.messages == MESSAGES


async def test_anthropic_structured_output_is_a_forced_tool_call(llm_server, llm_settings, store):
    llm_server.respond_with(lambda request: {"grade": "B", "reasons": ["names the metric"]})
    async with LLM(llm_settings, store, stage="describe") as llm:
        result = await llm.ask(role="refine", messages=MESSAGES, schema=Grade, item="titanic")

    assert result.parsed.grade == "B"
    [request] = llm_server.requests
    assert request.api == "anthropic"
    assert request.mode == "tool"
    assert request.system_text == "You grade task descriptions."
    assert [m["role"] for m in request.messages] == ["user"]
    assert set(request.schema["properties"]) == {"grade", "reasons"}
    assert request.body["max_tokens"] == llm_settings.llm.max_output_tokens


async def test_anthropic_native_json_schema_when_configured(llm_server, settings, store):
    native = pointed_at(settings, llm_server, structured_output="json_schema")
    llm_server.respond_with(lambda request: {"grade": "A", "reasons": []})
    async with LLM(native, store, stage="describe") as llm:
        result = await llm.ask(role="refine", messages=MESSAGES, schema=Grade, item="titanic")

    assert result.parsed.grade == "A"
    [request] = llm_server.requests
    assert request.mode == "json_schema" and "tools" not in request.body
    assert set(request.schema["properties"]) == {"grade", "reasons"}


@pytest.mark.parametrize("role", ["describe", "refine"])
async def test_plain_text_answers_on_both_providers(llm_server, llm_settings, store, role):
    llm_server.script(answer("A clear description.", tokens_in=100, tokens_out=20))
    async with LLM(llm_settings, store, stage="describe") as llm:
        result = await llm.ask(role=role, messages=MESSAGES, item="titanic")

    assert result.text == "A clear description."
    assert result.parsed is None
    assert (result.usage.tokens_in, result.usage.tokens_out) == (100, 20)
    assert llm_server.requests[0].mode is None


async def test_json_mode_setting_sends_json_object_with_the_schema_in_the_system_message(llm_server, settings, store):
    local = pointed_at(settings, llm_server, structured_output="json_mode")
    llm_server.respond_with(lambda request: {"grade": "D", "reasons": []})
    async with LLM(local, store, stage="describe") as llm:
        result = await llm.ask(role="score", messages=MESSAGES, schema=Grade, item="titanic")

    assert result.parsed.grade == "D"
    [request] = llm_server.requests
    assert request.body["response_format"] == {"type": "json_object"}
    assert '"grade"' in request.system_text and request.system_text.startswith("You grade task descriptions.")


async def test_auto_falls_back_to_json_mode_when_the_server_rejects_json_schema_and_remembers(llm_server, llm_settings, store):
    llm_server.reject_json_schema = True  # like llama.cpp's server
    llm_server.respond_with(lambda request: {"grade": "C", "reasons": ["ok"]})
    async with LLM(llm_settings, store, stage="describe") as llm:
        first = await llm.ask(role="score", messages=MESSAGES, schema=Grade, item="titanic")
        other = [MESSAGES[0], {"role": "user", "content": "Grade the description of house-prices."}]
        second = await llm.ask(role="describe", messages=other, schema=Grade, item="house-prices")

    assert first.parsed.grade == second.parsed.grade == "C"
    assert [r.mode for r in llm_server.requests] == ["json_schema", "json_object", "json_object"]
    assert llm_server.answered == 2


async def test_a_json_schema_setting_does_not_fall_back(llm_server, settings, store):
    strict = pointed_at(settings, llm_server, structured_output="json_schema")
    llm_server.reject_json_schema = True
    async with LLM(strict, store, stage="describe") as llm:
        with pytest.raises(LLMCallFailed) as failed:
            await llm.ask(role="score", messages=MESSAGES, schema=Grade, item="titanic")
    assert "json_schema" in failed.value.reason and failed.value.item == "titanic"
    assert llm_server.count() == 1


async def test_an_invalid_answer_is_retried_with_the_validation_error(llm_server, llm_settings, store):
    llm_server.script({"grade": "E", "reasons": []}, {"grade": "A", "reasons": ["fixed"]})
    async with LLM(llm_settings, store, stage="describe") as llm:
        result = await llm.ask(role="score", messages=MESSAGES, schema=Grade, item="titanic")

    assert result.parsed.grade == "A"
    assert result.attempts == 2
    retry = llm_server.requests[1]
    assert retry.messages[:2] == MESSAGES
    assert retry.messages[2] == {"role": "assistant", "content": '{"grade": "E", "reasons": []}'}
    assert "grade" in retry.user_text and "Grade" in retry.user_text


@pytest.mark.parametrize("role", ["score", "refine"])
async def test_an_answer_that_never_validates_fails_the_item_after_the_bounded_retries(llm_server, llm_settings, store, role):
    llm_server.respond_with(lambda request: "not json at all")
    async with LLM(llm_settings, store, stage="describe") as llm:
        with pytest.raises(LLMCallFailed) as failed:
            await llm.ask(role=role, messages=MESSAGES, schema=Grade, item="titanic")

    assert llm_server.count() == 1 + llm_settings.llm.validation_retries
    assert failed.value.reason.startswith("no usable answer after 3 tries: the answer did not match Grade")
    [row] = store.llm_calls()
    assert row.error == failed.value.reason and row.response is None and row.attempts == 3


async def test_json_in_a_code_fence_is_read(llm_server, settings, store):
    local = pointed_at(settings, llm_server, structured_output="json_mode")
    llm_server.script('```json\n{"grade": "C", "reasons": ["fenced"]}\n```')
    async with LLM(local, store, stage="describe") as llm:
        result = await llm.ask(role="score", messages=MESSAGES, schema=Grade, item="titanic")
    assert result.parsed.reasons == ["fenced"] and llm_server.count() == 1
    async with LLM(local, store, stage="describe") as llm:
        again = await llm.ask(role="score", messages=MESSAGES, schema=Grade, item="titanic")
    assert again.cached and again.parsed == result.parsed and llm_server.count() == 1
