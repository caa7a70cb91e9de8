"""Pinned versions downstream: load_dataset("org/name", lang, revision="vX.Y.Z") through a local Hub (olah)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from curation.cli import app
from curation.store import Store
from tests.fakes.olah_mirror import OlahMirror
from tests.release.downstream import load_release
from tests.release.seeding import seed_store, translated

runner = CliRunner()


def test_each_tag_gives_its_own_rows(project: Path, settings, store: Store, tmp_path: Path):
    seed_store(store, settings.project.languages, ["titanic"])
    assert runner.invoke(app, ["publish", "--version", "1.0.0", "--to", "dist/ml2b"]).exit_code == 0
    seed_store(store, settings.project.languages, ["titanic", "spaceship"], version=2)
    assert runner.invoke(app, ["publish", "--version", "1.1.0", "--to", "dist/ml2b"]).exit_code == 0

    with OlahMirror(tmp_path / "olah") as hub:
        hub.add_dataset("ml2b-org/ml2b", project / "dist" / "ml2b")
        first = load_release("ml2b-org/ml2b", ["be", "en"], tmp_path / "cache", revision="v1.0.0", endpoint=hub.url)
        second = load_release("ml2b-org/ml2b", ["be"], tmp_path / "cache", revision="v1.1.0", endpoint=hub.url)

    assert [row["competition"] for row in first["be"]["rows"]] == ["titanic"]
    assert first["be"]["rows"][0]["description"] == translated("be", "titanic", "description", 1)
    assert first["en"]["rows"][0]["description"].startswith("English task for titanic, v1.")
    assert [row["competition"] for row in second["be"]["rows"]] == ["spaceship", "titanic"]
    assert second["be"]["rows"][1]["description"] == translated("be", "titanic", "description", 2)
