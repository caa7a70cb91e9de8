"""Ctrl-C during `curate run` (issue 24, item 10): one line saying what is kept and how to go on, exit 130, no
traceback, no "Exception ignored", no "fix the above"; rerunning the same command finishes the job without sending
a finished request again. Real processes against the fake server, interrupted with requests in flight at three
moments (describe; the first translation, the checks' process still loading; later translations, checks at work).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
from collections import Counter

from curation.store import Store
from tests.conftest import REPO
from tests.fakes.llm_server import hang
from tests.stages.test_concurrent_runs import CURATE, bodies, concurrent_project, paid_twice, until
from tests.test_cli_run import Model


ARGS = ["run", "--lang", "zh"]
INTERRUPTED = ("interrupted; every finished item and LLM answer is kept in the store: run `curate run --lang zh` "
               "again to continue where it stopped")


class Held:
    """Answers as `model` does until `hold(request, seen)` (seen: the requests of this run before it) says to hold
    one: then that request and every later one are left in flight (hang) until the server stops."""

    def __init__(self, model) -> None:
        self.model, self._lock = model, threading.Lock()
        self.hold_from(lambda request, seen: False)

    def hold_from(self, hold) -> None:
        with self._lock:
            self.hold, self.seen, self.held = hold, [], []

    def __call__(self, request):
        with self._lock:
            holding = bool(self.held) or self.hold(request, self.seen)
            self.seen.append(request)
            if holding:
                self.held.append(request)
        return hang() if holding else self.model(request)


def translation(request) -> bool:
    return request.user_text.startswith("Translate this")


MOMENTS = {
    "describe": lambda request, seen: len(seen) == 1,
    "the first translation": lambda request, seen: translation(request),
    "the fourth translation": lambda request, seen: translation(request) and sum(map(translation, seen)) == 3,
}


def paid_answers(project) -> int:
    with Store(project / "data" / "curation.sqlite") as store:
        return sum(1 for call in store.llm_calls() if not call.cached and call.error is None)


def curate(project, *args: str) -> subprocess.Popen:
    """`curate ARGS` in a process group of its own, as a terminal's foreground job is (Ctrl-C reaches all of it)."""
    return subprocess.Popen([CURATE, *args], cwd=project, env={**os.environ, "COLUMNS": "200", "PYTHONPATH": str(REPO)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def test_ctrl_c_keeps_what_finished_says_so_in_one_line_and_a_rerun_finishes(project, llm_server, monkeypatch):
    project = concurrent_project(project, llm_server, monkeypatch, max_concurrent=4)
    gate = Held(Model())
    llm_server.respond_with(gate)
    held = []
    for moment, hold in MOMENTS.items():
        gate.hold_from(hold)
        answered_before = llm_server.answered
        run = curate(project, *ARGS)

        def settled() -> bool:
            """A request is held, every other request of this run has had its answer sent (the server counts it only
            then: Ctrl-C before that loses an answer the run never read), and every answer is in the call log: from
            then on a request sent twice is one the run had not finished."""
            answered = llm_server.answered - answered_before
            return bool(gate.held) and answered == len(gate.seen) - len(gate.held) \
                and paid_answers(project) == llm_server.answered

        try:
            until(lambda: run.poll() is not None or settled(),
                  state=lambda: f"at {moment}: {len(gate.seen)} requests, {len(gate.held)} held, "
                                f"{llm_server.answered - answered_before} answered, {paid_answers(project)} of "
                                f"{llm_server.answered} answers logged")
            os.killpg(run.pid, signal.SIGINT)
            _, stderr = run.communicate(timeout=60)
        finally:
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGKILL)
        assert gate.held, f"{moment}: the run ended before the moment came\n{stderr}"
        held += gate.held
        assert run.returncode == 130, f"{moment}\n{stderr}"
        for noise in ("Traceback", "Exception ignored", "fix the above", "Aborted"):
            assert noise not in stderr, f"{moment}\n{stderr}"
        assert stderr.splitlines()[-1] == INTERRUPTED, f"{moment}\n{stderr}"
        assert stderr.count("interrupted") == 1

    gate.hold_from(lambda request, seen: False)
    rerun = curate(project, *ARGS)
    stdout, stderr = rerun.communicate(timeout=120)

    assert rerun.returncode == 0, stdout + stderr
    with Store(project / "data" / "curation.sqlite") as store:
        assert len(store.descriptions()) == 7 and len(store.domains()) == 7 and len(store.translations("zh")) == 21
        assert store.request_claims() == []
    assert paid_twice(project) == []
    # Sent again: only requests left in flight by an interrupted run, once more each time that happened.
    in_flight = Counter(json.dumps(request.body, sort_keys=True) for request in held)
    assert {body: times for body, times in bodies(llm_server).items() if times > 1 + in_flight[body]} == {}
