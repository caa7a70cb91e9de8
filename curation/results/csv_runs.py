"""Results from elsewhere as a plain CSV: `comp_id, language, agent, score[, status, error]`, one run a row.

`language` may be the harness's name (Arab), the ISO code (ar) or the English name (Arabic); `agent` may be left
out when --agent names it. `status` is success/ok/passed or failed/error (or one of the taxonomy's failure classes,
taken as given); without it a row with a score and no error succeeded. `error` is the message or traceback the run
ended with, read by the same rules as the harness's. A row is known as `<file name>:<line>`.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable
from pathlib import Path

from curation.records import ERROR_CLASSES, RunResult
from curation.results.read_run import EVIDENCE_CHARS, ReadRun, digest_of
from curation.results.release_info import ReleaseInfo

REQUIRED = ("comp_id", "language", "score")
SUCCEEDED = {"success", "succeeded", "ok", "passed", "pass", "true", "1", "valid", "done"}
FAILED = {"failed", "fail", "failure", "error", "false", "0", "crashed", "invalid"}
_ALIASES = {"comp-id": "comp_id", "competition": "comp_id", "lang": "language", "model": "agent"}


def read_csv_runs(path: Path, agent: str | None, release: ReleaseInfo,
                  known_language: Callable[[str], bool]) -> tuple[list[ReadRun], list[str]]:
    """The runs of a CSV file, and one line per row (or for the file) that cannot be read."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as error:
        return [], [f"{path}: cannot be read ({error.strerror or error}); skipped"]
    except UnicodeDecodeError:
        return [], [f"{path}: is not UTF-8 text; save it as UTF-8 CSV; skipped"]
    reader = csv.reader(io.StringIO(text, newline=""))  # an error cell may hold a whole traceback, newlines and all
    rows: list[tuple[int, list[str]]] = []  # (the line a row starts on, its cells)
    try:
        start = 1
        for values in reader:
            rows.append((start, values))
            start = reader.line_num + 1
    except csv.Error as error:
        return [], [f"{path}:{reader.line_num}: not CSV ({error}); the file skipped"]
    if not rows:
        return [], [f"{path}: is empty; skipped"]
    header = [_ALIASES.get(name.strip().lower().replace(" ", "_"), name.strip().lower().replace(" ", "_"))
              for name in rows[0][1]]
    missing = [name for name in REQUIRED + (() if agent else ("agent",)) if name not in header]
    if missing:
        return [], [f"{path}: no column {', '.join(missing)} (a results CSV has comp_id, language, agent, score and "
                    "optionally status, error; --agent stands in for agent); skipped"]
    runs, problems = [], []
    for line, values in rows[1:]:
        if not any(value.strip() for value in values):
            continue
        row = dict(zip(header, (value.strip() for value in values)))
        read = _row(path, line, row, agent, release, known_language)
        (problems if isinstance(read, str) else runs).append(read)
    return runs, problems


def _row(path: Path, line: int, row: dict[str, str], agent: str | None, release: ReleaseInfo,
         known_language: Callable[[str], bool]) -> ReadRun | str:
    where = f"{path}:{line}"
    comp_id, language_name = row.get("comp_id", ""), row.get("language", "")
    if not comp_id or not language_name:
        return f"{where}: no {'comp_id' if not comp_id else 'language'}; fill it in; row skipped"
    language = release.language_code(language_name)
    if language is None:
        what = "is not in" if known_language(language_name) else "is not a language (harness name, ISO code or " \
                                                                  "English name) of"
        return f"{where}: language {language_name!r} {what} {release.name}; row skipped"
    if comp_id not in release.tasks:
        return f"{where}: competition {comp_id!r} is not in {release.name}; row skipped"
    owner = agent or row.get("agent", "")
    if not owner:
        return f"{where}: no agent; fill it in or give --agent; row skipped"
    score_text = row.get("score", "")
    try:
        score = float(score_text) if score_text else None
    except ValueError:
        return f"{where}: score {score_text!r} is not a number; row skipped"
    if score is not None and not math.isfinite(score):
        score = None
    status = row.get("status", "").lower()
    error = row.get("error", "")
    result = RunResult(run=f"{path.name}:{line}", agent=owner, competition=comp_id, language=language,
                       source=where, score=score, evidence=error[-EVIDENCE_CHARS:])
    if status in SUCCEEDED:  # "success" too: a score said to be fine is still checked like any other
        result.success = True
    elif status in ERROR_CLASSES:
        result.success = False
        result.error_class = status  # type: ignore[assignment]
        result.classified_by = "input"
        result.reason = f"given by the CSV (status {status})" + (f": {error.splitlines()[-1][:160]}" if error else "")
    elif status in FAILED:
        result.success = False
    elif status:
        return (f"{where}: status {status!r} is neither success nor failed (nor a class: {', '.join(ERROR_CLASSES)}); "
                "row skipped")
    else:
        result.success = score is not None and not error
    return ReadRun(result=result, digest=digest_of(",".join(f"{k}={v}" for k, v in sorted(row.items())), owner))
