"""Classify one run by deterministic rules, from what it holds alone (plausibility.py adds what needs the others).

In order: leakage in the code (whatever the outcome: a leak explains a score as well as a crash); a score that
cannot be right (reported by a run that failed, outside the metric's range); a success; then why the run failed:
no code at all, the errors and tracebacks (taxonomy.py), the code itself (does it parse), and, for a run the grading
never answered, the agent's logs (a timeout or a kill); else `other`.
"""

from __future__ import annotations

import ast
import re

from curation.records import RunResult
from curation.results.leakage import leak_in
from curation.results.metrics import metric_range
from curation.results.read_run import ReadRun
from curation.results.release_info import TaskInfo
from curation.results.taxonomy import Verdict, failure_class, log_verdict

NO_OUTPUT = "Failed to obtain output for"  # src/bench.py, test_submission_code: no results.json from the grading


def _set(run: RunResult, verdict: Verdict) -> RunResult:
    run.error_class = verdict.error_class  # type: ignore[assignment]
    run.reason = verdict.reason
    run.error_type = verdict.error_type
    return run


def classify(read: ReadRun, task: TaskInfo, held_out: list[re.Pattern] | tuple = ()) -> RunResult:
    """The run's class and reason by the rules (a class a CSV named is kept as given)."""
    run = read.result
    if run.classified_by == "input":
        return run
    run.leak = leak_in(read.code, held_out)
    if run.leak:
        return _set(run, Verdict("leakage", f"the code {run.leak}"))
    if run.score is not None and run.success is False:
        return _set(run, Verdict("hallucination", f"a score ({run.score:g}) reported by a run that failed"
                                 + (f": {_last_line(run.evidence)}" if run.evidence else "")))
    bounds = metric_range(task.metric)
    if run.score is not None and bounds and not bounds[0] <= run.score <= bounds[1]:
        return _set(run, Verdict("hallucination", f"score {run.score:g} is outside what {task.metric} can be "
                                 f"({bounds[0]:g} to {bounds[1]:g})"))
    if run.success and run.score is not None:
        failed_folds = sum(value is None for value in run.cv_scores)
        return _set(run, Verdict("success", f"score {run.score:g}" + (
            f" ({failed_folds} of {len(run.cv_scores)} folds not graded)" if failed_folds else "")))
    if not run.has_code:
        verdict = log_verdict(read.logs()) if not read.results_written else None
        if verdict is not None and verdict.error_class == "timeout":
            return _set(run, Verdict("timeout", f"no submission code: {verdict.reason}"))
        return _set(run, Verdict("bad_submission", "the agent wrote no submission code (submission/submission.py)"))
    verdict = failure_class(run.evidence)
    if verdict is not None:
        return _set(run, verdict)
    if read.code is not None and (problem := _syntax_problem(read.code)):
        return _set(run, Verdict("syntax_error", problem))
    if not read.results_written:
        verdict = log_verdict(read.logs())
        if verdict is not None:
            return _set(run, verdict)
        return _set(run, Verdict("other", "the grading wrote no code_results.json (stopped past the harness's hour, "
                                          "or the harness failed): see the harness's own log"))
    if run.success:
        return _set(run, Verdict("other", "marked successful, without a score"))
    if NO_OUTPUT in run.evidence:
        return _set(run, Verdict("other", "the grading container ended without writing its results (killed at its "
                                          "memory limit, or crashed before writing): see the harness's own log"))
    return _set(run, Verdict("other", _last_line(run.evidence) or "failed, and no error was written"))


def _syntax_problem(code: str) -> str:
    """How the code fails to parse, or '' when it parses."""
    try:
        compile(code, "submission.py", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)  # parsed, never run
    except SyntaxError as error:
        return f"{type(error).__name__}: {error.msg} (line {error.lineno} of the submission)"
    except ValueError as error:  # null bytes
        return f"SyntaxError: {error}"
    return ""


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    return last if len(last) <= 160 else last[:159] + "…"
