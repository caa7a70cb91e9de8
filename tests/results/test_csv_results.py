"""Results from elsewhere as a plain CSV: comp_id, language, agent, score[, status, error]."""

from __future__ import annotations

import csv
from pathlib import Path

from tests.results.conftest import curate, json_lines
from tests.results.harness_runs import THIRTEEN, write_release
from tests.results.conftest import COMPETITIONS

TRACEBACK = """Traceback (most recent call last):
  File "/workspace/solution.py", line 58, in <module>
    model.fit(X_train, y_train, eval_set=[(X_valid, y_valid)], early_stopping_rounds=50)
  File "/opt/conda/lib/python3.10/site-packages/xgboost/core.py", line 729, in inner_f
    return func(**kwargs)
TypeError: XGBModel.fit() got an unexpected keyword argument 'early_stopping_rounds'"""


def write_csv(path: Path, rows: list[list[str]], header=("comp_id", "language", "agent", "score", "status", "error")):
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def test_a_csv_of_scores_from_elsewhere_is_classified_like_run_folders(project):
    write_release(project / "release", COMPETITIONS, THIRTEEN)
    rows = [["titanic", language, "gpt-oss", f"{0.70 + number / 100:.3f}", "success", ""]
            for number, language in enumerate(["English", "kk", "Arabic", "Belarus", "zh", "ru"])]
    rows += [
        ["titanic", "Polish", "gpt-oss", "", "failed", TRACEBACK],
        ["titanic", "Romanian", "gpt-oss", "", "failed", "ModuleNotFoundError: No module named 'optuna_integration'"],
        ["titanic", "Spanish", "gpt-oss", "", "failed", "Execution timed out after 3600 seconds"],
        ["titanic", "Turkish", "gpt-oss", "", "failed", "Submission has 1000 rows, expected 1459 rows"],
        ["titanic", "Italian", "gpt-oss", "0.93", "failed", "RuntimeError: CUDA error: device-side assert triggered"],
        ["titanic", "French", "gpt-oss", "1.42", "success", ""],
        ["titanic", "Japanese", "gpt-oss", "", "out_of_memory", "the job was killed"],
        ["spaceship-titanic", "en", "gpt-oss", "", "", ""],
    ]
    path = write_csv(project / "scores.csv", rows)

    result = curate("results", str(path), "--from", "release", "--json")

    assert result.exit_code == 0, result.output
    runs, summary = json_lines(result)
    classes = {run["run"]: run["error_class"] for run in runs}
    assert classes == {
        **{f"scores.csv:{line}": "success" for line in range(2, 8)},
        "scores.csv:8": "runtime_error", "scores.csv:14": "missing_package", "scores.csv:15": "timeout",
        "scores.csv:16": "bad_submission", "scores.csv:17": "hallucination", "scores.csv:18": "hallucination",
        "scores.csv:19": "out_of_memory", "scores.csv:20": "other"}
    reasons = {run["run"]: run["reason"] for run in runs}
    assert reasons["scores.csv:8"] == ("TypeError: XGBModel.fit() got an unexpected keyword argument "
                                       "'early_stopping_rounds' (in <module>, line 58 of the submission)")
    assert reasons["scores.csv:17"].startswith("a score (0.93) reported by a run that failed")
    assert reasons["scores.csv:18"] == "score 1.42 is outside what roc_auc_score can be (0 to 1)"
    assert reasons["scores.csv:19"] == "given by the CSV (status out_of_memory): the job was killed"
    assert summary["agents"] == ["gpt-oss"]


def test_bad_rows_are_named_by_line_and_the_others_read(project):
    write_release(project / "release", COMPETITIONS, THIRTEEN)
    path = write_csv(project / "scores.csv", [
        ["titanic", "en", "0.81"],
        ["titanic", "Klingon", "0.7"],
        ["titanic", "de", "0.7"],
        ["no-such-task", "en", "0.7"],
        ["titanic", "kk", "abc"],
        ["", "kk", "0.7"],
        ["titanic", "ru", "0.75"],
    ], header=("comp_id", "language", "score"))

    result = curate("results", str(path), "--from", "release", "--agent", "aide", "--json")

    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{path}:3: language 'Klingon' is not a language (harness name, ISO code or English name) of v1.0.0 (release); "
        "row skipped",
        f"{path}:4: language 'de' is not in v1.0.0 (release); row skipped",
        f"{path}:5: competition 'no-such-task' is not in v1.0.0 (release); row skipped",
        f"{path}:6: score 'abc' is not a number; row skipped",
        f"{path}:7: no comp_id; fill it in; row skipped",
    ]
    runs, _ = json_lines(result)
    assert [(run["run"], run["agent"]) for run in runs] == [("scores.csv:2", "aide"), ("scores.csv:8", "aide")]


def test_a_csv_without_the_columns_is_one_line(project):
    write_release(project / "release", COMPETITIONS, THIRTEEN)
    path = write_csv(project / "scores.csv", [["titanic", "en"]], header=("competition_name", "lang"))

    result = curate("results", str(path), "--from", "release")

    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (
        f"{path}: no column comp_id, score, agent (a results CSV has comp_id, language, agent, score and optionally "
        "status, error; --agent stands in for agent); skipped")
