"""The ML²B grading harness's run folders, exactly as it writes them.

Read from enaix/ml2b at commit 47dd7ea2f4af (2026-02-10), `fetch`ed and read with git show:

- src/runners/runner.py, `Task.unique_name`: a run's folder is `<comp-id>-<Language>-<codelang>-<fold>`, where fold
  is the fold's index, or `only_code` when the task has no fold; `DockerRunner.container_runtime` puts it under the
  runner's `logs_dir` (one folder per agent run).
- src/runners/runner.py, `DockerRunner.extract_artifacts`: the agent container's /home/logs, /home/submission and
  /home/artifacts are copied into the run folder as `logs/`, `submission/` and `artifacts/`.
- src/runners/runner.py, `DockerRunner.evaluate_results`: the code graded is `submission/submission.py`, and what the
  grading container answered is written beside it as `code_results.json` (json.dump, indent 2). When the agent left
  no submission.py, or the grading raised (its container waits an hour at most), no code_results.json is written.
- src/bench.py, `BenchPipeline.test_submission_code`: a grading container that wrote no results.json gives
  `{"errors": ["Failed to obtain output for python"], "success": false}`.
- python/common.py, `Results` and `report_error`: the results hold `errors` (messages) and `tracebacks` (one
  `traceback.format_exc()` per message, "NoneType: None" when there was none), and `success`; NaN is written as
  the bare token NaN (Python's json).
- python/code_grader.py, `grade_llm_code`: adds `grader_competition`, `grader_language`, `grader`, and on success
  `score` (the mean of the folds' scores that are not NaN) and `cv_scores`.
- python/competition.py, `Language`: the language names (English, Arab, Chinese, Italian, Kazakh, Polish, Romanian,
  Spanish, Turkish, Belarus, Japanese, Russian, French, Ukranian), spelled so.
- src/bench.py, `CodeLanguage`: `python` (R and Julia, `rlang` and `julia`, are commented out there).
- grade.sh and grade_manual.py: grading one file by hand leaves `submission_<comp-id>-<Language>-python-only_code/`
  with the code as `code.py` and the answer as `results.json` (the same keys).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

# python/competition.py's Language values.
HARNESS_LANGUAGES = ("English", "Arab", "Chinese", "Italian", "Kazakh", "Polish", "Romanian", "Spanish", "Turkish",
                     "Belarus", "Japanese", "Russian", "French", "Ukranian")
CODE_LANGUAGES = ("python", "rlang", "julia")
RESULTS_FILE = "code_results.json"  # the runner's
MANUAL_RESULTS_FILE = "results.json"  # grade.sh's, inside submission_<name>/
CODE_FILE = Path("submission") / "submission.py"  # the runner's
MANUAL_CODE_FILE = Path("code.py")
MANUAL_PREFIX = "submission_"
ARTIFACT_FOLDERS = ("logs", "submission", "artifacts")
RUN_NAME_FORM = "<comp-id>-<Language>-<codelang>-<fold|only_code>"

# comp-id is a Kaggle slug (hyphens inside), a language name has none: read from the right.
_RUN_NAME = re.compile(r"^(?P<competition>[A-Za-z0-9][\w.-]*?)-(?P<language>[A-Za-z]+)-"
                       rf"(?P<codelang>{'|'.join(CODE_LANGUAGES)})-(?P<fold>\d+|only_code)$")


@dataclass(frozen=True)
class RunName:
    """A run folder's name taken apart."""

    competition: str
    language: str  # as the harness names it: "Belarus", "Ukranian"
    codelang: str
    fold: str  # the fold's index, or "only_code"
    manual: bool = False  # grade.sh's submission_<name>/ layout


def parse_run_name(name: str) -> RunName | None:
    """The parts of a run folder's name, or None when the harness would not have named a run so."""
    manual = name.startswith(MANUAL_PREFIX)
    match = _RUN_NAME.match(name.removeprefix(MANUAL_PREFIX) if manual else name)
    if match is None:
        return None
    return RunName(**match.groupdict(), manual=manual)


class BadResults(ValueError):
    """A results file that cannot be read or lacks what the harness always writes; the message says which."""


@dataclass(frozen=True)
class HarnessResults:
    """What one code_results.json says."""

    success: bool
    errors: list[str]
    tracebacks: list[str]
    score: float | None  # None when absent or not finite
    cv_scores: list[float | None]
    competition: str | None  # grader_competition
    language: str | None  # grader_language


def read_results(path: Path, raw: bytes | None = None) -> HarnessResults:
    """A code_results.json (or grade.sh's results.json) as the harness writes it, from `raw` when it was read
    already; BadResults names what is wrong."""
    try:
        text = (path.read_bytes() if raw is None else raw).decode("utf-8")
    except OSError as error:
        raise BadResults(f"cannot be read ({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise BadResults("is not UTF-8 text") from None
    if not text.strip():
        raise BadResults("is empty (the grading was cut off while writing it)")
    try:
        data = json.loads(text)  # Python's json reads the NaN the harness writes
    except json.JSONDecodeError as error:
        raise BadResults(f"is not whole JSON ({error.msg}, line {error.lineno}); the grading was cut off while "
                         "writing it, grade the run again") from None
    if not isinstance(data, dict):
        raise BadResults("is not a JSON object")
    if not isinstance(data.get("success"), bool):
        raise BadResults("has no true/false `success`, which the harness always writes; it is partial")
    errors, tracebacks = data.get("errors", []), data.get("tracebacks", [])
    if not isinstance(errors, list) or not isinstance(tracebacks, list):
        raise BadResults("has `errors` or `tracebacks` that are not lists")
    score = data.get("score")
    if score is not None and (isinstance(score, bool) or not isinstance(score, (int, float))):
        raise BadResults(f"has a `score` that is not a number ({score!r})")
    cv_scores = data.get("cv_scores") or []
    if not isinstance(cv_scores, list) or any(isinstance(value, bool) or not isinstance(value, (int, float, type(None)))
                                              for value in cv_scores):
        raise BadResults("has `cv_scores` that are not a list of numbers")
    return HarnessResults(
        success=data["success"], errors=[str(error) for error in errors],
        tracebacks=[str(trace) for trace in tracebacks if str(trace).strip() not in ("NoneType: None", "")],
        score=_finite(score), cv_scores=[_finite(value) for value in cv_scores],
        competition=data.get("grader_competition"), language=data.get("grader_language"))


def _finite(value: float | int | None) -> float | None:
    return float(value) if value is not None and math.isfinite(value) else None
