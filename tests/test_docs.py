"""The docs a newcomer reads: a short README that points into docs/, a site that builds with warnings as errors (so
a broken link fails), and a configuration reference that is the settings models' own."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def load_reference_script():
    spec = importlib.util.spec_from_file_location("config_reference", REPO / "scripts" / "config_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_configuration_reference_is_the_one_the_settings_models_write():
    script = load_reference_script()
    assert (REPO / "docs" / "configuration.md").read_text(encoding="utf-8") == script.reference(), \
        "docs/configuration.md is stale: run `python scripts/config_reference.py` and commit the page"


def test_the_reference_names_every_key_a_curate_toml_may_set():
    from curation.config import load_settings

    page = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    # every key the project's own curate.toml sets is documented under its section
    for section in ("project", "paths", "ingest", "ingest.meta_kaggle", "llm", "describe", "tag", "translate",
                    "review", "publish", "synthesize", "outline"):
        body = page.split(f"`[{section}]`\n", 1)[1].split("\n## ", 1)[0]
        value = load_settings(REPO / "curate.toml", env={})
        for part in section.split("."):
            value = getattr(value, part)
        for key in type(value).model_fields:
            if key != "meta_kaggle":
                assert f"| `{key}` |" in body, f"[{section}] {key} is not in docs/configuration.md"
    for key in ("describe", "score", "refine", "tag", "translate", "synthesize", "task_review", "qe", "outline",
                "outline_judge", "temperature", "reasoning_effort", "max_output_tokens", "requests_per_minute",
                "batch_output", "harness", "native"):
        assert f"| `{key}` |" in page
    for variable in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "HF_TOKEN",
                     "GOOGLE_APPLICATION_CREDENTIALS"):
        assert f"| `{variable}` |" in page


def test_a_setting_without_a_description_stops_the_reference(monkeypatch):
    script = load_reference_script()
    from curation.stage_settings import TagSettings

    monkeypatch.setattr(TagSettings.model_fields["allow_new_tags"], "description", None)
    with pytest.raises(SystemExit, match="tag.allow_new_tags has no description"):
        script.reference()


def test_a_misspelled_key_is_sent_to_the_reference_that_exists(tmp_path):
    from curation.config import REFERENCE, ConfigError, load_settings

    assert (REPO / REFERENCE).is_file()
    (tmp_path / "curate.toml").write_text("[tag]\nallow_new_tag = true\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=f"unknown key tag.allow_new_tag; .* documented keys in {REFERENCE}$"):
        load_settings(tmp_path / "curate.toml", env={})


def mkdocs(root: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` in `root`, importing curation from this checkout, into a throwaway site folder."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=root, env=env, capture_output=True, text=True, timeout=120)


def docs_copy(tmp_path: Path) -> Path:
    pytest.importorskip("mkdocs")
    root = tmp_path / "project"
    shutil.copytree(REPO / "docs", root / "docs")
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    (root / "scripts").mkdir()
    shutil.copy(REPO / "scripts" / "config_reference.py", root / "scripts" / "config_reference.py")
    return root


def test_the_docs_build_with_warnings_as_errors(tmp_path):
    result = mkdocs(docs_copy(tmp_path), tmp_path)
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr


@pytest.mark.parametrize("link, said", [
    ("[the guide](curator/no-such-page.md)", "'curator/no-such-page.md', but the target is not found"),
    ("[batches](curator/llm.md#no-such-heading)", "does not contain an anchor '#no-such-heading'"),
])
def test_a_broken_link_fails_the_docs_build(tmp_path, link: str, said: str):
    root = docs_copy(tmp_path)
    page = root / "docs" / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + f"\nSee {link}.\n", encoding="utf-8")
    result = mkdocs(root, tmp_path)
    assert result.returncode != 0
    assert said in result.stderr


def test_a_stale_configuration_reference_fails_the_docs_build(tmp_path):
    root = docs_copy(tmp_path)
    page = root / "docs" / "configuration.md"
    page.write_text(page.read_text(encoding="utf-8").replace("| `max_attempts` |", "| `attempts` |"), encoding="utf-8")
    result = mkdocs(root, tmp_path)
    assert result.returncode != 0
    assert "docs/configuration.md differs from the settings models; run `python scripts/config_reference.py`" \
        in result.stderr


def test_the_readme_fits_a_newcomer():
    assert len(README.splitlines()) <= 250
    # the three commands, exactly as CI and a fresh clone run them
    for command in ('python3 -m venv .venv && .venv/bin/pip install -e ".[dev]"', ".venv/bin/curate run",
                    ".venv/bin/python -m pytest -n 3", "python -m tests.fakes.sample_model"):
        assert command in README
    # the whole path on the sample, run to release
    for step in ("curate run", "curate review pull", "curate merge", "curate report", "curate publish --version"):
        assert step in README


def test_the_readme_links_into_pages_that_exist():
    links = re.findall(r"\]\((docs/[^)#\s]+)(?:#[^)]*)?\)", README)
    assert len(links) >= 8, links
    assert [link for link in links if not (REPO / link).is_file()] == []
    pages = {str(path.relative_to(REPO)) for path in (REPO / "docs").rglob("*.md")}
    assert {"docs/annotator.md", "docs/researcher.md", "docs/configuration.md", "docs/benchmarks.md"} <= set(links)
    assert {link for link in links if not link.endswith(".png")} <= pages  # a figure is a file of docs/, not a page


def test_user_pages_do_not_send_users_into_the_package():
    """Module paths belong on the contributors' and benchmarks' pages, not in a guide."""
    for page in [REPO / "README.md", *(REPO / "docs").rglob("*.md")]:
        if page.name in ("contributing.md", "benchmarks.md"):
            continue
        text = page.read_text(encoding="utf-8")
        assert re.findall(r"curation[/.](?!sqlite)[\w/.]+", text) == [], page.name
