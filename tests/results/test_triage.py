"""The optional `triage` role, through the real OpenAI SDK against the fake server (tests/fakes/llm_server.py):
what the rules leave as `other` is asked about once per distinct evidence, cached and costed like every role."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from curation.config import load_settings
from curation.store import Store
from tests.results.conftest import COMPETITIONS, curate, json_lines
from tests.results.harness_runs import THIRTEEN, write_release, write_run
from tests.results.test_csv_results import write_csv

TRIAGE = 'triage = "openai:gpt-5.4-mini-2026-03-17"\n'


def with_triage(project: Path) -> None:
    config = project / "curate.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("[models]\n", "[models]\n" + TRIAGE, 1), encoding="utf-8")


@pytest.fixture
def triage_project(project: Path, llm_server, monkeypatch: pytest.MonkeyPatch) -> Path:
    with_triage(project)
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    write_release(project / "release", COMPETITIONS, THIRTEEN)
    for language in ("en", "kk", "be"):  # the grading container wrote nothing, three times over: one question
        write_run(project / "logs" / "aide", "titanic", language, "other")
    for number, language in enumerate(THIRTEEN):
        write_run(project / "logs" / "aide", "spaceship-titanic", language, "success", seed=number)
    write_csv(project / "more.csv", [["titanic", "ru", "aide", "", "failed", "Segmentation fault (core dumped)"]])
    return project


def answer(request) -> dict:
    if "Failed to obtain output" in request.user_text:
        return {"error_class": "out_of_memory", "reason": "The grading container died without output, as a "
                                                          "container killed at its memory limit does."}
    return {"error_class": "runtime_error", "reason": "A segmentation fault in native code."}


def test_runs_the_rules_leave_as_other_are_placed_by_the_triage_model(triage_project, llm_server, settings):
    llm_server.respond_with(answer)

    result = curate("results", "logs/aide", "more.csv", "--from", "release", "--json")

    assert result.exit_code == 0, result.output
    runs, summary = json_lines(result)
    placed = {run["run"]: (run["error_class"], run["reason"]) for run in runs if run["competition"] == "titanic"}
    assert placed == {
        **{f"titanic-{name}-python-0": ("out_of_memory", "triage: The grading container died without output, as a "
                                                         "container killed at its memory limit does.")
           for name in ("English", "Kazakh", "Belarus")},
        "more.csv:2": ("runtime_error", "triage: A segmentation fault in native code.")}
    assert summary["triaged"] == 4 and "other" not in summary["classes"]
    assert llm_server.count() == 2  # one question per distinct evidence
    asked = sorted(request.user_text for request in llm_server.requests)
    assert asked[0].startswith("Competition: titanic; task language: Belarusian (be); agent: aide; submission code "
                               "present: yes.\nThe rules left it as `other` because: the grading container ended "
                               "without writing its results")
    assert "<<<\nFailed to obtain output for python\n>>>" in asked[0]
    assert "Segmentation fault (core dumped)" in asked[1]
    table = pd.read_csv(triage_project / "reports" / "results_runs.csv")
    assert (table["classified_by"] == "triage").sum() == 4
    with Store(load_settings(triage_project / "curate.toml").path("store")) as store:
        lines = [line for line in store.llm_costs() if line.role == "triage"]
    assert len(lines) == 1 and lines[0].stage == "results" and lines[0].calls == 2 and lines[0].cost_usd > 0

    again = curate("results", "logs/aide", "more.csv", "--from", "release", "--json")

    assert again.exit_code == 0 and llm_server.count() == 2  # answered from the cache
    assert json_lines(again)[1]["triaged"] == 4


def test_a_failing_triage_call_leaves_its_runs_as_other(triage_project, llm_server):
    from tests.fakes.llm_server import bad_request

    llm_server.respond_with(lambda request: bad_request("this model cannot answer that") if "Segmentation" in
                            request.user_text else answer(request))

    result = curate("results", "logs/aide", "more.csv", "--from", "release", "--json")

    runs, summary = json_lines(result)
    assert result.exit_code == 2
    [line] = [line for line in result.stderr.splitlines() if "triage" in line]
    assert line.startswith("more.csv:2: the triage call failed (") and line.endswith("; left as other")
    assert {run["run"]: run["error_class"] for run in runs}["more.csv:2"] == "other"
    assert summary["classes"]["out_of_memory"] == 3


def test_triage_without_a_key_is_one_line_naming_the_role(project, monkeypatch):
    with_triage(project)
    write_release(project / "release", COMPETITIONS, THIRTEEN)
    write_run(project / "logs" / "aide", "titanic", "en", "other")

    result = curate("results", "logs/aide", "--from", "release")

    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0].startswith("error: set OPENAI_API_KEY")
    assert "models.triage (openai) needs it" in lines[1]
    assert "Traceback" not in result.output


def test_without_triage_configured_no_call_is_made(project, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    write_release(project / "release", COMPETITIONS, THIRTEEN)
    write_run(project / "logs" / "aide", "titanic", "en", "other")

    runs, summary = json_lines(curate("results", "logs/aide", "--from", "release", "--json"))

    assert runs[0]["error_class"] == "other" and llm_server.count() == 0


def test_doctor_checks_the_triage_model_once_it_is_set(project):
    assert "triage" not in load_settings(project / "curate.toml").roles_in_use()  # off by default

    from curation.cli.llm import PIPELINE_ROLES

    with_triage(project)
    settings = load_settings(project / "curate.toml")
    assert "triage" in settings.roles_in_use() and "triage" not in settings.roles_in_use(PIPELINE_ROLES)

    result = curate("doctor")

    assert "models.describe, score, tag, translate, synthesize, triage (openai) need it" in result.output
