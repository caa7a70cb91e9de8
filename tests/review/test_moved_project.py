"""A project copied, moved or cloned with its store works in place: the copy pulls its own sheets, never the
original's, and pushing in the copy adds nothing twice (issue 14, situation 1). A store from an older version
that holds absolute sheet paths is migrated when a command opens it."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest
from typer.testing import CliRunner

from curation.cli import app
from tests.review.seeding import answer_unanswered, fill


def curate(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture
def mid_review(project, seeded):
    """The sample project after `curate review push --lang kk` to one annotator, nothing answered yet."""
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("[review.annotators]\n", '[review.annotators]\nkk = ["aigerim"]\n'),
                    encoding="utf-8")
    pushed = curate("review", "push", "--lang", "kk")
    assert pushed.exit_code == 0 and "kk aigerim: review/kk/kk-aigerim.xlsx: 6 added" in pushed.output, pushed.output
    seeded.close()  # the copy is made of a closed store, as a curator copies a folder between commands
    return project


def copy_of(project, monkeypatch):
    copy = project.parent / (project.name + "-copy")
    shutil.copytree(project, copy)
    monkeypatch.chdir(copy)
    return copy


def pull_in_the_copy(project, copy) -> None:
    fix = "`Survived` бағанын пайдаланып, қай жолаушылар аман қалғанын болжаңыз, train.csv файлынан."
    fill(copy / "review" / "kk" / "kk-aigerim.xlsx", "description", "titanic/description/kk",
         verdict="NO and YES", own_version=fix)
    answered = answer_unanswered(copy / "review" / "kk" / "kk-aigerim.xlsx")

    pulled = curate("review", "pull", "--lang", "kk")
    assert pulled.exit_code == 0, pulled.output
    assert f"kk: {answered + 1} new verdicts" in pulled.output
    assert "annotations/kk/" in pulled.output and len(list((copy / "annotations" / "kk").glob("*.csv"))) == 1
    assert not (project / "annotations").exists()  # nothing written into the original

    pushed = curate("review", "push", "--lang", "kk")
    assert pushed.exit_code == 0 and "0 added, 0 updated, 6 unchanged" in pushed.output, pushed.output
    assert curate("review", "pull", "--lang", "kk").output.startswith(
        f"kk: 0 new verdicts, 0 new rubric scores, {answered + 1} already stored")
    merged = curate("merge", "--lang", "kk")
    assert "kk: 5 keep, 1 fix" in merged.output, merged.output


def test_a_copied_project_pulls_its_own_sheet_and_pushes_nothing_twice(mid_review, monkeypatch):
    copy = copy_of(mid_review, monkeypatch)
    pull_in_the_copy(mid_review, copy)
    # the original's sheet and store are untouched: its workbook has no answers, its pull finds none
    monkeypatch.chdir(mid_review)
    assert curate("review", "pull", "--lang", "kk").output.startswith("kk: 0 new verdicts")


def test_a_store_with_absolute_paths_from_an_older_version_is_migrated_on_open(mid_review, monkeypatch):
    # What earlier versions wrote: the absolute path of the workbook, and no migration 42 yet.
    store = mid_review / "data" / "curation.sqlite"
    with sqlite3.connect(store) as db:
        for key, sheet, record in db.execute("SELECT rowid, sheet, record FROM review_pushed").fetchall():
            absolute = str(mid_review / sheet)
            db.execute("UPDATE review_pushed SET sheet = ?, record = ? WHERE rowid = ?",
                       (absolute, json.dumps({**json.loads(record), "sheet": absolute}), key))
        db.execute("DELETE FROM schema_migrations WHERE version = 42")
    db.close()
    copy = copy_of(mid_review, monkeypatch)
    pull_in_the_copy(mid_review, copy)
    with sqlite3.connect(copy / "data" / "curation.sqlite") as db:
        sheets = {row[0] for row in db.execute("SELECT sheet FROM review_pushed")}
    db.close()
    assert sheets == {"review/kk/kk-aigerim.xlsx"}


def test_commands_run_from_a_subfolder_find_the_sheets_of_their_project(mid_review, monkeypatch):
    answered = answer_unanswered(mid_review / "review" / "kk" / "kk-aigerim.xlsx")
    monkeypatch.chdir(mid_review / "review")
    assert f"kk: {answered} new verdicts" in curate("review", "pull", "--lang", "kk").output
