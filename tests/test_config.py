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
    ("[ingest]\ntop_notebook = 3\n", "curate.toml: unknown key ingest.top_notebook; check its spelling against the documented keys in docs/configuration.md"),
    ("[ingest]\ntop_notebooks = 0\n", "curate.toml: ingest.top_notebooks: Input should be greater than or equal to 1"),
    ("[ingest]\nkeep_markdown = \"sometimes\"\n", "curate.toml: ingest.keep_markdown: Input should be a valid boolean, unable to interpret input"),
    ("[providers.openai]\nkind = \"openai\"\napi_key = \"sk-abc\"\n",
     "curate.toml: providers.openai.api_key looks like a secret; remove it and set the environment variable OPENAI_API_KEY instead"),
    ("[providers.anthropic]\napi_key = \"sk-ant\"\n",
     "curate.toml: providers.anthropic.api_key looks like a secret; remove it and set the environment variable ANTHROPIC_API_KEY instead"),
    ("[providers.groq]\nkind = \"openai\"\napi_key_env = \"GROQ_API_KEY\"\napi_key = \"gsk\"\n",
     "curate.toml: providers.groq.api_key looks like a secret; remove it and set the environment variable GROQ_API_KEY instead"),
    ("hf_token = \"hf_abc\"\n", "curate.toml: hf_token looks like a secret; remove it and set the environment variable HF_TOKEN instead"),
    ("[project]\nlanguages = [\"en\", \"xx\"]\n", "curate.toml: project.languages: unknown language code 'xx' (nearest: xh Xhosa); give one of the 75 ISO 639-1 codes the checks can read (lingua's languages): `curate languages --all` lists them"),
    ("[project]\nlanguages = [\"en\", \"ne\"]\n", "curate.toml: project.languages: unknown language code 'ne' (nearest: nl Dutch, nb Norwegian Bokmål, nn Norwegian Nynorsk); give one of the 75"),
    ("[languages.de]\nharness = \"German\"\n", "curate.toml: languages.de: de is not in [project] languages; add it there or remove [languages.de]"),
    ("[languages.zz]\nharness = \"Z\"\n", "curate.toml: languages.zz: unknown language code 'zz' (nearest: zh Chinese, zu Zulu)"),
    ("[project]\nlanguages = [\"en\", \"ar\", \"de\"]\n[languages.de]\nharness = \"Arab\"\n",
     "curate.toml: languages.de.harness: de and ar would both write tasks/Arab.csv; give [languages.de] harness a name of its own"),
    ("[project]\nlanguages = [\"en\", \"de\"]\n[languages.de]\nharness = \"tasks/German\"\n",
     "curate.toml: languages.de.harness: 'tasks/German' is not a file name; give the name the harness reads, e.g. \"German\" for tasks/German.csv"),
    ("[project]\nlanguages = [\"en\", \"de\"]\n[languages.de]\nfile = \"German\"\n",
     "curate.toml: unknown key languages.de.file; check its spelling against the documented keys in docs/configuration.md"),
    ("[translate.length_ratio]\nde = [1.5, 1.2]\n", "curate.toml: translate.length_ratio: de = [1.5, 1.2]: give [lowest, highest] ratio, 0 < lowest < highest"),
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


def test_an_unknown_language_on_the_command_line_names_the_nearest_codes(tmp_path):
    path = write(tmp_path, "")
    result = CliRunner().invoke(app, ["status", "--config", str(path), "--lang", "kk,deu"])
    assert result.exit_code == 2
    assert "unknown language code 'deu' (nearest: de German); give one of the 75 ISO 639-1 codes" in result.output
    assert "Traceback" not in result.output


def test_a_language_beyond_ml2b_is_added_by_its_code_and_named_by_the_project(tmp_path):
    # Before: "project.languages: unknown language code 'de'; valid codes: ar, be, zh, ...".
    settings = load_settings(write(tmp_path, '[project]\nlanguages = ["en", "de", "hi", "ko"]\n'
                                             '[languages.hi]\nharness = "Hindi_IN"\nnative = "हिंदी"\n'), env={})
    assert settings.project.targets == ["de", "hi", "ko"]
    german, hindi = settings.language("de"), settings.language("hi")
    assert (german.english, german.native, german.harness, german.script) == ("German", "Deutsch", "German", "Latin")
    assert (hindi.english, hindi.native, hindi.harness, hindi.script) == ("Hindi", "हिंदी", "Hindi_IN", "Devanagari")
    assert settings.language("ar").harness == "Arab"  # the harness's own spelling stays


def test_length_bounds_set_for_one_language_keep_the_others(tmp_path):
    settings = load_settings(write(tmp_path, "[translate.length_ratio]\nde = [0.7, 2.0]\n"), env={})
    assert settings.translate.length_ratio["de"] == (0.7, 2.0)
    assert settings.translate.length_ratio["zh"] == (0.15, 0.8) and settings.translate.length_ratio["ko"] == (0.25, 1.0)
    assert settings.translate.length_ratio["default"] == (0.6, 1.9)


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
