"""Configuration: the repository's curate.toml loads, and every mistake in it is one line naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.config import ConfigError, load_settings

REPO = Path(__file__).resolve().parents[1]


def test_the_repository_config_loads_with_the_thirteen_languages():
    settings = load_settings(REPO / "curate.toml", env={})
    assert settings.project.languages == ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"]
    assert settings.path("competitions") == REPO / "data" / "sample"
    assert settings.ingest.notebook_token_budget == 6000
    assert settings.ingest.meta_kaggle.exclude_classroom is True


def write(tmp_path: Path, extra: str, base: str = "") -> Path:
    path = tmp_path / "curate.toml"
    path.write_text(base + extra, encoding="utf-8")
    return path


@pytest.mark.parametrize("toml, message", [
    ("[ingest]\ntop_notebook = 3\n", "curate.toml: unknown key ingest.top_notebook; check its spelling against the documented keys in README.md"),
    ("[ingest]\ntop_notebooks = 0\n", "curate.toml: ingest.top_notebooks: Input should be greater than or equal to 1"),
    ("[ingest]\nkeep_markdown = \"sometimes\"\n", "curate.toml: ingest.keep_markdown: Input should be a valid boolean, unable to interpret input"),
    ("[providers.openai]\nkind = \"openai\"\napi_key = \"sk-abc\"\n",
     "curate.toml: providers.openai.api_key looks like a secret; remove it and set the environment variable OPENAI_API_KEY instead"),
    ("[providers.anthropic]\napi_key = \"sk-ant\"\n",
     "curate.toml: providers.anthropic.api_key looks like a secret; remove it and set the environment variable ANTHROPIC_API_KEY instead"),
    ("[providers.groq]\nkind = \"openai\"\napi_key_env = \"GROQ_API_KEY\"\napi_key = \"gsk\"\n",
     "curate.toml: providers.groq.api_key looks like a secret; remove it and set the environment variable GROQ_API_KEY instead"),
    ("hf_token = \"hf_abc\"\n", "curate.toml: hf_token looks like a secret; remove it and set the environment variable HF_TOKEN instead"),
    ("[project]\nlanguages = [\"en\", \"xx\"]\n", "curate.toml: project.languages: unknown language code 'xx'; valid codes: ar, be, zh, en, ru, fr, it, ja, kk, pl, ro, es, tr, uk"),
    ("[models]\ndescribe = \"gpt-4o\"\n", "curate.toml: models.describe: 'gpt-4o' is not 'provider:model' (e.g. 'openai:gpt-5.5-2026-04-23')"),
    ("[models]\nqe = \"nowhere:some-model\"\n",
     "models.qe uses provider 'nowhere', which is not under [providers] (known: anthropic, openai)"),
    ("[ingest.meta_kaggle]\nenabled_after = \"last spring\"\n",
     "curate.toml: ingest.meta_kaggle.enabled_after: Input should be a valid date or datetime"),
    ("[ingest\n", "not valid TOML"),
])
def test_config_mistakes_are_one_line_naming_the_key(tmp_path, toml, message):
    with pytest.raises(ConfigError) as error:
        load_settings(write(tmp_path, toml), env={})
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_the_cli_prints_config_mistakes_as_one_line_without_a_traceback(tmp_path):
    path = write(tmp_path, "[ingest]\nnotebook_token_budget = \"lots\"\n")
    result = CliRunner().invoke(app, ["status", "--config", str(path)])
    assert result.exit_code == 2
    assert result.output.strip() == "error: curate.toml: ingest.notebook_token_budget: Input should be a valid integer, unable to parse string as an integer"
    assert "Traceback" not in result.output


def test_an_unknown_language_on_the_command_line_lists_the_valid_codes(tmp_path):
    path = write(tmp_path, "")
    result = CliRunner().invoke(app, ["status", "--config", str(path), "--lang", "kk,xx"])
    assert result.exit_code == 2
    assert "unknown language code 'xx'; valid codes: ar, be, zh" in result.output


def test_secrets_come_from_the_environment_only(tmp_path):
    settings = load_settings(write(tmp_path, ""), env={"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": "http://localhost:9/v1"})
    assert settings.secrets.openai_api_key.get_secret_value() == "sk-test"
    assert "sk-test" not in repr(settings)
    assert settings.base_url("openai", settings.providers["openai"]) == "http://localhost:9/v1"


def test_an_explicit_config_that_does_not_exist_says_how_to_make_one(tmp_path):
    with pytest.raises(ConfigError, match="no such file; run `curate init DIR` to create a project"):
        load_settings(tmp_path / "missing.toml")


def test_a_command_run_from_a_project_subfolder_uses_that_project(project, monkeypatch):
    assert CliRunner().invoke(app, ["ingest"]).exit_code == 0
    monkeypatch.chdir(project / "data" / "sample" / "titanic")

    result = CliRunner().invoke(app, ["status", "--json"])

    assert result.exit_code == 0, result.output
    assert '"competition": "titanic"' in result.stdout and '"competition": "spaceship-titanic"' in result.stdout
    assert not (project / "data" / "sample" / "titanic" / "data").exists()  # no stray store in the subfolder
