"""Run a drafted task's baseline in a subprocess under a time and a memory limit, and grade what it submits.

The baseline must beat a predictor that ignores the features (the mean, the majority class, the positive rate);
a task whose features teach nothing, or whose files the baseline cannot read, fails here.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

from curation.synthesis.metrics import METRICS, better, compute, trivial_prediction
from curation.synthesis.records import CheckOutcome
from curation.synthesis.refactor import Draft

CHECK = "baseline beats a trivial predictor"
# Native math libraries start a thread pool per core; one thread keeps the memory limit meaningful.
SINGLE_THREAD = {name: "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}


def _limit_memory(megabytes: int):
    def apply() -> None:
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return apply


def run_baseline(draft: Draft, seconds: float, memory_mb: int) -> tuple[CheckOutcome, float | None, float | None]:
    """(outcome, baseline score, trivial score). The process is killed at its limits and that is the outcome."""
    metric = METRICS[draft.design.metric]
    target = draft.design.idea.target
    trivial = compute(metric, draft.answers[target], trivial_prediction(metric, draft.train[target], len(draft.answers)))
    with tempfile.TemporaryDirectory(prefix="curate-baseline-") as work:
        output = Path(work) / "submission.csv"
        command = [sys.executable, str(draft.folder / "notebooks" / "baseline.py"), str(draft.folder / "data"), str(output)]
        try:
            finished = subprocess.run(command, cwd=work, capture_output=True, text=True, timeout=seconds,
                                      env={**os.environ, **SINGLE_THREAD}, preexec_fn=_limit_memory(memory_mb))
        except subprocess.TimeoutExpired:
            return CheckOutcome(check=CHECK, passed=False, detail=f"the baseline was stopped after {seconds:g} s "
                                                                 "(time limit)"), None, trivial
        if finished.returncode != 0:
            last = (finished.stderr.strip().splitlines() or ["no output"])[-1][:200]
            memory = " (memory limit reached)" if "MemoryError" in finished.stderr else ""
            return CheckOutcome(check=CHECK, passed=False, detail=f"the baseline failed{memory}: {last}"), None, trivial
        try:
            submission = pd.read_csv(output)
            aligned = draft.answers[[draft.id_col]].merge(submission, on=draft.id_col, how="left")
            score = compute(metric, draft.answers[target], aligned[target])
        except (OSError, KeyError, ValueError, TypeError) as error:
            return CheckOutcome(check=CHECK, passed=False, detail=f"its submission cannot be graded: {error}"), None, trivial
    passed = better(metric, score, trivial)
    verdict = "beats" if passed else "does not beat"
    return (CheckOutcome(check=CHECK, passed=passed,
                         detail=f"{metric.name} {score:.4f} {verdict} the trivial predictor's {trivial:.4f}"),
            score, trivial)
