"""The describe loop against the fake LLM server: generate, lint + score, refine until good or max_rounds."""

from __future__ import annotations

import dataclasses

import pytest

from curation.config import Settings
from curation.llm import LLM
from curation.records import Competition, IngestedCompetition, Notebook
from curation.stages.describe import DescribeStage
from curation.stages.runner import run_stage
from curation.store import Store
from tests.stages.scripted_models import TaskWriter, grade_report, role_of

TITANIC_CLEAN = ("Predict which passengers survived the sinking of the Titanic from their ticket class, sex, age, "
                 "family aboard, fare and port of embarkation. For each passenger answer 1 if they survived and 0 "
                 "otherwise; accuracy is the metric.")
TITANIC_HINTED = "Train a random forest on 891 passengers to predict who survived; submit sample_submission.csv."
HOUSES_VAGUE = "Predict something about houses."
HOUSES_CLEAN = ("Predict the sale price of each home in Ames, Iowa from its lot, building, quality and location "
                "attributes. Give the price in dollars; the root mean squared error of the logarithms is the metric.")


def add_competition(store: Store, slug: str, name: str, description: str | None = None,
                    code: tuple[str, ...] = ("import pandas as pd\nmodel.fit(train)",),
                    data_card: str = "One row per item with its attributes.") -> None:
    competition = Competition(competition=slug, comp_name=name, comp_type="Featured", data_type="tabular",
                              metric="Accuracy", data_card=data_card, description=description)
    notebooks = [Notebook(competition=slug, name=f"notebook-{i}", text=text) for i, text in enumerate(code)]
    store.save_ingested(IngestedCompetition(competition=competition, notebooks=notebooks))


async def describe(store: Store, settings: Settings, **options):
    stage = DescribeStage(settings, **options)
    async with LLM(settings, store, stage=stage.name) as llm:
        return await run_stage(stage, store, settings, llm)


async def test_loop_stops_at_a_good_grade(store, llm_settings, llm_server) -> None:
    writer = TaskWriter(first={"Titanic": TITANIC_CLEAN})
    llm_server.respond_with(writer)
    add_competition(store, "titanic", "Titanic")

    summary = await describe(store, llm_settings)

    assert summary.done == 1 and not summary.failed
    described = store.description("titanic")
    assert (described.text, described.grade, described.rounds, described.needs_human) == (TITANIC_CLEAN, "C", 1, False)
    assert described.provenance == "machine"
    assert writer.count("describe") == 1 and writer.count("score") == 1 and writer.count("refine") == 0
    assert store.status("titanic", "describe").status == "done"


async def test_refines_a_B_until_it_is_good_and_keeps_every_round(store, llm_settings, llm_server) -> None:
    writer = TaskWriter(first={"House Prices": HOUSES_VAGUE}, grades={HOUSES_VAGUE: "B", HOUSES_CLEAN: "D"},
                        refined={HOUSES_VAGUE: HOUSES_CLEAN})
    llm_server.respond_with(writer)
    add_competition(store, "house-prices", "House Prices")

    await describe(store, llm_settings)

    described = store.description("house-prices")
    assert (described.text, described.grade, described.rounds, described.needs_human) == (HOUSES_CLEAN, "D", 2, False)
    rounds = store.description_rounds("house-prices")
    assert [(r.round, r.step, r.grade, r.text) for r in rounds] == [
        (1, "describe", "B", HOUSES_VAGUE), (2, "refine", "D", HOUSES_CLEAN)]
    assert rounds[0].model == "openai:gpt-5.5-2026-04-23" and rounds[1].model == "anthropic:claude-sonnet-5-5"
    assert rounds[0].tokens_in > 0 and rounds[0].prompt_hash and rounds[1].prompt_hash != rounds[0].prompt_hash
    assert [c.criterion for c in rounds[0].reasons if not c.met] == ["no_solution_hints"]
    refine_request = next(r for r in llm_server.requests if r.api == "anthropic")
    assert "no_solution_hints: no_solution_hints not met" in refine_request.user_text
    assert HOUSES_VAGUE in refine_request.user_text and "model.fit(train)" in refine_request.user_text


async def test_refines_on_lint_findings_even_when_graded_good(store, llm_settings, llm_server) -> None:
    writer = TaskWriter(first={"Titanic": TITANIC_HINTED}, grades={TITANIC_HINTED: "C"},
                        refined={TITANIC_HINTED: TITANIC_CLEAN})
    llm_server.respond_with(writer)
    add_competition(store, "titanic", "Titanic")

    await describe(store, llm_settings)

    rounds = store.description_rounds("titanic")
    assert rounds[0].grade == "C"
    assert [(f.rule, f.matched) for f in rounds[0].findings] == [
        ("model_name", "random forest"), ("dataset_size", "891 passengers"), ("submission", "sample_submission.csv")]
    refine_request = next(r for r in llm_server.requests if r.api == "anthropic")
    assert "model_name — 'random forest'" in refine_request.user_text
    assert store.description("titanic").text == TITANIC_CLEAN and rounds[1].findings == []


def is_retry(request) -> bool:
    """A validation retry carries the rejected answer (assistant) and the client's correction after the prompt."""
    return any(m.get("role") == "assistant" for m in request.messages)


def as_first_asked(request):
    """The request without the retry conversation, so the writer reads the prompt rather than the correction."""
    if not is_retry(request):
        return request
    first_answer = next(i for i, m in enumerate(request.messages) if m.get("role") == "assistant")
    return dataclasses.replace(request, body={**request.body, "messages": request.messages[:first_answer]})


def inconsistent_first_grade(writer: TaskWriter, first_answer: dict):
    """The writer's answers, except that a score request's first attempt gets `first_answer`; a retry the writer's own."""

    def respond(request):
        if role_of(request) == "score" and not is_retry(request):
            return first_answer
        return writer(as_first_asked(request))

    return respond


@pytest.mark.parametrize("first_answer, complaint", [
    (grade_report("C", unmet=("output_described",)),
     "grade C means every criterion is met, but output_described is marked unmet"),
    (grade_report("B"), "grade B means at least one criterion is not met, but all are marked met"),
])
async def test_a_grade_that_contradicts_its_criteria_is_sent_back_to_the_scorer(
        store, llm_settings, llm_server, first_answer, complaint) -> None:
    writer = TaskWriter(first={"House Prices": HOUSES_VAGUE}, grades={HOUSES_VAGUE: "B", HOUSES_CLEAN: "D"},
                        refined={HOUSES_VAGUE: HOUSES_CLEAN})
    llm_server.respond_with(inconsistent_first_grade(writer, first_answer))
    add_competition(store, "house-prices", "House Prices")

    await describe(store, llm_settings)

    # the retry's consistent B is what counts: the vague text is refined, not accepted as good
    rounds = store.description_rounds("house-prices")
    assert [(r.round, r.grade, r.text) for r in rounds] == [(1, "B", HOUSES_VAGUE), (2, "D", HOUSES_CLEAN)]
    # both score calls (one per round) were answered inconsistently first, and each retry carried the complaint
    retries = [r for r in llm_server.requests if role_of(r) == "score" and is_retry(r)]
    assert len(retries) == 2 and all(complaint in retry.user_text for retry in retries)
    scores = [call for call in store.llm_calls("describe") if call.role == "score"]
    assert [(call.attempts, call.error) for call in scores] == [(2, None), (2, None)]


async def test_a_scorer_that_keeps_contradicting_itself_fails_only_that_competition(store, llm_settings, llm_server) -> None:
    writer = TaskWriter(first={"Titanic": TITANIC_CLEAN, "House Prices": HOUSES_CLEAN})
    contradicting = grade_report("D", unmet=("no_leakage",))

    def respond(request):
        if role_of(request) == "score" and "Competition: House Prices" in as_first_asked(request).user_text:
            return contradicting
        return writer(request)

    llm_server.respond_with(respond)
    add_competition(store, "titanic", "Titanic")
    add_competition(store, "house-prices", "House Prices")

    summary = await describe(store, llm_settings)

    assert summary.done == 1 and [key for key, _ in summary.failed] == ["house-prices"]
    assert store.description("house-prices") is None and store.description("titanic").grade == "C"
    status = store.status("house-prices", "describe")
    assert status.status == "failed"
    assert "grade D means every criterion is met, but no_leakage is marked unmet" in status.detail


async def test_stops_at_max_rounds_and_asks_for_a_person(store, llm_settings, llm_server) -> None:
    second = HOUSES_VAGUE + " Use LightGBM."
    writer = TaskWriter(first={"House Prices": HOUSES_VAGUE}, grades={HOUSES_VAGUE: "A", second: "B"},
                        refined={HOUSES_VAGUE: second, second: "never asked"})
    llm_server.respond_with(writer)
    add_competition(store, "house-prices", "House Prices")

    await describe(store, llm_settings, max_rounds=2)

    described = store.description("house-prices")
    assert (described.text, described.grade, described.rounds, described.needs_human) == (second, "B", 2, True)
    assert described.reasons == ["grade B (no_solution_hints: no_solution_hints not met)", "lint model_name: 'LightGBM'"]
    assert writer.count("refine") == 1
    status = store.status("house-prices", "describe")
    assert status.status == "needs_human" and "grade B" in status.detail and "LightGBM" in status.detail


async def test_a_person_written_description_is_scored_not_regenerated(store, llm_settings, llm_server) -> None:
    writer = TaskWriter(grades={HOUSES_CLEAN: "D"})
    llm_server.respond_with(writer)
    add_competition(store, "house-prices", "House Prices", description=HOUSES_CLEAN, code=())

    await describe(store, llm_settings)

    described = store.description("house-prices")
    assert (described.text, described.provenance, described.grade, described.needs_human) == (HOUSES_CLEAN, "human", "D", False)
    assert writer.count("describe") == 0 and writer.count("refine") == 0 and writer.count("score") == 1
    assert [r.step for r in store.description_rounds("house-prices")] == ["human"]


async def test_rerun_sends_no_requests(store, llm_settings, llm_server) -> None:
    llm_server.respond_with(TaskWriter(first={"Titanic": TITANIC_CLEAN, "House Prices": HOUSES_VAGUE},
                                       grades={HOUSES_VAGUE: "B"}, refined={HOUSES_VAGUE: HOUSES_CLEAN}))
    add_competition(store, "titanic", "Titanic")
    add_competition(store, "house-prices", "House Prices")
    await describe(store, llm_settings)
    sent = llm_server.count()

    summary = await describe(store, llm_settings)

    assert llm_server.count() == sent and summary.done == 0 and summary.calls == 0


async def test_new_notebook_code_redescribes_only_that_competition(store, llm_settings, llm_server) -> None:
    writer = TaskWriter(first={"Titanic": TITANIC_CLEAN, "House Prices": HOUSES_CLEAN})
    llm_server.respond_with(writer)
    add_competition(store, "titanic", "Titanic")
    add_competition(store, "house-prices", "House Prices")
    await describe(store, llm_settings)

    add_competition(store, "titanic", "Titanic", code=("a better notebook",))
    summary = await describe(store, llm_settings)

    assert summary.done == 1
    assert writer.count("describe", "Titanic") == 2 and writer.count("describe", "House Prices") == 1


async def test_one_failure_does_not_stop_the_others(store, llm_settings, llm_server) -> None:
    writer = TaskWriter(first={"Titanic": TITANIC_CLEAN, "House Prices": HOUSES_CLEAN}, broken={"Titanic"})
    llm_server.respond_with(writer)
    add_competition(store, "titanic", "Titanic")
    add_competition(store, "house-prices", "House Prices")

    summary = await describe(store, llm_settings)

    assert summary.done == 1 and [key for key, _ in summary.failed] == ["titanic"]
    assert store.description("house-prices").text == HOUSES_CLEAN and store.description("titanic") is None
    assert store.status("titanic", "describe").status == "failed"
    assert "this request is malformed" in store.status("titanic", "describe").detail  # the reason, in one line

    writer.broken.clear()
    summary = await describe(store, llm_settings)
    assert summary.done == 1 and store.description("titanic").text == TITANIC_CLEAN
    assert writer.count("describe", "House Prices") == 1


async def test_redescribe_request_reruns_with_the_reviewers_comments(store, llm_settings, llm_server) -> None:
    writer = TaskWriter(first={"Titanic": TITANIC_CLEAN})
    llm_server.respond_with(writer)
    add_competition(store, "titanic", "Titanic")
    await describe(store, llm_settings)
    store.add_request("redescribe", "titanic", "Say that the answer is 0 or 1 per passenger.")

    summary = await describe(store, llm_settings)

    # the model writes the same text again: not an answer to the reviewers, so it is asked once more, told so
    # (its grade comes from the cache), and then the competition goes to the curator with the request still open
    assert summary.done == 1 and writer.count("describe") == 3
    assert "Say that the answer is 0 or 1 per passenger." in llm_server.requests[-1].user_text
    assert "repeated the rejected description word for word" in llm_server.requests[-1].user_text
    assert len(store.open_requests("redescribe")) == 1
    assert store.status("titanic", "describe").status == "needs_human"
    before = llm_server.count()
    await describe(store, llm_settings)
    assert llm_server.count() == before  # trying again costs nothing: every answer is in the cache


async def test_a_competition_without_code_or_text_is_a_problem_not_a_call(store, llm_settings, llm_server) -> None:
    add_competition(store, "titanic", "Titanic", code=())

    summary = await describe(store, llm_settings)

    assert summary.done == 0 and llm_server.count() == 0
    assert [p.competition for p in store.problems("describe")] == ["titanic"]
    assert store.status("titanic", "describe").status == "needs_human"


async def test_changing_a_prompt_reruns_exactly_the_stage_that_uses_it(store, llm_settings, llm_server, project) -> None:
    from curation.stages.tag import TagStage

    writer = TaskWriter(first={"Titanic": TITANIC_CLEAN}, domains={"Titanic": ["maritime studies"]})
    llm_server.respond_with(writer)
    add_competition(store, "titanic", "Titanic")

    async def both() -> tuple[int, int]:
        stages = []
        for stage in (DescribeStage(llm_settings), TagStage(llm_settings)):
            async with LLM(llm_settings, store, stage=stage.name) as llm:
                stages.append((await run_stage(stage, store, llm_settings, llm)).done)
        return stages[0], stages[1]

    assert await both() == (1, 1)
    with (project / "prompts" / "tag.md").open("a", encoding="utf-8") as prompt:
        prompt.write("\nAnswer in lowercase.\n")
    assert await both() == (0, 1)
    assert (writer.count("describe"), writer.count("tag")) == (1, 2)

    with (project / "prompts" / "score.md").open("a", encoding="utf-8") as prompt:
        prompt.write("\nBe strict.\n")
    assert await both() == (1, 0)  # graded again; the description text (tag's input) did not change
    assert (writer.count("score"), writer.count("describe"), writer.count("tag")) == (2, 1, 2)


async def test_the_default_models_refusing_temperature_and_forced_tools_still_refine(store, llm_settings, llm_server,
                                                                                   caplog) -> None:
    """What today's defaults do: GPT-5.5 refuses a temperature of 0, Claude Sonnet 5.5 a forced tool call. Each
    refusal costs one request and one line; the loop finishes as it would have."""
    import logging

    settings = llm_settings.model_copy(update={"llm": llm_settings.llm.model_copy(update={"temperature": 0.0})})
    writer = TaskWriter(first={"House Prices": HOUSES_VAGUE}, grades={HOUSES_VAGUE: "B", HOUSES_CLEAN: "D"},
                        refined={HOUSES_VAGUE: HOUSES_CLEAN})
    llm_server.respond_with(writer)
    llm_server.refuse_parameter("temperature", model="gpt-5.5-2026-04-23")
    llm_server.refuse_parameter("tool_choice", model="claude-sonnet-5-5")
    add_competition(store, "house-prices", "House Prices")

    with caplog.at_level(logging.WARNING, logger="curation.llm"):
        summary = await describe(store, settings)

    assert summary.done == 1 and not summary.failed
    assert store.description("house-prices").text == HOUSES_CLEAN
    refine_modes = [r.mode for r in llm_server.requests if r.api == "anthropic"]
    assert refine_modes == ["tool", "json_schema"]
    assert sorted(r.getMessage().split(" (")[0] for r in caplog.records if "does not take" in r.getMessage()) == [
        "anthropic:claude-sonnet-5-5 does not take tool_choice", "openai:gpt-5.5-2026-04-23 does not take temperature"]
