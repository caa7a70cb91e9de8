"""The stage runner: items run concurrently and are recorded as they finish; failures, the budget and a killed
run are each handled without losing or repaying finished work."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from curation.cli.base import MaxCostOption, open_store
from curation.cli.llm import run_llm_stage
from curation.llm import LLM
from curation.stages.runner import ItemFailed, run_stage
from curation.store import Store
from tests.fakes.llm_server import answer, hang, pointed_at, refusal
from tests.llm.example_stage import DomainStage

REPO = Path(__file__).resolve().parents[2]
SLUGS = ["titanic", "house-prices", "digit-recognizer", "spaceship-titanic", "store-sales", "playground-s4e1"]


def by_competition(request):
    slug = request.user_text.removeprefix("Competition: ")
    if slug.startswith("bad-"):
        return refusal("I cannot classify that.")
    return answer({"domain": f"domain of {slug}"}, tokens_in=500, tokens_out=50)


async def run(stage, store, settings, max_cost=None):
    async with LLM(settings, store, max_cost=max_cost, stage=stage.name) as llm:
        return await run_stage(stage, store, settings, llm)


def done(store: Store, stage: str = "example-tag") -> dict[str, str]:
    return {s.competition: s.detail for s in store.statuses() if s.stage == stage and s.status == "done"}


async def test_every_pending_item_is_done_and_recorded(llm_server, llm_settings, store):
    llm_server.respond_with(by_competition)
    summary = await run(DomainStage(SLUGS), store, llm_settings)

    assert (summary.done, summary.failed, summary.not_started) == (6, [], 0)
    assert summary.complete and summary.calls == 6 and summary.cache_hits == 0
    assert done(store) == {slug: f"domain of {slug}" for slug in SLUGS}
    assert summary.cost_usd == sum(row.cost_usd for row in store.llm_calls()) > 0


async def test_a_finished_stage_reruns_without_a_single_request(llm_server, llm_settings, store):
    llm_server.respond_with(by_competition)
    await run(DomainStage(SLUGS), store, llm_settings)
    summary = await run(DomainStage(SLUGS), store, llm_settings)
    assert summary.done == 0 and summary.complete and llm_server.count() == 6


async def test_a_failing_item_is_recorded_and_the_others_go_on(llm_server, llm_settings, store):
    llm_server.respond_with(by_competition)
    stage = DomainStage(["titanic", "bad-one", "house-prices"])
    summary = await run(stage, store, llm_settings)

    assert summary.done == 2
    assert summary.failed == [("bad-one", "no usable answer after 3 tries: the model refused: I cannot classify that.")]
    assert stage.failures == summary.failed  # the stage's own hook saw it
    [status] = [s for s in store.statuses() if s.competition == "bad-one"]
    assert status.status == "failed" and status.detail == "bad-one: no usable answer after 3 tries: the model refused: I cannot classify that."
    assert set(done(store)) == {"titanic", "house-prices"}


async def test_a_stage_can_fail_one_item_for_its_own_reasons(llm_server, llm_settings, store):
    class Picky(DomainStage):
        async def run_one(self, item, llm):
            tagged = await super().run_one(item, llm)
            if item.key == "house-prices":
                raise ItemFailed("the domain is not in the vocabulary; add it to [tag] vocabulary")
            return tagged

    llm_server.respond_with(by_competition)
    summary = await run(Picky(["titanic", "house-prices"]), store, llm_settings)
    assert summary.done == 1
    assert summary.failed == [("house-prices", "the domain is not in the vocabulary; add it to [tag] vocabulary")]


def test_an_unexpected_error_in_one_item_fails_that_item_in_one_line_and_the_rerun_retries_it(
        llm_server, llm_settings, project):
    class Buggy(DomainStage):
        broken = True

        async def run_one(self, item, llm):
            tagged = await super().run_one(item, llm)
            if item.key == "house-prices" and Buggy.broken:
                return {}["domain"]  # a bug that only this item's data reaches
            return tagged

    llm_server.respond_with(by_competition)
    app = typer.Typer()

    @app.command()
    def tag() -> None:
        with open_store(llm_settings) as store:
            run_llm_stage(Buggy(["titanic", "house-prices", "spaceship"]), llm_settings, store, None)

    failed = CliRunner().invoke(app, [])
    assert failed.exit_code == 1, failed.output
    assert "example-tag: 2 done, 1 failed, 0 not started" in failed.output
    assert "failed house-prices: unexpected KeyError: 'domain'" in failed.output
    assert "Traceback" not in failed.output
    with open_store(llm_settings) as store:
        [status] = [s for s in store.statuses() if s.competition == "house-prices"]
        assert status.status == "failed" and status.detail == "house-prices: unexpected KeyError: 'domain'"

    Buggy.broken = False
    fixed = CliRunner().invoke(app, [])
    assert fixed.exit_code == 0 and "example-tag: 1 done, 0 failed, 0 not started" in fixed.output, fixed.output
    assert llm_server.answered == 3  # the failed item's answer came from the cache


async def test_an_items_record_is_one_transaction(llm_server, llm_settings, store):
    class Crashing(DomainStage):
        def record(self, store, result):
            super().record(store, result)  # written ...
            if result.competition == "house-prices":
                raise RuntimeError("disk full")  # ... and rolled back with the rest of this item

    llm_server.respond_with(by_competition)
    with pytest.raises(RuntimeError, match="disk full"):
        await run(Crashing(["titanic", "house-prices"]), store, llm_settings)
    assert "house-prices" not in done(store)
    # its answer is in the cache: the rerun will not pay for it (titanic's call may still have been in flight
    # when the crash cancelled the run, so only the crashed item's call is certain to be logged)
    assert "house-prices" in {call.item for call in store.llm_calls() if call.error is None}


async def test_the_budget_stops_starting_items_and_the_next_run_finishes_the_rest(llm_server, llm_settings, store):
    # gpt-5.4-mini, worst case per call ~$0.0185 (4096 output tokens); each answer costs (500 x 0.75 + 50 x 4.5)/1e6
    llm_server.respond_with(by_competition)
    slugs = [f"comp-{n}" for n in range(40)]
    stopped = await run(DomainStage(slugs), store, llm_settings, max_cost=0.03)

    assert stopped.done + stopped.not_started == 40 and stopped.done >= 1 and stopped.not_started >= 1
    assert stopped.stopped.startswith("budget $0.03 reached")
    assert stopped.cost_usd <= 0.03
    assert "rerun to continue" in stopped.lines()[-1]

    finished = await run(DomainStage(slugs), store, llm_settings)
    assert finished.done == stopped.not_started and finished.complete
    assert llm_server.answered == 40  # nothing paid twice


def test_the_cli_helper_prints_the_summary_and_exits_non_zero_on_failures(llm_server, llm_settings, project):
    """How a stage command looks: `--max-cost` from MaxCostOption, the run through run_llm_stage."""
    llm_server.respond_with(by_competition)
    app = typer.Typer()

    @app.command()
    def tag(max_cost: MaxCostOption = None) -> None:
        with open_store(llm_settings) as store:
            run_llm_stage(DomainStage(["titanic", "bad-one"]), llm_settings, store, max_cost)

    failed = CliRunner().invoke(app, ["--max-cost", "1"])
    assert failed.exit_code == 1, failed.output
    assert "example-tag: 1 done, 1 failed, 0 not started" in failed.output
    assert "failed bad-one: no usable answer after 3 tries: the model refused: I cannot classify that." in failed.output

    llm_server.respond_with(lambda request: {"domain": "now fine"})
    fixed = CliRunner().invoke(app, [])
    assert fixed.exit_code == 0 and "example-tag: 1 done, 0 failed, 0 not started" in fixed.output


def test_the_cli_helper_turns_a_missing_key_into_one_line(settings, project):
    app = typer.Typer()

    @app.command()
    def tag() -> None:
        with open_store(settings) as store:
            run_llm_stage(DomainStage(["titanic"]), settings, store, None)

    result = CliRunner().invoke(app, [])
    assert result.exit_code == 2
    assert "set OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server)" in result.output
    assert "Traceback" not in result.output


async def test_a_run_killed_half_way_resumes_and_pays_only_for_what_never_finished(llm_server, settings, project):
    slugs = [f"comp-{n}" for n in range(8)]
    killed_at = threading.Event()

    def hang_on_the_fourth(request):
        if len(llm_server.requests) == 4:
            killed_at.set()
            return hang()
        return by_competition(request)

    llm_server.respond_with(hang_on_the_fourth)
    worker = subprocess.Popen(
        [sys.executable, "-m", "tests.llm.resume_worker", str(project), llm_server.url, *slugs],
        cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert killed_at.wait(timeout=60), worker.stderr.read().decode() if worker.poll() is not None else "no request"
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
    finally:
        if worker.poll() is None:
            worker.kill()
        llm_server.release()

    with Store(settings.path("store")) as store:
        assert len(done(store)) == 3  # every item finished before the kill was kept
        assert len(store.llm_calls()) == 3
        llm_server.respond_with(by_competition)
        summary = await run(DomainStage(slugs), store, pointed_at(settings, llm_server))
        assert summary.done == 5 and summary.complete
        assert len(done(store)) == 8

    # one uninterrupted run answers 8 requests; so did both runs together. The ninth request is the one the
    # killed process was waiting on: it never got an answer.
    assert llm_server.answered == 8
    assert llm_server.count() == 9


async def test_ctrl_c_keeps_what_finished_and_says_so(llm_server, settings, project):
    slugs = [f"comp-{n}" for n in range(6)]
    interrupted_at = threading.Event()

    def hang_on_the_third(request):
        if len(llm_server.requests) == 3:
            interrupted_at.set()
            return hang()
        return by_competition(request)

    llm_server.respond_with(hang_on_the_third)
    worker = subprocess.Popen(
        [sys.executable, "-m", "tests.llm.resume_worker", "--cli", str(project), llm_server.url, *slugs],
        cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert interrupted_at.wait(timeout=60), worker.stderr.read() if worker.poll() is not None else "no request"
        worker.send_signal(signal.SIGINT)
        _, stderr = worker.communicate(timeout=20)
    finally:
        if worker.poll() is None:
            worker.kill()
        llm_server.release()

    assert worker.returncode == 130
    assert ("interrupted; every finished item and LLM answer is kept in the store: run the same command again to "
            "continue where it stopped") in stderr
    assert "Traceback" not in stderr
    with Store(settings.path("store")) as store:
        assert len(done(store)) == 2 and len(store.llm_calls()) == 2


async def test_progress_is_told_the_total_and_each_finished_item(llm_server, llm_settings, store):
    llm_server.respond_with(by_competition)
    seen: list[tuple[str, int, int, int]] = []
    async with LLM(llm_settings, store, stage="example-tag") as llm:
        await run_stage(DomainStage(["titanic", "bad-one", "house-prices"]), store, llm_settings, llm,
                        progress=lambda *told: seen.append(told))

    assert seen[0] == ("example-tag", 0, 3, 0)
    assert sorted(finished for _, finished, _, _ in seen[1:]) == [1, 2, 3]  # the failed item counts as finished too
    assert seen[-1][3] == 1  # ... and as failed: the progress line says what the summary will

