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

    result = runner.invoke(app, ["status", "--lang", "kk,be"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "proofread" in result.stdout and "typos" in result.stdout
    assert "proofread: the proof" in result.stdout  # cut to the terminal's width: "…"
    assert "the proofreader found 3 typos" in runner.invoke(app, ["status", "--comp", "titanic"]).stdout
    assert "Proofreading" in result.stdout and "fix them" in result.stdout
    overview = runner.invoke(app, ["status"], env={"COLUMNS": "200"}).stdout
    en = next(line for line in overview.splitlines() if line.startswith("en "))
    assert en.split()[-1] == "·/·/6/1"  # proofread: none done or flagged, 6 open, 1 failed

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

    result = runner.invoke(app, ["status", "--detail"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "warning: section _broken: KeyError: 'no such table'" in result.stdout
    assert "Competitions (7)" in result.stdout
    overview = runner.invoke(app, ["status"])  # counts only: it runs no section, so nothing breaks
    assert overview.exit_code == 0 and "7 competitions" in overview.stdout


def test_per_language_stages_show_the_languages_asked_for_and_collapse_when_many(project, store):
    runner.invoke(app, ["ingest"])
    for language in ("kk", "be", "fr"):
        store.set_status("titanic", f"translate:{language}", "done", "")
    store.set_status("titanic", "translate:be", "needs_human", "description: language check failed")
    store.set_status("titanic", "review:kk", "pending", "waiting for a verdict on domain")
    store.set_status("titanic", "review:be", "pending", "waiting for a verdict on domain")

    def status(*args):
        return runner.invoke(app, ["status", *args], env={"COLUMNS": "200"}).stdout

    only_kk = status("--lang", "kk")
    assert "translate" in only_kk and "translate:be" not in only_kk and "language check failed" not in only_kk
    titanic = next(line for line in only_kk.splitlines() if line.startswith("titanic"))
    assert titanic.split()[5:8] == ["done", "open", "open"]  # translate, review, merge in kk

    every = status("--detail")
    assert "translate:kk" not in every  # twelve languages: one column per stage, counting
    titanic = next(line for line in every.splitlines() if line.startswith("titanic"))
    assert "2/1/9/·" in titanic  # translate: 2 done, 1 flagged (be), 9 not started
    assert "translate:be: description: language check failed" in every
    one = status("--comp", "titanic")
    assert "review:be" in one and "waiting for a verdict on domain" in one

    overview = status()
    be = next(line for line in overview.splitlines() if line.startswith("be "))
    assert be.split()[1] == "·/1/6/·"
    report = json.loads(status("--json"))
    titanic = next(row for row in report["competitions"] if row["competition"] == "titanic")
    assert titanic["stages"]["translate:be"]["status"] == "needs_human"
    assert report["matrix"]["translate"]["kk"] == {"done": 1, "flagged": 0, "open": 6, "failed": 0}


def test_the_spend_line_counts_calls_sent_and_cache_hits_apart(project, store):
    """A cache hit costs nothing and sends nothing: "spent $X on N LLM calls" counts only the calls a provider
    answered (or refused), and the hits are said next to them."""
    from curation.records import LLMCall

    runner.invoke(app, ["ingest"])
    call = LLMCall(stage="translate", role="translate", item="titanic/description", provider="openai",
                   model="gpt-5.5-2026-04-23", request_hash="h", response="ok")
    for number in range(3):
        store.log_llm_call(call.model_copy(update={"request_hash": f"h{number}", "cost_usd": 0.5, "attempts": 1}))
    store.log_llm_call(call.model_copy(update={"request_hash": "h3", "response": None, "error": "HTTP 400 (no)",
                                               "attempts": 1}))
    for number in range(5):
        store.log_llm_call(call.model_copy(update={"request_hash": f"h{number % 3}", "cached": True,
                                                   "saved_usd": 0.5}))

    shown = runner.invoke(app, ["status"], env={"COLUMNS": "200"}).stdout

    assert "spent $1.5000 on 4 LLM calls · 5 answered from cache" in shown
    report = json.loads(runner.invoke(app, ["status", "--json"]).stdout)
    assert (report["calls"], report["cache_hits"]) == (4, 5)


def test_synthesize_counts_only_the_tasks_it_made_and_holds_no_kaggle_competition_open(project, store):
    """Issue 24, item 9: seven Kaggle competitions showed "open" in synthesize, a stage they never go through."""
    from tests.review.seeding import seed_competition

    runner.invoke(app, ["ingest"])  # the sample's seven Kaggle competitions
    seed_competition(store, "houses-predict-price")  # a task synthesize verified, then ingest read
    store.set_status("houses-predict-price", "synthesize", "done", "verified: beats the mean by 31%")
    store.set_status("houses-predict-price", "ingest", "done", "1 notebook")
    # one it rejected: no competition, and not open in ingest or any later stage either
    store.set_status("loans-predict-default", "synthesize", "failed", "rejected: the target leaks through loan_id")

    report = json.loads(runner.invoke(app, ["status", "--json"]).stdout)
    assert report["matrix"]["synthesize"][""] == {"done": 1, "flagged": 0, "open": 0, "failed": 1}
    assert report["matrix"]["ingest"][""] == {"done": 8, "flagged": 0, "open": 0, "failed": 0}
    assert report["next"] == "curate describe"  # not `curate synthesize`
    titanic = next(row for row in report["competitions"] if row["competition"] == "titanic")
    assert "synthesize" not in titanic["stages"]
    overview = runner.invoke(app, ["status"], env={"COLUMNS": "100"}).stdout
    header = next(line for line in overview.splitlines() if line.startswith("lang"))
    en = next(line for line in overview.splitlines() if line.startswith("en "))
    assert header.split()[1] == "synthesize" and en.split()[1] == "1/·/·/1"  # was 1/·/7/1

    one = runner.invoke(app, ["status", "--comp", "titanic"], env={"COLUMNS": "100"}).stdout
    assert "synthesize" not in one
    assert "rejected: the target leaks through loan_id" in runner.invoke(
        app, ["status", "--comp", "loans-predict-default"], env={"COLUMNS": "100"}).stdout
    assert runner.invoke(app, ["status"]).stdout.rstrip().endswith("Next: `curate describe`")
