"""The models a fresh clone uses are ones the installed SDKs list, and each priced one says where its price is from."""

from __future__ import annotations

import re
import tomllib
import typing
from pathlib import Path

import pytest

from curation.config import DEFAULT_MODELS, ModelSettings, Settings, load_settings
from curation.new_project import create_project, template_root

REPO = Path(__file__).resolve().parents[1]


def _literals(annotation: object) -> set[str]:
    """Every string Literal inside a (possibly nested) Union/Literal type alias."""
    if typing.get_origin(annotation) is typing.Literal:
        return {value for value in typing.get_args(annotation) if isinstance(value, str)}
    return set().union(*(_literals(arg) for arg in typing.get_args(annotation)))


def listed_models() -> dict[str, set[str]]:
    """The model names the installed SDKs know, by provider kind."""
    from anthropic.types import ModelParam
    from openai.types import ChatModel

    return {"openai": _literals(ChatModel), "anthropic": _literals(ModelParam)}


def unlisted(models: dict[str, str], settings: Settings) -> list[str]:
    """`role = provider:model` entries whose model the SDK of the provider's kind does not list."""
    listed = listed_models()
    wrong = []
    for role, spec in models.items():
        provider, _, model = spec.partition(":")
        kind = settings.providers[provider].kind
        if model not in listed[kind]:
            wrong.append(f"{role} = {spec}")
    return wrong


def role_models(settings: Settings) -> dict[str, str]:
    """Every role under [models] (whatever roles exist now, e.g. qe too) with its provider:model."""
    return {role: value for role in ModelSettings.model_fields
            if isinstance(value := getattr(settings.models, role), str)}


def test_the_sdks_list_models_at_all():
    listed = listed_models()
    assert len(listed["openai"]) > 20 and len(listed["anthropic"]) > 5


def test_the_settings_defaults_name_listed_models():
    settings = Settings()
    assert unlisted(role_models(settings), settings) == []


def test_the_repository_config_names_listed_models():
    settings = load_settings(REPO / "curate.toml")
    assert unlisted(role_models(settings), settings) == []


def test_a_new_project_names_listed_models(tmp_path: Path):
    create_project(tmp_path / "bench")
    settings = load_settings(tmp_path / "bench" / "curate.toml")
    assert (template_root() / "curate.toml").exists()
    assert unlisted(role_models(settings), settings) == []


def test_an_unlisted_model_is_caught():
    settings = Settings()
    assert unlisted({"refine": "anthropic:claude-3-5-sonnet-latest"}, settings) == [
        "refine = anthropic:claude-3-5-sonnet-latest"]


@pytest.mark.parametrize("page", ["README.md", *sorted(str(path.relative_to(REPO))
                                                     for path in (REPO / "docs").rglob("*.md"))])
def test_the_docs_examples_name_listed_models(page: str):
    """Every `openai:...` / `anthropic:...` the README and the docs pages show is a model the SDKs list."""
    listed = listed_models()
    text = (REPO / page).read_text(encoding="utf-8")
    named = set(re.findall(r"\b(openai|anthropic):([A-Za-z0-9][\w.\-]*[A-Za-z0-9])", text))
    assert sorted(f"{kind}:{model}" for kind, model in named if model not in listed[kind]) == []


def test_the_docs_name_the_default_models():
    text = "".join(path.read_text(encoding="utf-8") for path in [REPO / "README.md", *(REPO / "docs").rglob("*.md")])
    assert set(DEFAULT_MODELS.values()) <= set(re.findall(r"\b(?:openai|anthropic):[\w.\-]*[A-Za-z0-9]", text))


def test_the_defaults_match_the_repository_config():
    """The Settings defaults (used without a curate.toml) are the shipped config's models and prices."""
    data = tomllib.loads((REPO / "curate.toml").read_text(encoding="utf-8"))
    defaults = Settings()
    assert data["models"] == role_models(defaults)
    assert {model: {k: v for k, v in price.model_dump().items() if v is not None}
            for model, price in defaults.prices.items()} == data["prices"]


@pytest.mark.parametrize("model", sorted(tomllib.loads((REPO / "curate.toml").read_text(encoding="utf-8"))["prices"]))
def test_every_price_says_where_and_when_it_was_read(model: str):
    text = (REPO / "curate.toml").read_text(encoding="utf-8")
    header = f'[prices."{model}"]'
    comment = text[:text.index(header)].rstrip().rsplit("\n\n", 1)[-1]
    assert "https://" in comment and "read 2026-11-23" in comment, f"{header} has no source and date above it"
