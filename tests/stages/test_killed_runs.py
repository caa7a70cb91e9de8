"""Killing `curate translate` (SIGKILL, a subprocess) at several points and running it again loses no verdict and no
fix, and pays for no answer twice (issue 14). The kill points of `curate review pull` are in
tests/review/test_killed_pull.py.

The project: the sample translated into Chinese and Japanese; the Chinese sheet answered (one native fix, one
NO without a version, which merge sends back for retranslation, the rest YES and YES) and merged; then the
translate prompt edited, so Japanese (unreviewed) and the one Chinese retranslation are due.
"""

from __future__ import annotations

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
from curation.store import Store
from tests.fakes.llm_server import hang
from tests.review.seeding import answer_unanswered, fill, seed_sample_sources
from tests.stages.test_translate import Translator


CURATE = str(Path(sys.executable).parent / "curate")
COMMENT = "列名翻译错误"


def curate(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture
def project_under_review(project, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    toml = project / "curate.toml"
    text = toml.read_text(encoding="utf-8").replace("[review.annotators]\n", '[review.annotators]\nzh = ["mei"]\n')
    # one request at a time, none held back by the rate limit: a kill lands between two known requests
    text = text.replace("requests_per_minute = 500\ntokens_per_minute = 200000\nmax_concurrent = 16",
                        "requests_per_minute = 60000\ntokens_per_minute = 100000000\nmax_concurrent = 1")
    toml.write_text(text, encoding="utf-8")
    assert curate("ingest").exit_code == 0
    seed_sample_sources(project)
    llm_server.respond_with(Translator())
    assert curate("translate", "--lang", "zh,ja").exit_code == 0
    return project


def review_russian(project) -> str:
    """Push, answer (a fix, a NO without one, YES for the rest), pull and merge zh; returns the fix."""
    assert curate("review", "push", "--lang", "zh").exit_code == 0
    workbook = project / "review" / "zh" / "zh-mei.xlsx"
    with Store(project / "data" / "curation.sqlite") as store:
        fix = store.translation("titanic", "description", "zh").text.rstrip("。") + "，并检查结果。"
    fill(workbook, "description", "titanic/description/zh", verdict="NO and YES", own_version=fix)
    fill(workbook, "data_card", "titanic/data_card/zh", verdict="NO and NO", comment=COMMENT)
    answer_unanswered(workbook)
    return fix


def paid_answers(store: Store) -> list:
    return [call for call in store.llm_calls() if not call.cached and call.error is None]


def paid_twice(store: Store) -> list[str]:
    answers = Counter(call.request_hash for call in paid_answers(store))
    return [digest for digest, count in answers.items() if count > 1]


def run_killed(args: list[str], cwd: Path, when) -> subprocess.Popen:
    """Start `curate ARGS` and SIGKILL it once `when()` (polled) is true; returns the finished process."""
    worker = subprocess.Popen([CURATE, *args], cwd=cwd, env={**os.environ, "COLUMNS": "200"},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while worker.poll() is None and not when() and time.monotonic() < deadline:
        time.sleep(0.001)
    if worker.poll() is None:
        worker.send_signal(signal.SIGKILL)
    worker.wait(timeout=30)
    return worker


@pytest.mark.parametrize("kill_at", [1, 4, 8])  # of the ten requests the run makes
def test_translate_killed_at_a_request_and_rerun(project_under_review, llm_server, kill_at):
    project = project_under_review
    fix = review_russian(project)
    assert curate("review", "pull", "--lang", "zh").exit_code == 0
    assert "zh: 19 keep, 1 fix, 1 retranslate" in curate("merge", "--lang", "zh").output
    prompt = project / "prompts" / "translate.md"
    prompt.write_text(prompt.read_text(encoding="utf-8") + "\nKeep the register formal.\n", encoding="utf-8")
    llm_server.reset()
    with Store(project / "data" / "curation.sqlite") as store:
        paid_before = len(paid_answers(store))

    translator, hung = Translator(), threading.Event()

    def hang_at_the_nth(request):
        if len(llm_server.requests) == kill_at:
            hung.set()
            return hang()
        return translator(request)

    llm_server.respond_with(hang_at_the_nth)
    try:
        killed = run_killed(["translate", "--lang", "zh,ja", "--yes"], project, hung.is_set)
        assert killed.returncode == -signal.SIGKILL, killed.stderr.read().decode()
    finally:
        llm_server.release()
    answered_before_the_kill = llm_server.answered

    llm_server.respond_with(translator)
    rerun = curate("translate", "--lang", "zh,ja", "--yes")
    assert rerun.exit_code == 0, rerun.output

    with Store(project / "data" / "curation.sqlite") as store:
        assert paid_twice(store) == []
        # every answer the provider gave was kept: the killed run's were not asked again
        assert len(paid_answers(store)) - paid_before == llm_server.answered >= answered_before_the_kill
        assert len(store.translations(language="ja")) == 21
        assert store.open_requests("retranslate") == []
        again = store.translation("titanic", "data_card", "zh")
        assert (again.provenance, again.round, again.feedback) == ("retranslated", 2, f"NO and NO: {COMMENT}")
        verdicts = store.verdicts("zh")
        assert len(verdicts) == 21 and any(v.own_version == fix for v in verdicts)
    merged = curate("merge", "--lang", "zh")
    assert "zh: 19 keep, 1 fix, 1 open" in merged.output, merged.output  # the retranslation waits for review
    with Store(project / "data" / "curation.sqlite") as store:
        final = next(f for f in store.final_texts("zh") if (f.competition, f.field) == ("titanic", "description"))
        assert (final.text, final.provenance) == (fix, "native_fix")
