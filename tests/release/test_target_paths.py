"""Release folders are recorded relative to the project root when inside it, absolute when outside, so one folder
is one target however `--to` names it, and a moved or copied project publishes to its own release folder knowing
its releases (issue 14). A store that recorded an absolute folder is migrated when a command opens it."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.store import Store
from tests.release.seeding import seed_store


def curate(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def tags(repo) -> list[str]:
    return subprocess.run(["git", "-C", str(repo), "tag", "--list"], capture_output=True, text=True,
                          check=True).stdout.split()


def targets(project) -> list[tuple[str, str]]:
    with Store(project / "data" / "curation.sqlite") as store:
        return [(release.version, release.target) for release in store.releases()]


@pytest.fixture
def seeded_project(project, settings, store):
    seed_store(store, ["en", "kk"], ["titanic", "spaceship"])
    store.close()
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        'languages = ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"]',
        'languages = ["en", "kk"]'), encoding="utf-8")
    return project


def test_one_folder_is_one_target_however_it_is_named(seeded_project, monkeypatch):
    project = seeded_project
    first = curate("publish", "--version", "1.0.0", "--to", str(project / "dist" / "ml2b"))
    assert first.exit_code == 0 and "published v1.0.0 to dist/ml2b " in first.output, first.output
    (project / "notes").mkdir()
    monkeypatch.chdir(project / "notes")  # the same folder, typed from a subfolder
    second = curate("publish", "--version", "1.1.0", "--to", "../dist/ml2b")
    assert second.exit_code == 0 and "since v1.0.0:" in second.output, second.output
    assert targets(project) == [("1.0.0", "dist/ml2b"), ("1.1.0", "dist/ml2b")]
    listed = curate("releases")
    assert "v1.0.0" in listed.output and str(project) not in listed.output, listed.output


def test_a_folder_outside_the_project_is_recorded_absolute(seeded_project, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "ml2b"
    published = curate("publish", "--version", "1.0.0", "--to", str(outside))
    assert published.exit_code == 0, published.output
    assert targets(seeded_project) == [("1.0.0", str(outside))]


def copy_of(project, monkeypatch):
    copy = project.parent / (project.name + "-copy")
    shutil.copytree(project, copy)
    monkeypatch.chdir(copy)
    return copy


@pytest.mark.parametrize("recorded", ["as today", "absolute, by an older curation"])
def test_a_copied_project_publishes_to_its_own_release_folder(seeded_project, monkeypatch, recorded):
    project = seeded_project
    assert curate("publish", "--version", "1.0.0", "--to", str(project / "dist" / "ml2b")).exit_code == 0
    if recorded != "as today":
        # What earlier versions kept: the folder as typed to --to, and no migration 51 yet.
        with sqlite3.connect(project / "data" / "curation.sqlite") as db:
            record = db.execute("SELECT record FROM releases").fetchone()[0]
            absolute = str(project / "dist" / "ml2b")
            db.execute("UPDATE releases SET target = ?, record = ?", (absolute, record.replace('"dist/ml2b"', f'"{absolute}"')))
            db.execute("DELETE FROM schema_migrations WHERE version = 51")
        db.close()
    copy = copy_of(project, monkeypatch)

    again = curate("publish", "--version", "1.0.0", "--to", str(copy / "dist" / "ml2b"))
    assert again.exit_code == 1 and "version 1.0.0 is already published" in again.output, again.output
    published = curate("publish", "--version", "1.1.0", "--to", "dist/ml2b")

    assert published.exit_code == 0 and "since v1.0.0:" in published.output, published.output
    assert targets(copy) == [("1.0.0", "dist/ml2b"), ("1.1.0", "dist/ml2b")]
    assert tags(copy / "dist" / "ml2b") == ["v1.0.0", "v1.1.0"]
    assert tags(project / "dist" / "ml2b") == ["v1.0.0"]  # the original's folder is untouched


def test_an_absolute_folder_outside_the_moved_project_stays_as_it_was(seeded_project, monkeypatch, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "ml2b"
    assert curate("publish", "--version", "1.0.0", "--to", str(outside)).exit_code == 0
    (seeded_project / "ml2b").mkdir()  # a folder of the same name in the project is not that release folder
    with sqlite3.connect(seeded_project / "data" / "curation.sqlite") as db:
        db.execute("DELETE FROM schema_migrations WHERE version = 51")
    db.close()
    copy = copy_of(seeded_project, monkeypatch)
    assert curate("releases").exit_code == 0
    assert targets(copy) == [("1.0.0", str(outside))]
