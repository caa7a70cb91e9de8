"""`curate status` grows with the stages: columns, stage states and sections registered from a stage's module."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from curation import status
from curation.cli import app

runner = CliRunner()


@pytest.fixture
def registry(monkeypatch):
    """A private copy of the registry, so what a test registers does not leak into other tests.

    The stages' own registrations are loaded first: were their modules first imported inside the copy, they would
    vanish with it and later tests would run without them."""
    status._load_extensions()
    monkeypatch.setattr(status, "_stages", dict(status._stages))
    monkeypatch.setattr(status, "_columns", dict(status._columns))
    monkeypatch.setattr(status, "_sections", list(status._sections))
    return status


def test_a_stage_registers_its_column_of_states_an_extra_column_and_a_section(project, store, registry):
    runner.invoke(app, ["ingest"])
    registry.register_stage("proofread", order=99)
    store.set_status("titanic", "proofread", "failed", "the proofreader found 3 typos")

    @registry.register_column("typos")
    def _typos(context, slug):
        return 3 if slug == "titanic" else 0

    @registry.register_section
    def _languages(context):
        return registry.Section("Proofreading", ["language", "left"], rows=[[code, 7] for code in context.languages], note="fix them")

    result = runner.invoke(app, ["status", "--lang", "kk,be"])
    assert result.exit_code == 0, result.output
    assert "proofread" in result.stdout and "typos" in result.stdout
    assert "proofread: the proofreader found 3 typos" in result.stdout
    assert "proofread: 1 failed 6 pending" in result.stdout
    assert "Proofreading" in result.stdout and "fix them" in result.stdout

    report = json.loads(runner.invoke(app, ["status", "--json", "--lang", "kk,be"]).stdout)
    rows = {row["competition"]: row for row in report["competitions"]}
    assert rows["titanic"]["stages"]["proofread"] == {"status": "failed", "detail": "the proofreader found 3 typos"}
    assert rows["digit-recognizer"]["stages"]["proofread"] == {"status": "pending", "detail": ""}
    assert rows["titanic"]["columns"]["typos"] == 3
    section = next(s for s in report["sections"] if s["title"] == "Proofreading")
    assert section["rows"] == [["kk", 7], ["be", 7]]


def test_a_broken_extension_is_a_warning_not_a_crash(project, registry):
    runner.invoke(app, ["ingest"])

    @registry.register_section
    def _broken(context):
        raise KeyError("no such table")

    result = runner.invoke(app, ["status"])
    assert result.exit_code == 0
    assert "warning: section _broken: KeyError: 'no such table'" in result.stdout
    assert "titanic" in result.stdout


def test_per_language_stages_show_the_languages_asked_for_and_collapse_when_many(project, store):
    runner.invoke(app, ["ingest"])
    for language in ("kk", "be", "fr"):
        store.set_status("titanic", f"translate:{language}", "done", "")
    store.set_status("titanic", "translate:be", "needs_human", "description: language check failed")
    store.set_status("titanic", "review:kk", "pending", "waiting for a verdict on domain")
    store.set_status("titanic", "review:be", "pending", "waiting for a verdict on domain")

    only_kk = runner.invoke(app, ["status", "--lang", "kk"]).stdout
    assert "translate:kk" in only_kk and "translate:be" not in only_kk and "translate:fr" not in only_kk
    assert "language check failed" not in only_kk
    assert "translate:kk: 1 done 6 pending" in only_kk

    every = runner.invoke(app, ["status"]).stdout
    assert "translate (3 lang.)" in every and "translate:kk " not in every
    assert "2 done, 1 needs_human" in every  # titanic's cell: the states of its three languages
    assert "translate:be: description: language check failed" in every
    assert "review:be,kk: waiting for a verdict on domain" in every
    assert "translate (3 lang.): 2 done 1 needs_human 18 pending" in every
    report = json.loads(runner.invoke(app, ["status", "--json"]).stdout)
    titanic = next(row for row in report["competitions"] if row["competition"] == "titanic")
    assert titanic["stages"]["translate:be"]["status"] == "needs_human"
