"""Batch mode from the command line on the sample: `curate run --batch` gives what an online run gives (in one run
when a batch expires and requests meet errors), reruns send nothing, a `curate translate --batch` killed after
submitting resumes the same batch, and `curate batches` lists and cancels open batches."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.store import Store
from tests.conftest import REPO
from tests.fakes.llm_server import server_error
from tests.test_cli_run import Model, russian_project  # noqa: F401  (the sample translating into Russian, on the fake)

runner = CliRunner()


@pytest.fixture
def batch_project(russian_project):  # noqa: F811
    """The Russian sample with a batch poll interval short enough for a test."""
    toml = russian_project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("[llm]\n", "[llm]\nbatch_poll_seconds = 0.01\n", 1),
                    encoding="utf-8")
    return russian_project


def content(project) -> dict:
    """What a release is made of: descriptions, domains and translations, and the cache keys of the calls."""
    with Store(project / "data" / "curation.sqlite") as store:
        return {"descriptions": {d.competition: d.text for d in store.descriptions()},
                "domains": {d.competition: d.domain for d in store.domains()},
                "translations": {(t.competition, t.field): t.text for t in store.translations("ru")},
                "cache keys": {c.request_hash for c in store.llm_calls() if not c.cached and c.error is None}}


def test_run_batch_matches_an_online_run_and_reruns_send_nothing(batch_project, llm_server):
    project = batch_project
    batched = runner.invoke(app, ["run", "--batch"], env={"COLUMNS": "200"})

    assert batched.exit_code == 0, batched.output
    assert "translate:ru: 21 done, 0 failed" in batched.output
    created = list(llm_server.batches.created)
    assert created and {api for api, _, _ in created} <= {"openai", "anthropic"}
    # every request went through a batch: none was sent online
    assert llm_server.count() == sum(n for _, _, n in created)
    in_batch = content(project)

    # the same project run online from scratch gives the same texts under the same cache keys
    (project / "data" / "curation.sqlite").rename(project / "batch.sqlite")
    assert runner.invoke(app, ["run"], env={"COLUMNS": "200"}).exit_code == 0
    assert content(project) == in_batch

    requests = llm_server.count()
    for again in (["run"], ["run", "--batch"]):
        result = runner.invoke(app, again, env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.output
    assert llm_server.count() == requests and llm_server.batches.created[len(created):] == []


class FirstTriesFail:
    """The sample's model, except that a tenth of the distinct requests (chosen by their text, so the same ones every
    time) get a 500 the first time they are asked: a batch's per-request errors."""

    def __init__(self, share: float = 0.10):
        self.model = Model()
        self.share = share
        self.failed: set[str] = set()

    def __call__(self, request):
        key = json.dumps(request.messages, sort_keys=True)
        if key not in self.failed and random.Random(key).random() < self.share:
            self.failed.add(key)
            return server_error(500)
        return self.model(request)


def test_run_batch_with_an_expired_batch_and_per_request_errors_finishes_in_one_run(batch_project, llm_server):
    # The fault trial's first `curate run --batch` left 18 of 24 descriptions pending; it took 5 runs to finish.
    faulty = FirstTriesFail()
    llm_server.respond_with(faulty)
    llm_server.batches.expire_next(answered=3)  # describe's first batch: 3 of 7 answered, the rest expire

    result = runner.invoke(app, ["run", "--batch"], env={"COLUMNS": "200"})

    assert result.exit_code == 0, result.output
    assert "describe: 7 done, 0 failed" in result.output and "tag: 7 done, 0 failed" in result.output
    assert "translate:ru: 21 done, 0 failed" in result.output and "pending" not in result.output
    assert faulty.failed  # some requests did meet an error
    # every request went through a batch, nothing online (the four expired ones never reached the model)
    assert llm_server.count() == sum(n for _, _, n in llm_server.batches.created) - 4
    with Store(batch_project / "data" / "curation.sqlite") as store:
        assert len(store.descriptions()) == 7 and len(store.translations("ru")) == 21


def start_translate_and_kill_it(project, llm_server):
    """Ingest, describe and tag online, then `curate translate --batch` in its own process, killed once its batch is
    submitted and being waited on."""
    assert runner.invoke(app, ["ingest"]).exit_code == 0
    assert runner.invoke(app, ["describe"]).exit_code == 0
    assert runner.invoke(app, ["tag"]).exit_code == 0
    llm_server.batches.hold = True
    env = {**os.environ, "PYTHONPATH": str(REPO), "OPENAI_BASE_URL": llm_server.openai_base_url,
           "ANTHROPIC_BASE_URL": llm_server.anthropic_base_url}
    worker = subprocess.Popen([sys.executable, "-c", "from curation.cli import main; main()", "translate", "--batch"],
                              cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert llm_server.batches.submitted.wait(timeout=60), b"".join(worker.communicate()).decode()[-2000:]
        looks = llm_server.batches.looks
        deadline = time.monotonic() + 30
        while llm_server.batches.looks == looks and time.monotonic() < deadline:
            time.sleep(0.02)  # killed while polling, after the submission was stored
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
    finally:
        if worker.poll() is None:
            worker.kill()
    [(_, remote_id, requests)] = llm_server.batches.created
    return remote_id, requests


def test_a_killed_translate_batch_resumes_the_same_batch_and_finishes(batch_project, llm_server):
    project = batch_project
    remote_id, requests = start_translate_and_kill_it(project, llm_server)

    listed = runner.invoke(app, ["batches"], env={"COLUMNS": "200"})
    assert listed.exit_code == 0
    assert remote_id in listed.output and "in_progress" in listed.output and str(requests) in listed.output

    llm_server.batches.hold = False
    resumed = runner.invoke(app, ["translate", "--batch"], env={"COLUMNS": "200"})

    assert resumed.exit_code == 0, resumed.output
    assert "translate:ru: 21 done, 0 failed" in resumed.output
    assert llm_server.batches.created[0][1] == remote_id
    with Store(project / "data" / "curation.sqlite") as store:
        first = {custom_id for custom_id, _ in store.batch_requests(store.batches()[0].id)}
        later = [{c for c, _ in store.batch_requests(b.id)} for b in store.batches()[1:]]
        assert not any(first & ids for ids in later)  # nothing of the first batch was submitted again
        assert len(store.translations("ru")) == 21
    assert "no open batches" in runner.invoke(app, ["batches"]).output


def test_a_cancelled_batch_leaves_its_items_pending_and_the_next_run_finishes_them(batch_project, llm_server):
    project = batch_project
    remote_id, requests = start_translate_and_kill_it(project, llm_server)

    cancelled = runner.invoke(app, ["batches", "--cancel", remote_id])
    assert cancelled.exit_code == 0, cancelled.output
    assert f"batch {remote_id}: cancelling" in cancelled.output

    collected = runner.invoke(app, ["translate", "--batch"], env={"COLUMNS": "200"})
    assert collected.exit_code == 1
    # one reason for all 21 items: one line with the count and a few of them
    [pending] = [line.strip() for line in collected.output.splitlines() if line.strip().startswith("pending")]
    assert pending.startswith("pending: 21 items: ") and "cancelled" in pending, collected.output

    llm_server.batches.hold = False
    finished = runner.invoke(app, ["translate", "--batch"], env={"COLUMNS": "200"})
    assert finished.exit_code == 0, finished.output
    with Store(project / "data" / "curation.sqlite") as store:
        assert len(store.translations("ru")) == 21
    assert "--cancel nope" not in runner.invoke(app, ["batches", "--cancel", "nope"]).output
    assert "no such batch" in runner.invoke(app, ["batches", "--cancel", "nope"]).output


def test_a_batch_that_answers_nothing_is_one_waiting_line_per_stage(batch_project, llm_server):
    """Describe's batch expires unanswered: its competitions are left pending (rerun), and tag and translate wait
    for them. Each stage says so in one line with a few of them, not one line per text."""
    toml = batch_project / "curate.toml"  # no resubmission: the expired batch's requests stay unanswered this run
    toml.write_text(toml.read_text(encoding="utf-8").replace("[llm]\n", "[llm]\nbatch_resubmissions = 0\n", 1),
                    encoding="utf-8")
    llm_server.batches.expire_next(answered=0)

    result = runner.invoke(app, ["run", "--batch"], env={"COLUMNS": "400"})

    assert result.exit_code == 1, result.output
    waiting = [line for line in result.output.splitlines() if line.startswith("waiting")]
    assert len(waiting) == 2, result.output
    tag, translate = waiting
    assert tag.startswith("waiting: 7 competitions with no description yet (run `curate describe`): ")
    assert tag.endswith(" and 4 more; `curate status --detail` lists them")
    assert translate.startswith("waiting: 14 texts with no English text yet: 7 descriptions (run `curate describe`), "
                                "7 domains (run `curate tag`); in ")
    assert translate.endswith(" and 4 more; `curate status --detail` lists them")
