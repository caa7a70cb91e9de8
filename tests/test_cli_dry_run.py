"""`--dry-run` on run, describe, tag and translate against the fake LLM server: no completion request reaches it,
nothing a real run needs is written, and the calls it counts are the calls the real run then pays for."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from curation.cli import app
from curation.store import Store
from tests.test_cli_run import Model, russian_project  # noqa: F401 (a fixture)


runner = CliRunner()


def curate(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "100"})


def planned(*args: str) -> dict:
    result = runner.invoke(app, [*args, "--dry-run", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def paid(project, stage: str) -> int:
    """Calls a real run sent for a stage (describe, tag, translate), from the call log."""
    with Store(project / "data" / "curation.sqlite") as store:
        return sum(1 for call in store.llm_calls(stage) if not call.cached)


def test_each_stage_pays_for_what_its_dry_run_counted_and_the_dry_run_sends_nothing(russian_project, llm_server):
    project = russian_project
    model = Model()
    model.writer.domains = {name: ["data science"] for name in model.writer.domains}  # one domain the seven share
    llm_server.respond_with(model)
    assert curate("ingest").exit_code == 0

    describe = planned("describe")
    assert llm_server.count() == 0
    with Store(project / "data" / "curation.sqlite") as store:
        assert store.descriptions() == [] and store.llm_calls() == []  # nothing a real run would redo
    # 6 competitions written by a model (describe + score each), 1 by a person (scored only)
    assert (describe["calls"], describe["estimated"]) == (13, 0)
    assert describe["cost_usd"] > 0

    assert curate("describe").exit_code == 0
    assert paid(project, "describe") == llm_server.count() == 13

    tag = planned("tag")
    assert tag["calls"] == 7 and llm_server.count() == 13
    assert curate("tag").exit_code == 0
    assert paid(project, "tag") == 7

    translate = planned("translate")
    [row] = translate["rows"]
    assert (row["language"], row["items"], row["calls"], row["estimated"]) == ("ru", 21, 15, 0)  # one shared domain
    translated = curate("translate")
    assert translated.exit_code == 0, translated.output
    assert paid(project, "translate") == 15

    again = planned("translate", "--force")  # every text pending again, every request answered by the cache
    assert (again["calls"], again["rows"][0]["cached"]) == (0, 15)
    assert llm_server.count() == 13 + 7 + 15

    # Turning on quality estimation: the translations come from the cache, each then read once by the qe model.
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('# qe = "auto"', 'qe = "anthropic:claude-sonnet-5-5"'),
                    encoding="utf-8")
    with_qe = planned("translate")
    assert (with_qe["calls"], with_qe["rows"][0]["cached"]) == (15, 15)
    assert llm_server.count() == 13 + 7 + 15


def test_run_dry_run_estimates_what_waits_for_describe_then_the_run_stays_within_it(russian_project, llm_server):
    project = russian_project

    result = curate("run", "--dry-run")

    assert result.exit_code == 0, result.output
    assert llm_server.count() == 0
    assert not (project / "review").exists()  # no stage past the plan ran
    lines = result.stdout.splitlines()
    assert "dry run: nothing sent; calls the cache cannot answer and their estimated cost" in lines
    assert [line.split()[:5] for line in lines if line.split()[:1] in (["describe"], ["tag"], ["translate"])] == [
        ["describe", "en", "7", "13", "0"], ["tag", "en", "7", "~7", "0"], ["translate", "ru", "21", "~21", "0"]]
    assert "~: includes calls for texts not written yet, counted at a typical description's length" in lines

    assert curate("run").exit_code == 0
    assert paid(project, "describe") == 13 and paid(project, "tag") == 7
    assert paid(project, "translate") <= 21  # domains the competitions share are one request


def test_the_plan_for_every_language_fits_a_screen(project, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)
    assert curate("ingest").exit_code == 0

    result = curate("run", "--dry-run")

    assert result.exit_code == 0, result.output
    table = result.stdout.splitlines()
    assert len(table) < 40 and max(len(line) for line in table) <= 100
    assert sum(line.startswith("translate ") for line in table) == 12
    assert llm_server.count() == 0


def test_json_without_dry_run_is_refused(project):
    result = curate("tag", "--json")
    assert result.exit_code == 2
    assert "--json goes with --dry-run" in result.output
