"""Two `curate` commands over the same store at once pay for each LLM request once (issue 27: two
`curate translate --lang be` sent 95 requests where one sends 72). Real processes against the fake server: the
first one's requests are held at the server until the second has started and found them claimed; the second waits
and takes their answers from the call log. A claim whose process was SIGKILLed is taken over by the one waiting.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.records import Description
from curation.store import Store
from tests.conftest import REPO, commands_on
from tests.fakes.llm_server import hang
from tests.review.seeding import seed_sample_sources
from tests.test_cli_run import Model


CURATE = str(Path(sys.executable).parent / "curate")
WAITING = "waiting for its answers instead of paying for them twice"


def concurrent_project(project, llm_server, monkeypatch, max_concurrent: int = 16) -> Path:
    """The sample translating into Chinese, every provider on the fake, no rate limit in the way, and a waiting
    command looking at the claims every 10 ms."""
    commands_on(project, llm_server, monkeypatch, "zh")
    toml = project / "curate.toml"
    text = toml.read_text(encoding="utf-8").replace("[llm]\n", "[llm]\nclaim_poll_seconds = 0.01\n", 1)
    for limits in ("requests_per_minute = 500\ntokens_per_minute = 200000\nmax_concurrent = 16",
                   "requests_per_minute = 50\ntokens_per_minute = 40000\nmax_concurrent = 8"):
        assert limits in text
        text = text.replace(limits, "requests_per_minute = 60000\ntokens_per_minute = 100000000\n"
                                    f"max_concurrent = {max_concurrent}")
    toml.write_text(text, encoding="utf-8")
    return project


def ingested(project: Path) -> None:
    assert CliRunner().invoke(app, ["ingest"]).exit_code == 0


def described(project: Path) -> None:
    ingested(project)
    with Store(project / "data" / "curation.sqlite") as store:
        for competition in store.competitions():
            store.save_description(Description(competition=competition.competition, provenance="machine", grade="C",
                                               text="Predict the target for each row of the test data."))


def sources(project: Path) -> None:
    ingested(project)
    seed_sample_sources(project)


class Command:
    """`curate ARGS` in its own process; its output goes to files the test can read while it runs."""

    def __init__(self, project: Path, args: list[str], name: str):
        self.stdout, self.stderr = project / f"{name}.out", project / f"{name}.err"
        with self.stdout.open("wb") as out, self.stderr.open("wb") as err:
            env = {**os.environ, "COLUMNS": "200", "PYTHONPATH": str(REPO)}
            self.process = subprocess.Popen([CURATE, *args], cwd=project, env=env, stdout=out, stderr=err)

    def said(self, text: str) -> bool:
        return text in self.stderr.read_text(encoding="utf-8", errors="replace")

    def finish(self) -> tuple[int, str]:
        try:
            code = self.process.wait(timeout=180)
        finally:
            if self.process.poll() is None:
                self.process.kill()
        return code, self.stdout.read_text(encoding="utf-8") + self.stderr.read_text(encoding="utf-8")


def until(condition, timeout: float = 120.0, state=lambda: "") -> None:
    """Poll `condition` (an event in another process or thread) until it holds; `state()` says what was seen when
    it never did."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out {state()}"
        time.sleep(0.005)


def bodies(llm_server) -> Counter:
    """How often each distinct request body reached the server."""
    return Counter(json.dumps(request.body, sort_keys=True) for request in llm_server.requests)


def paid_twice(project: Path) -> list[str]:
    with Store(project / "data" / "curation.sqlite") as store:
        paid = Counter(call.request_hash for call in store.llm_calls() if not call.cached and call.error is None)
    return [digest for digest, count in paid.items() if count > 1]


class Gate:
    """Holds every request until opened, then answers it as `model` does."""

    def __init__(self, model) -> None:
        self.model, self.opened = model, threading.Event()

    def __call__(self, request):
        assert self.opened.wait(timeout=120)
        return self.model(request)


# What each command leaves in the store when both have finished (the second may find some of it done already:
# `curate run` looks for a competition's translations only once its domain is settled).
@pytest.mark.parametrize(("args", "prepare", "finished"), [
    (["translate", "--lang", "zh"], sources, lambda store: len(store.translations("zh")) == 21),
    (["describe"], ingested, lambda store: len(store.descriptions()) == 7),
    (["tag"], described, lambda store: len(store.domains()) == 7),
    (["run", "--lang", "zh"], lambda project: None, lambda store: len(store.translations("zh")) == 21),
], ids=["translate", "describe", "tag", "run"])
def test_two_commands_at_once_send_each_request_once(project, llm_server, monkeypatch, args, prepare, finished):
    project = concurrent_project(project, llm_server, monkeypatch)
    prepare(project)
    gate = Gate(Model())
    llm_server.respond_with(gate)

    first = Command(project, args, "first")
    until(lambda: llm_server.count() > 0 or first.process.poll() is not None)
    second = Command(project, args, "second")
    # Held until the second command waits for the first's requests (or, as before, sends them again itself).
    until(lambda: second.said(WAITING) or max(bodies(llm_server).values()) > 1 or second.process.poll() is not None)
    gate.opened.set()
    (first_code, first_output), (second_code, second_output) = first.finish(), second.finish()

    assert first_code == 0 and second_code == 0, first_output + second_output  # exit 1 when anything is undone
    sent_twice = [body for body, times in bodies(llm_server).items() if times > 1]
    assert sent_twice == [], f"{len(sent_twice)} of {llm_server.count()} requests sent twice"
    assert llm_server.answered == llm_server.count()
    assert paid_twice(project) == []
    assert WAITING in second_output and "Traceback" not in first_output + second_output
    with Store(project / "data" / "curation.sqlite") as store:
        assert finished(store)
        assert store.request_claims() == []  # every claim let go


def test_a_killed_command_s_requests_are_taken_over_by_the_one_waiting_for_them(project, llm_server, monkeypatch):
    project = concurrent_project(project, llm_server, monkeypatch, max_concurrent=4)
    sources(project)
    model, second_started = Model(), threading.Event()
    llm_server.respond_with(lambda request: model(request) if second_started.is_set() else hang())

    first = Command(project, ["translate", "--lang", "zh"], "first")
    until(lambda: llm_server.count() == 4 or first.process.poll() is not None)  # its other items wait for a slot
    hung = set(bodies(llm_server))
    second_started.set()
    second = Command(project, ["translate", "--lang", "zh"], "second")
    try:
        until(lambda: second.said(WAITING) or second.process.poll() is not None)
    finally:
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(timeout=30)
    code, output = second.finish()
    llm_server.release()

    assert first.process.returncode == -signal.SIGKILL
    assert code == 0 and "translate:zh: 21 done, 0 failed" in output, output
    assert WAITING in output
    # Asked again: exactly the four the killed command was waiting on when it died, each once more; nothing else.
    assert {body for body, times in bodies(llm_server).items() if times > 1} == hung and len(hung) == 4
    assert max(bodies(llm_server).values()) == 2
    assert paid_twice(project) == []
    with Store(project / "data" / "curation.sqlite") as store:
        assert len(store.translations("zh")) == 21 and store.request_claims() == []
