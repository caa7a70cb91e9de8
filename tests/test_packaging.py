"""A plain (non-editable) build carries the project templates, so `curate init` works without the repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOURCES = ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in", "curate.toml", "glossary.csv", "curation", "prompts",
           "cards")


def curate(build: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`curate ARGS` with the package imported from `build` (ahead of the editable install), as a user runs it."""
    return subprocess.run([sys.executable, "-c", "from curation.cli import app; app()", *args], cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(build)}, capture_output=True, text=True, timeout=120)


def test_a_built_package_scaffolds_a_project_that_ingests(tmp_path):
    source, build, project = tmp_path / "source", tmp_path / "build", tmp_path / "my-benchmark"
    source.mkdir()
    for name in SOURCES:
        copy = shutil.copytree if (REPO / name).is_dir() else shutil.copy2
        copy(REPO / name, source / name)
    built = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(build)], cwd=source,
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    shutil.rmtree(source)  # nothing may come from the repository any more

    result = curate(build, "init", str(project), cwd=tmp_path)

    assert result.returncode == 0, result.stderr
    assert f"created {project / 'curate.toml'}" in result.stdout
    for folder in ("prompts", "cards"):
        assert sorted(p.name for p in (project / folder).iterdir()) == sorted(p.name for p in (REPO / folder).iterdir())
    assert (project / "glossary.csv").read_bytes() == (REPO / "glossary.csv").read_bytes()
    # the checks' word lists ship inside the package
    assert (build / "curation" / "checks" / "meaning_words" / "concepts.toml").exists()
    shutil.copytree(REPO / "data" / "sample" / "titanic", project / "data" / "competitions" / "titanic")
    ingested = curate(build, "ingest", cwd=project)
    assert ingested.returncode == 0, ingested.stderr
    assert ingested.stdout.startswith("1 competition from data/competitions: 1 added")
    status = curate(build, "status", "--json", cwd=project)
    assert '"competition": "titanic"' in status.stdout


def test_without_templates_init_says_how_to_install(tmp_path):
    build = tmp_path / "build"
    shutil.copytree(REPO / "curation", build / "curation", ignore=shutil.ignore_patterns("scaffold", "__pycache__"))

    result = curate(build, "init", str(tmp_path / "new"), cwd=tmp_path)

    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().startswith("error: no curate.toml template next to the installed package")
    assert not (tmp_path / "new").exists()
