"""A project copied, moved or cloned with its store synthesizes in place (issue 14): `cp -r` gives every file a new
modification time, yet the copy profiles, brainstorms, designs and verifies nothing again (no baseline run, no LLM
call), and its store names the copy's folders. A store from an older version that holds absolute paths is migrated
when a command opens it; a dataset outside the project stays absolute."""

from __future__ import annotations

import json
import sqlite3
import subprocess

import pytest
from typer.testing import CliRunner

from curation.cli import app
from tests.synthesis.datasets import houses, loans

NOTHING_AGAIN = ("synthesize brainstorm: 0 done", "synthesize design: 0 done",
                 "synthesize verify: 0 done, 0 failed, 0 not started; 0 LLM calls")
AS_KEPT = {"houses": "raw/houses", "loans": "raw/loans", "houses-house-price": "tasks/houses-house-price",
           "loans-loan-default": "tasks/rejected/loans-loan-default"}


def curate(*args: str):
    return CliRunner().invoke(app, list(args))


def synthesize():
    return curate("synthesize", "raw/houses", "raw/loans", "--out", "tasks")


def kept(project) -> dict[str, str]:
    """Each profile's dataset folder and each verdict's task folder, as the store holds them."""
    with sqlite3.connect(project / "data" / "curation.sqlite") as db:
        rows = db.execute("SELECT key, record FROM synthesis WHERE step IN ('profile', 'verify')").fetchall()
    db.close()
    return {key: json.loads(record).get("path") or json.loads(record)["folder"] for key, record in rows}


def verified_at(project) -> dict[str, str]:
    with sqlite3.connect(project / "data" / "curation.sqlite") as db:
        rows = db.execute("SELECT key, updated_at FROM synthesis WHERE step = 'verify'").fetchall()
    db.close()
    return dict(rows)


def copy_of(project, monkeypatch):
    """`cp -r` as a curator would copy the folder: new modification times on every file."""
    copy = project.parent / (project.name + "-copy")
    subprocess.run(["cp", "-r", str(project), str(copy)], check=True)
    monkeypatch.chdir(copy)
    return copy


@pytest.fixture
def synthesized(project, designer):
    """A project whose raw datasets were synthesized into tasks/: one task accepted, one rejected (a leak)."""
    for build in (houses, loans):
        build(project / "raw")
    first = synthesize()
    assert first.exit_code == 0, first.output
    assert "rejected loans-loan-default -> tasks/rejected/loans-loan-default" in first.output
    assert kept(project) == AS_KEPT
    return project


def test_a_copied_project_synthesizes_nothing_again(synthesized, designer, monkeypatch):
    asked, verified = designer.count(), verified_at(synthesized)
    copy = copy_of(synthesized, monkeypatch)

    again = synthesize()

    assert again.exit_code == 0, again.output
    assert all(line in again.output for line in NOTHING_AGAIN), again.output
    assert designer.count() == asked  # not one request reached the fake
    assert verified_at(copy) == verified  # no verdict rewritten: no draft, no baseline run
    assert kept(copy) == AS_KEPT
    assert (copy / "tasks" / "houses-house-price" / "competition.yaml").exists()


@pytest.mark.parametrize("where", ["in place", "in a copy"])
def test_a_store_with_absolute_paths_from_an_older_version_is_migrated_on_open(synthesized, designer, monkeypatch,
                                                                             where):
    # What earlier versions kept: absolute dataset and task folders, and no migration 61 yet.
    with sqlite3.connect(synthesized / "data" / "curation.sqlite") as db:
        for key, record in db.execute("SELECT key, record FROM synthesis WHERE step IN ('profile', 'verify')").fetchall():
            data = json.loads(record)
            place = "path" if "path" in data else "folder"
            data[place] = str(synthesized / data[place])
            db.execute("UPDATE synthesis SET record = ? WHERE key = ? AND step IN ('profile', 'verify')",
                       (json.dumps(data), key))
        db.execute("DELETE FROM schema_migrations WHERE version = 61")
    db.close()
    asked = designer.count()
    project = copy_of(synthesized, monkeypatch) if where == "in a copy" else synthesized

    again = synthesize()

    assert again.exit_code == 0, again.output
    assert kept(project) == AS_KEPT
    assert all(line in again.output for line in NOTHING_AGAIN), again.output
    assert designer.count() == asked


def test_a_dataset_outside_the_project_is_kept_absolute(project, designer, tmp_path_factory):
    outside = houses(tmp_path_factory.mktemp("elsewhere"))
    result = curate("synthesize", str(outside), "--out", "tasks")
    assert result.exit_code == 0, result.output
    assert kept(project) == {"houses": str(outside), "houses-house-price": "tasks/houses-house-price"}
