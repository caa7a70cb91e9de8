"""No secret a curator puts in the configuration is printed or written.

A key pasted where a variable's name belongs (`api_key_env = "sk-proj-…"`) is refused when the configuration loads,
in one line that names the setting and does not show the value. The credentials of a base URL (user:password@,
a token in the query string), from curate.toml or OPENAI_BASE_URL / ANTHROPIC_BASE_URL, are *** wherever the URL
is echoed: doctor, run, errors, status --json, the call log, warnings; and a server that repeats them in its answer
(a 404 naming the path asked for) has them hidden before its words are printed or stored. Each test then looks for
the secrets in every output and in every file the commands wrote: the store, review sheets, annotations, reports.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from urllib.parse import quote

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.config import ConfigError, load_settings
from curation.redaction import hide_credentials, looks_like_key, redact_url, shaped_like_key
from tests.conftest import commands_on
from tests.test_cli_doctor import ANTHROPIC_MODELS, OPENAI_MODELS
from tests.test_cli_run import Model


runner = CliRunner()

KEY = "sk-proj-AbCdEf0123456789GhIjKlMnOpQrStUvWxYz"
ANTHROPIC_KEY = "sk-ant-api03-ZyXwVu9876543210TsRqPoNmLk"
USER, PASSWORD, TOKEN = "curator-7f3a", "Pa55w0rd-9d1c", "qTok3n-5b8e2a"
SECRETS = (KEY, ANTHROPIC_KEY, USER, PASSWORD, TOKEN)


def curate(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "400"})


def with_credentials(url: str) -> str:
    return url.replace("http://", f"http://{USER}:{PASSWORD}@", 1)


def leaks(project: Path, outputs: list[str]) -> list[str]:
    """Where any secret shows: an output, or a file under the project (each member of a workbook's zip) other
    than curate.toml, where the curator put it."""
    found = []
    patterns = [form.encode() for secret in SECRETS for form in {secret, quote(secret, safe="")}]
    for number, text in enumerate(outputs):
        found += [f"output {number}: {secret}" for secret in SECRETS if secret in text]
    for path in project.rglob("*"):
        if not path.is_file() or path == project / "curate.toml":
            continue
        blobs = [(str(path), path.read_bytes())]
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                blobs += [(f"{path}:{name}", archive.read(name)) for name in archive.namelist()]
        found += [f"{where}: {pattern.decode()}" for where, blob in blobs for pattern in patterns if pattern in blob]
    return found


def paste_key(project: Path, value: str) -> None:
    config = project / "curate.toml"
    text = config.read_text(encoding="utf-8")
    assert '[providers.openai]\nkind = "openai"\n' in text
    config.write_text(text.replace('[providers.openai]\nkind = "openai"\n',
                                   f'[providers.openai]\nkind = "openai"\napi_key_env = "{value}"\n'), encoding="utf-8")


@pytest.mark.parametrize("command", [["doctor"], ["run"], ["describe"], ["status", "--json"], ["costs"]])
def test_a_key_pasted_as_api_key_env_is_refused_at_load_without_being_shown(project, llm_server, monkeypatch, command):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)  # before, run printed "set sk-proj-… (or …)"
    paste_key(project, KEY)

    result = curate(*command)

    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [
        "error: curate.toml: providers.openai.api_key_env holds what looks like a key, not the name of an environment "
        "variable; put the variable's NAME there (e.g. OPENAI_API_KEY) and the key in the environment under that name"]
    assert not leaks(project, [result.output]) and KEY[:10] not in result.output
    assert llm_server.count() == 0


@pytest.mark.parametrize("value, key", [
    ("OPENAI_API_KEY", False), ("GROQ_API_KEY", False), ("TOGETHER_KEY", False), ("AZURE_OPENAI_API_KEY_2", False),
    ("OpenRouterKey", False), ("my_key", False),
    (KEY, True), (ANTHROPIC_KEY, True), ("sk-abc", True), ("hf_AbCdEfGhIjKlMnOpQrStUvWxYz12345678", True),
    ("gsk_0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d", True), ("0123456789abcdef0123456789abcdef", True),
    ("xAi9sPq2LmN7vBt4RcW8zYk3", True), ("AIzaSyA1b2C3d4E5f6G7h8", True), ("OPENAI API KEY", True),
])
def test_what_looks_like_a_key_rather_than_a_variable_name(value, key):
    assert looks_like_key(value) is key


def test_a_key_given_with_a_key_in_its_variable_is_refused_naming_neither(tmp_path):
    config = tmp_path / "curate.toml"
    config.write_text(f'[providers.groq]\nkind = "openai"\napi_key = "{KEY}"\napi_key_env = "{ANTHROPIC_KEY}"\n',
                      encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_settings(config, env={})
    assert "providers.groq.api_key_env holds what looks like a key" in str(error.value)
    assert not any(secret in str(error.value) for secret in SECRETS)


def test_a_base_url_that_is_not_an_address_is_refused_without_being_shown(tmp_path):
    config = tmp_path / "curate.toml"
    config.write_text(f'[providers.openai]\nkind = "openai"\nbase_url = "{TOKEN}.example:8000/v1"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_settings(config, env={})
    assert str(error.value).startswith("curate.toml: providers.openai.base_url: not an http:// or https:// address")
    assert TOKEN not in str(error.value)


@pytest.mark.parametrize("setting, written", [
    ("providers.openai.base_url", f'[providers.openai]\nkind = "openai"\nbase_url = "{KEY}"\n'),
    ("models.describe", f'[models]\ndescribe = "{ANTHROPIC_KEY}"\n'),
    ("tag.vocabulary", f'[tag]\nvocabulary = ["vision", "{KEY}"]\n'),
    ("project.name", f'[project]\nname = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz12345678"\n'),
])
def test_a_key_pasted_into_any_other_setting_is_refused_without_being_shown(tmp_path, setting, written):
    """Before, a key in a model was echoed by the error ("models.describe: 'sk-proj-…' is not 'provider:model'"),
    and one in a list or the project's name was taken as it was."""
    config = tmp_path / "curate.toml"
    config.write_text(written, encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_settings(config, env={})
    assert str(error.value) == (f"curate.toml: {setting} holds what looks like a key; keys never go in curate.toml: "
                                "remove it and put the key in the environment (a provider's api_key_env names the "
                                "variable)")


@pytest.mark.parametrize("value, key", [
    (KEY, True), (ANTHROPIC_KEY, True), ("AIzaSyA1b2C3d4E5f6G7h8i9", True), ("sk-abc", False),
    ("gpt-5.5-2026-04-23", False), ("openai:gpt-5.5-2026-04-23", False), ("http://sk-proj-host:8000/v1", False),
    ("sk-learn classification tasks", False), ("skateboarding-and-skiing-2024", False),
])
def test_what_has_the_shape_of_a_key_wherever_it_is_written(value, key):
    assert shaped_like_key(value) is key


@pytest.mark.parametrize("url, shown", [
    ("https://user:token123@host.example/v1", "https://***@host.example/v1"),
    ("https://token123@host.example/v1", "https://***@host.example/v1"),
    ("https://host.example/v1?api-key=abc123&api-version=2024-06-01", "https://host.example/v1?api-key=***&api-version=***"),
    ("https://host.example/v1?abc123", "https://host.example/v1?***"),
    ("http://localhost:8080/v1", "http://localhost:8080/v1"),
    (KEY, "(not a URL)"),
])
def test_a_url_is_shown_without_its_credentials(url, shown):
    assert redact_url(url) == shown


def test_a_servers_words_lose_the_credentials_of_the_url_they_repeat():
    url = f"http://{USER}:{quote(PASSWORD)}@host/v1?token={TOKEN}"
    said = f"Error code: 404 - unknown path /v1/?token={TOKEN}chat/completions (as {USER}:{PASSWORD})"
    assert hide_credentials(said, url) == "Error code: 404 - unknown path /v1/?token=***chat/completions (as ***:***)"
    assert hide_credentials("HTTP 500 (try again)", url) == "HTTP 500 (try again)"


def test_credentials_in_base_urls_are_hidden_in_every_output_and_file(project, llm_server, monkeypatch, caplog):
    commands_on(project, llm_server, monkeypatch, "ru")
    llm_server.respond_with(Model())
    llm_server.models.known = OPENAI_MODELS | ANTHROPIC_MODELS
    monkeypatch.setenv("OPENAI_BASE_URL", with_credentials(llm_server.openai_base_url))
    monkeypatch.setenv("ANTHROPIC_BASE_URL", with_credentials(llm_server.anthropic_base_url))
    monkeypatch.setenv("ANTHROPIC_API_KEY", ANTHROPIC_KEY)
    shown = with_credentials(llm_server.openai_base_url).replace(f"{USER}:{PASSWORD}", "***")

    doctor = curate("doctor")
    run = curate("run")
    outputs = [doctor.output, run.output] + [curate(*command).output for command in (
        ["status", "--json"], ["status", "--detail"], ["costs"], ["costs", "--json"], ["batches"], ["report"])]

    assert doctor.exit_code == 0, doctor.output
    assert f"ok    key: OPENAI_API_KEY not set; none needed for the server at {shown}" in doctor.output
    assert f"ok    endpoint {shown}: answers (openai)" in doctor.output
    assert run.exit_code == 0, run.output
    assert any(project.glob("review/ru/*.xlsx"))
    assert leaks(project, outputs + [caplog.text]) == []


@pytest.mark.parametrize("source", ["environment", "curate.toml"])
def test_an_unreachable_server_is_named_without_its_credentials(project, monkeypatch, caplog, source):
    from tests.llm.test_unreachable import closed_port

    port = closed_port()
    url = f"http://{USER}:{PASSWORD}@127.0.0.1:{port}/v1?token={TOKEN}"
    if source == "environment":
        monkeypatch.setenv("OPENAI_BASE_URL", url)
    else:
        config = project / "curate.toml"
        config.write_text(config.read_text(encoding="utf-8").replace(
            '[providers.openai]\nkind = "openai"\n', f'[providers.openai]\nkind = "openai"\nbase_url = "{url}"\n'),
            encoding="utf-8")
    assert curate("ingest").exit_code == 0

    describe = curate("describe")
    doctor = curate("doctor")

    assert describe.exit_code == 2
    assert (f"error: cannot reach http://***@127.0.0.1:{port}/v1/?token=*** (connection refused; 3 attempts)"
            in describe.output)
    assert f"FAIL  endpoint http://***@127.0.0.1:{port}/v1/?token=***: no answer (connection refused)" in doctor.output
    status = curate("status", "--json").output
    assert leaks(project, [describe.output, doctor.output, status, caplog.text]) == []


def test_a_server_that_repeats_the_token_in_its_answer_has_it_hidden(project, llm_server, monkeypatch, caplog):
    # The SDK puts the path after the query (…/v1/?token=…chat/completions); the fake's 404 names the path it got.
    monkeypatch.setenv("OPENAI_BASE_URL", f"{llm_server.openai_base_url}?token={TOKEN}")
    llm_server.respond_with(Model())
    assert curate("ingest").exit_code == 0

    describe = curate("describe", "--competition", "titanic")

    assert describe.exit_code == 1, describe.output
    assert "HTTP 404 (Error code: 404 - unknown path /v1/?token=***chat/completions)" in describe.output
    batch = curate("describe", "--competition", "spaceship-titanic", "--batch")
    assert "unknown path /v1/?token=***files" in batch.output + caplog.text, batch.output
    outputs = [describe.output, batch.output, curate("status", "--detail").output, curate("doctor").output, caplog.text]
    assert leaks(project, outputs) == []
