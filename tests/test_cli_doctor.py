"""`curate doctor` against the fake LLM server: one line per key, endpoint and model, a failure named with what to
do, exit 1 when anything fails, and never a completion asked for."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from curation.cli import app

runner = CliRunner()

OPENAI_MODELS = {"gpt-5.5-2026-04-23", "gpt-5.4-mini-2026-03-17"}
ANTHROPIC_MODELS = {"claude-sonnet-5-5"}


def curate(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "400"})


def failures(result) -> list[str]:
    return [line for line in result.output.splitlines() if line.startswith("FAIL")]


@pytest.fixture
def healthy(project, llm_server, monkeypatch):
    """Both providers on the fake, which knows exactly the models curate.toml names."""
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-fake-key-value")
    llm_server.models.known = OPENAI_MODELS | ANTHROPIC_MODELS
    return project


def test_a_healthy_configuration_passes_without_a_completion(healthy, llm_server) -> None:
    result = curate("doctor")

    assert result.exit_code == 0, result.output
    assert not failures(result)
    lines = result.output.splitlines()
    assert "ok    key: ANTHROPIC_API_KEY is set" in lines
    assert f"ok    endpoint {llm_server.openai_base_url}: answers (openai)" in lines
    assert "ok    model openai:gpt-5.5-2026-04-23: exists (describe, score, translate, synthesize)" in lines
    assert "ok    model anthropic:claude-sonnet-5-5: exists (refine, task_review)" in lines
    assert "sk-ant-fake-key-value" not in result.output  # the name of the variable, never its value
    assert {model for _, model in llm_server.models.asked} == OPENAI_MODELS | ANTHROPIC_MODELS
    assert ("anthropic", "claude-sonnet-5-5") in llm_server.models.asked  # asked through the Anthropic SDK
    assert llm_server.count() == 0  # no completion request: nothing paid


def test_a_model_the_provider_does_not_know_is_one_line_naming_it_and_its_roles(healthy, llm_server) -> None:
    llm_server.models.known = {"gpt-5.5-2026-04-23"} | ANTHROPIC_MODELS

    result = curate("doctor")

    assert result.exit_code == 1
    assert failures(result) == [
        "FAIL  model openai:gpt-5.4-mini-2026-03-17: not found at " + llm_server.openai_base_url
        + " (The model `gpt-5.4-mini-2026-03-17` does not exist or you do not have access to it.); models.tag use it: "
        "set them under [models] in curate.toml to a model the provider lists"]


def test_an_unknown_anthropic_model_is_found_through_the_anthropic_api(healthy, llm_server) -> None:
    llm_server.models.known = OPENAI_MODELS

    result = curate("doctor")

    assert result.exit_code == 1
    [line] = failures(result)
    assert line.startswith("FAIL  model anthropic:claude-sonnet-5-5: not found at ") and "model: claude-sonnet-5-5" in line
    assert "models.refine, task_review use it" in line


def test_a_compatible_server_without_the_retrieve_route_is_asked_for_its_list(healthy, llm_server) -> None:
    llm_server.models.retrieve = False  # vLLM serves GET /v1/models only
    llm_server.models.known = {"gpt-5.5-2026-04-23"}

    result = curate("doctor")

    assert result.exit_code == 1
    assert "ok    model openai:gpt-5.5-2026-04-23: exists (describe, score, translate, synthesize)" in result.output
    assert [line.split(": ", 1)[0] for line in failures(result)] == [
        "FAIL  model openai:gpt-5.4-mini-2026-03-17", "FAIL  model anthropic:claude-sonnet-5-5"]
    assert "(not in the server's model list); models.tag use it" in result.output
    assert "(Error code: 404 - {'detail': 'Not Found'}); models.refine, task_review use it" in result.output


def test_a_missing_key_is_one_line_naming_the_variable_and_every_role(healthy, monkeypatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    monkeypatch.delenv("ANTHROPIC_BASE_URL")

    result = curate("doctor")

    assert result.exit_code == 1
    assert failures(result) == [
        "FAIL  key: ANTHROPIC_API_KEY is not set; models.refine, task_review (anthropic) need it: export it (or "
        "ANTHROPIC_BASE_URL), or point them under [models] at a provider you have a key for"]


def test_a_key_the_provider_refuses_is_one_line_naming_the_variable(healthy, llm_server) -> None:
    llm_server.models.keys = {"not-needed"}  # the placeholder the OpenAI-compatible side sends; the Anthropic key fails

    result = curate("doctor")

    assert result.exit_code == 1
    assert failures(result) == [f"FAIL  key: ANTHROPIC_API_KEY was refused by {llm_server.anthropic_base_url} (HTTP 401: "
                                "invalid x-api-key); check the key and its access to claude-sonnet-5-5"]
    assert "sk-ant-fake-key-value" not in result.output


def test_an_endpoint_that_is_down_is_one_line_saying_what_to_start_or_fix(healthy, monkeypatch) -> None:
    from tests.llm.test_unreachable import closed_port

    url = f"http://127.0.0.1:{closed_port()}/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", url)

    result = curate("doctor")

    assert result.exit_code == 1
    assert failures(result) == [f"FAIL  endpoint {url}: no answer (connection refused): start the server or fix "
                                "OPENAI_BASE_URL / providers.openai.base_url"]
    assert "ok    model anthropic:claude-sonnet-5-5: exists (refine, task_review)" in result.output


def test_sheets_credentials_and_the_hub_token_are_checked_when_set(healthy, fake_hub, monkeypatch, tmp_path) -> None:
    key = tmp_path / "service-account.json"
    key.write_text("{not a key", encoding="utf-8")
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(key))

    result = curate("doctor", "--json")

    assert result.exit_code == 1
    report = json.loads(result.output)
    by_what = {finding["what"]: finding for finding in report["findings"]}
    assert by_what["HF_TOKEN"] == {"status": "ok", "what": "HF_TOKEN", "detail": "accepted for fake-curator (write token)"}
    assert by_what["GOOGLE_APPLICATION_CREDENTIALS"]["status"] == "FAIL"
    assert str(key) in by_what["GOOGLE_APPLICATION_CREDENTIALS"]["detail"]
    assert fake_hub.token not in result.output


def test_a_hub_token_the_hub_refuses_fails(healthy, fake_hub, monkeypatch) -> None:
    monkeypatch.setenv("HF_TOKEN", "hf_wrong")

    result = curate("doctor")

    assert result.exit_code == 1
    assert failures(result) == ["FAIL  HF_TOKEN: refused by the Hub (HTTP 401); create a write token in your Hugging "
                                "Face settings and export HF_TOKEN"]


def test_with_quality_estimation_on_doctor_and_the_missing_key_line_name_qe_too(healthy, monkeypatch) -> None:
    toml = healthy / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('# qe = "auto"', 'qe = "anthropic:claude-sonnet-5-5"'),
                    encoding="utf-8")

    assert "ok    model anthropic:claude-sonnet-5-5: exists (refine, task_review, qe)" in curate("doctor").output
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    monkeypatch.delenv("ANTHROPIC_BASE_URL")
    monkeypatch.delenv("OPENAI_BASE_URL")
    assert "ANTHROPIC_API_KEY is not set; models.refine, qe (anthropic) need it" in curate("run").output


def test_run_without_keys_names_every_role_and_points_to_doctor(project) -> None:
    result = curate("run")

    assert result.exit_code == 2
    assert "OPENAI_API_KEY is not set; models.describe, score, tag, translate (openai) need it" in result.output
    assert "ANTHROPIC_API_KEY is not set; models.refine (anthropic) needs it" in result.output
    assert "`curate doctor`" in result.output


def test_doctor_says_what_the_checks_cover_of_each_language(healthy) -> None:
    toml = healthy / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        'languages = ["ar", "be", "zh", "en",', 'languages = ["ar", "be", "zh", "en", "de", "zu",'), encoding="utf-8")

    result = curate("doctor")

    assert result.exit_code == 0, result.output  # a language the checks cover in part is a note, not a failure
    lines = result.output.splitlines()
    assert "ok    languages: ar, be, zh, ru, fr, it, ja, kk, pl, ro, es, tr: every check, with word lists and " \
           "calibrated bounds" in lines
    assert ("note  language de: what the checks lack: no word lists (curation/checks/lexicon/de.toml), length bounds "
            "not measured, adequacy threshold not calibrated (`curate languages` says what that means)") in lines
    assert ("note  language zu: what the checks lack: no word lists (curation/checks/lexicon/zu.toml), length bounds "
            "not measured, no adequacy check (`curate languages` says what that means)") in lines
    findings = json.loads(curate("doctor", "--json").output)["findings"]
    assert {"status": "note", "what": "language de"} == {key: findings[-2][key] for key in ("status", "what")}

