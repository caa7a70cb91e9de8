"""`curate outline` and the outline step of `curate run` (issue 26) on the sample against the fake provider: every
competition with notebooks gets an outline, the one without is listed as waiting, a rerun sends nothing, K and the
judge's choice show in `curate status --comp`, and the judge's pick of three stands unless the lint refuses it."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from curation.cli import app
from curation.store import Store
from tests.stages.scripted_models import TaskWriter, judge_answer, outline_answer
from tests.test_cli_run import Model, russian_project  # noqa: F401  (the sample translating into Russian, on the fake)

runner = CliRunner()
WITH_NOTEBOOKS = ["digit-recognizer", "house-prices-advanced-regression-techniques", "nlp-getting-started",
                  "santander-customer-transaction-prediction", "spaceship-titanic", "titanic"]
WITHOUT = "predict-who-is-more-influential-in-a-social-network"
TITANIC = "Titanic - Machine Learning from Disaster"


def curate(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def configure(project, **outline) -> None:
    """[outline] keys as a curator sets them, and rate limits no test waits on."""
    toml = project / "curate.toml"
    text = toml.read_text(encoding="utf-8")
    for limit in ("requests_per_minute = 500\n", "requests_per_minute = 50\n"):
        text = text.replace(limit, "requests_per_minute = 60000\n")
    for limit in ("tokens_per_minute = 200000\n", "tokens_per_minute = 40000\n"):
        text = text.replace(limit, "tokens_per_minute = 100000000\n")
    head, _, section = text.partition("\n[outline]\n")
    section = "".join(line + "\n" for line in section.splitlines() if line.split(" = ")[0] not in outline)
    keys = "".join(f"{key} = {json.dumps(value)}\n" for key, value in outline.items())
    toml.write_text(f"{head}\n[outline]\n{keys}{section}", encoding="utf-8")


def outlines(project) -> dict:
    with Store(project / "data" / "curation.sqlite") as store:
        return {outline.competition: outline for outline in store.outlines()}


def test_run_outlines_every_competition_with_notebooks_and_a_rerun_sends_nothing(russian_project, llm_server):  # noqa: F811
    configure(russian_project, enabled=True)

    result = curate("run")

    assert result.exit_code == 0, result.output
    assert "outline: 6 done, 0 failed" in result.output
    assert f"waiting: 1 competition without notebooks to outline from (add notebooks and run `curate ingest`): {WITHOUT}" \
        in result.output
    kept = outlines(russian_project)
    assert sorted(kept) == WITH_NOTEBOOKS
    titanic = kept["titanic"]
    assert len(titanic.candidates) == 3 and titanic.chosen == 1 and titanic.judge_reason
    assert [source.rank for source in titanic.sources] == [1, 2, 3] and titanic.writer and titanic.judge
    assert "judge them by Accuracy" in titanic.inference_and_submission[0]

    calls = llm_server.count()
    again = curate("run")
    assert again.exit_code == 0, again.output
    assert llm_server.count() == calls  # a rerun sends nothing
    assert "outline: nothing to do" in again.output

    status = curate("status", "--comp", "titanic")
    assert "outline 1 of 3 (judge 8/8)" in status.output
    assert "best of 3: kept candidate 1 (judge 8/8); lint clean" in status.output
    waiting = curate("status", "--comp", WITHOUT)
    assert "waiting: no notebooks to outline from" in waiting.output
    costs = curate("costs")
    assert "outline_judge" in costs.output and "outline " in costs.output
    # the rubric sheets waited for the outlines: they are in the English rows
    assert any(row.outline_hash for row in Store(russian_project / "data" / "curation.sqlite").pushed_rows("en"))


def test_the_outline_step_is_off_by_default(russian_project, llm_server):  # noqa: F811
    result = curate("run")

    assert result.exit_code == 0, result.output
    assert not any(line.startswith(("outline", "waiting: 1 competition without notebooks"))
                   for line in result.output.splitlines())
    assert outlines(russian_project) == {}
    assert "outline" not in curate("status").output.split("cells:")[0]  # no column for a stage never run


def test_the_judge_picks_the_best_of_three_and_the_lint_overrules_a_pick_with_code(project, llm_server, monkeypatch):
    with_code = outline_answer("Accuracy", 2)
    with_code["features"] = ["Build the title column with df['Name'].str.extract(pattern) and keep it."]
    writer = TaskWriter(outlines={TITANIC: {2: with_code}},
                        judged={TITANIC: judge_answer(3, best=3, scores={1: {"complete": 1}, 2: {"faithful": 1}})})
    llm_server.respond_with(writer)
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)
    configure(project)
    assert curate("ingest").exit_code == 0

    picked = curate("outline", "--competition", "titanic")

    assert picked.exit_code == 0, picked.output
    titanic = outlines(project)["titanic"]
    assert (titanic.chosen, [c.score for c in titanic.candidates]) == (3, [7, 7, 8])
    assert [c.clean for c in titanic.candidates] == [True, False, True]
    assert titanic.model == outline_answer("Accuracy", 3)["model"]
    assert writer.count("outline", TITANIC) == 3 and writer.count("outline_judge", TITANIC) == 1

    # the judge prefers the candidate with code: the best clean one is kept instead, and the status says why
    writer.judged[TITANIC] = judge_answer(3, best=2, scores={1: {"complete": 1}, 3: {"faithful": 0}})
    (project / "prompts" / "outline_judge.md").write_text(
        (project / "prompts" / "outline_judge.md").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    overruled = curate("outline", "--competition", "titanic")

    assert overruled.exit_code == 0, overruled.output
    titanic = outlines(project)["titanic"]
    assert titanic.chosen == 1 and not titanic.needs_human
    assert titanic.judge_reason == "the judge preferred outline 2, which failed the lint; kept the best clean one"
    assert writer.count("outline", TITANIC) == 3  # the candidates came from the cache: only the judge was asked again
    status = curate("status", "--comp", "titanic")
    assert "best of 3: kept candidate 1 (judge 7/8); 1 candidate failed the lint" in status.output


def test_dry_run_counts_the_candidates_and_the_judge_then_nothing(project, llm_server, monkeypatch):
    llm_server.respond_with(TaskWriter())
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)
    configure(project, candidates=2)
    assert curate("ingest").exit_code == 0

    plan = json.loads(curate("outline", "--dry-run", "--json").output)

    [row] = plan["rows"]
    assert (row["stage"], row["items"], row["calls"], row["estimated"]) == ("outline", 6, 6 * 3, 6)
    assert "outline: 1 competitions wait for notebooks" in plan["notes"] and llm_server.count() == 0
    assert curate("outline").exit_code == 0
    assert llm_server.count() == 6 * 3
    again = json.loads(curate("outline", "--dry-run", "--json").output)
    assert again["calls"] == 0 and again["rows"][0]["items"] == 0


def test_outlines_translated_through_the_translate_checks_when_asked(russian_project, llm_server):  # noqa: F811
    configure(russian_project, translate=True)
    assert curate("ingest").exit_code == 0

    result = curate("outline")

    assert result.exit_code == 0, result.output
    assert "outline:ru: 6 done, 0 failed" in result.output
    with Store(russian_project / "data" / "curation.sqlite") as store:
        translated = {t.competition: t for t in store.outline_translations("ru")}
        assert sorted(translated) == WITH_NOTEBOOKS
        assert translated["titanic"].source_text == store.outline("titanic").text()
        assert {check.name for check in translated["titanic"].checks} >= {"language", "script"}
        assert store.status("titanic", "outline:ru").status in ("done", "needs_human")
        assert store.translations("ru") == []  # never among the texts that go to review and the plain configs


def test_doctor_asks_after_the_outline_models_only_when_outlines_are_on(project):
    assert "outline_judge" not in curate("doctor").output
    configure(project, enabled=True)

    checked = curate("doctor")

    assert "ANTHROPIC_API_KEY is not set; models.refine, task_review, outline_judge (anthropic) need it" in checked.output


def test_the_sample_model_answers_the_outline_roles(project, llm_server, monkeypatch):
    from tests.fakes.sample_model import SampleModel

    llm_server.respond_with(SampleModel())
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)
    configure(project)
    assert curate("ingest").exit_code == 0

    result = curate("outline")

    assert result.exit_code == 0, result.output
    assert "outline: 6 done, 0 failed" in result.output and sorted(outlines(project)) == WITH_NOTEBOOKS


def test_outline_in_batch_mode_sends_the_candidates_then_the_judges_as_batches(russian_project, llm_server):  # noqa: F811
    configure(russian_project)
    toml = russian_project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("[llm]\n", "[llm]\nbatch_poll_seconds = 0.01\n", 1),
                    encoding="utf-8")
    assert curate("ingest").exit_code == 0

    batched = curate("outline", "--batch")

    assert batched.exit_code == 0, batched.output
    assert "outline: 6 done, 0 failed" in batched.output and sorted(outlines(russian_project)) == WITH_NOTEBOOKS
    created = list(llm_server.batches.created)
    # one round of candidates (18 requests), then one of judges (6): every request went through a batch
    assert sorted(count for _, _, count in created) == [6, 18]
    assert llm_server.count() == 24
    assert curate("outline", "--batch").exit_code == 0 and llm_server.count() == 24  # a rerun sends nothing
