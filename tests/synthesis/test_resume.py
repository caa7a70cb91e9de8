"""`curate synthesize` killed mid-run: the rerun pays for no answered call and redoes no finished verification."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from typer.testing import CliRunner

from curation.cli import app
from curation.store import Store
from curation.synthesis.records import VerifiedTask
from tests.fakes.llm_server import hang
from tests.synthesis.datasets import houses, loans, patients
from tests.synthesis.scripted import TaskDesigner, role_of

REPO = Path(__file__).resolve().parents[2]


def verdicts(project: Path) -> dict[str, str]:
    with Store(project / "data" / "curation.sqlite") as store:
        rows = store.db.execute("SELECT key, updated_at FROM synthesis WHERE step = 'verify'").fetchall()
        return {row["key"]: row["updated_at"] for row in rows}


def test_killed_during_verification_then_rerun(project, llm_server, tmp_path, monkeypatch):
    raw = [str(build(tmp_path / "raw")) for build in (houses, patients, loans)]
    out = project / "out"
    designer = TaskDesigner()
    second_review = threading.Event()

    def hang_on_the_second_review(request):
        if role_of(request) == "task_review" and any(role_of(r) == "task_review" for r in llm_server.requests[:-1]):
            second_review.set()
            return hang()
        return designer(request)

    llm_server.respond_with(hang_on_the_second_review)
    env = {**os.environ, "PYTHONPATH": str(REPO), "OPENAI_BASE_URL": llm_server.openai_base_url,
           "ANTHROPIC_BASE_URL": llm_server.anthropic_base_url}
    worker = subprocess.Popen([sys.executable, "-c", "from curation.cli import main; main()", "synthesize", *raw,
                               "--out", str(out)], cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert second_review.wait(timeout=120), worker.stderr.read().decode() if worker.poll() is not None else "no review"
        deadline = time.monotonic() + 30
        while len(verdicts(project)) < 2 and time.monotonic() < deadline:  # the first reviewed task and the leak
            time.sleep(0.1)
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
    finally:
        if worker.poll() is None:
            worker.kill()
        llm_server.release()
    before = verdicts(project)
    assert len(before) == 2

    llm_server.respond_with(designer)
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)
    result = CliRunner().invoke(app, ["synthesize", *raw, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "synthesize verify: 1 done, 0 failed, 0 not started; 1 LLM call (0 from cache)" in result.output
    after = verdicts(project)
    assert {key: after[key] for key in before} == before  # finished verdicts untouched
    # One uninterrupted run answers 3 brainstorms, 3 designs and 2 reviews; so did both runs together. The
    # ninth request is the review the killed process was waiting on.
    assert llm_server.answered == 8 and llm_server.count() == 9
    assert sorted(p.name for p in out.iterdir()) == ["houses-house-price", "patients-readmission", "rejected"]
    with Store(project / "data" / "curation.sqlite") as store:
        assert [v.accepted for v in store.synthesis_records("verify", VerifiedTask)] == [True, False, True]
