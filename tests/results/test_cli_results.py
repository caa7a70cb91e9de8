"""`curate results` on run folders in the grading harness's own format: two agents, all 13 languages, every class,
broken files among them; what it prints, stores and reports."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pandas as pd

from curation.records import ERROR_CLASSES
from curation.store import Store
from tests.results.conftest import curate, json_lines
from tests.results.harness_runs import THIRTEEN, write_run

KEYS = ["run", "competition", "language", "agent", "error_class", "score", "normalized_score", "reason"]


def test_every_run_of_two_agents_in_13_languages_gets_its_class(project, harness):
    result = curate("results", "logs", "--from", "release", "--json")

    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    runs, summary = json_lines(result)
    assert len(runs) == len(harness) == 2 * 13 * 3
    assert all(list(run) == KEYS for run in runs)
    got = {(run["agent"], run["run"]): run["error_class"] for run in runs}
    wrong = {key: (got[key], wanted) for key, wanted in harness.items() if got[key] != wanted}
    assert wrong == {}
    assert set(got.values()) == set(ERROR_CLASSES)
    assert {run["language"] for run in runs} == set(THIRTEEN)
    assert summary["runs"] == 78 and summary["agents"] == ["aide", "react"] and summary["competitions"] == 3
    assert summary["classes"] == dict(Counter(got.values()).most_common()) | summary["classes"]
    assert sum(summary["classes"].values()) == 78


def test_reasons_say_what_the_run_said(project, harness):
    runs, _ = json_lines(curate("results", "logs", "--from", "release", "--json"))
    reasons = {run["error_class"]: run["reason"] for run in runs}

    assert reasons["syntax_error"] == "SyntaxError: expected ':' (line 9 of the submission)"
    assert reasons["missing_package"].startswith("missing imblearn: ")
    assert reasons["runtime_error"] == "KeyError: \"['Cabin'] not in index\" (in train, line 11 of the submission)"
    assert reasons["out_of_memory"].startswith("_ArrayMemoryError: Unable to allocate")
    assert reasons["timeout"].startswith("no submission code: the agent's logs: [2026-02-09 12:02:13] TimeoutError")
    assert reasons["leakage"].startswith("the code names the grader's folder: '/home/bench/competitions/validation/")
    assert reasons["hallucination"].startswith("score 0.9999 is far above every other run of the competition")
    assert reasons["other"].startswith("the grading container ended without writing its results")
    bad = {run["reason"] for run in runs if run["error_class"] == "bad_submission"}
    assert "the agent wrote no submission code (submission/submission.py)" in bad
    assert "Submission code does not have the predict function" in bad
    assert any(reason.startswith("Submission code failed for all CV folds") for reason in bad)


def test_normalized_scores_run_from_baseline_to_best(project, harness):
    runs, _ = json_lines(curate("results", "logs", "--from", "release", "--json"))
    spaceship = [run for run in runs if run["competition"] == "spaceship-titanic" and run["error_class"] == "success"]
    best = max(spaceship, key=lambda run: run["score"])

    assert best["normalized_score"] == 1.0
    for run in spaceship:  # the release's baseline is 0.6: 0 there, 1 at the best run
        assert run["normalized_score"] == round((run["score"] - 0.6) / (best["score"] - 0.6), 6)
    assert all(run["normalized_score"] == 0 for run in runs if run["error_class"] != "success")


def test_the_report_opens_on_the_gap_table_and_the_heatmap(project, harness):
    result = curate("results", "logs", "--from", "release")

    assert result.exit_code == 0, result.output
    report = (project / "reports" / "results.md").read_text(encoding="utf-8")
    first_screen = report.split("## Gap to English per agent")[0]
    assert ("| language | runs | success | normalized score | gap to English | 95% interval | competitions |"
            in first_screen)
    assert "| English (en) | 6 |" in first_screen and "| Kazakh (kk) | 6 |" in first_screen
    assert first_screen.rstrip().endswith("![Normalized score per competition and language](results_heatmap.png)")
    for section in ("## Performance profiles", "### Per language", "### Per data type", "### Per domain",
                    "### Runtime errors by exception class", "## The classes"):
        assert section in report
    for image in ("results_heatmap.png", "results_gaps.png", "results_by_agent.png", "results_profiles.png",
                  "results_taxonomy_language.png", "results_taxonomy_data_type.png"):
        assert (project / "reports" / image).read_bytes().startswith(b"\x89PNG")
    table = pd.read_parquet(project / "reports" / "results_runs.parquet")
    assert len(table) == 78 and set(table["data_type"]) == {"tabular"}
    assert pd.read_csv(project / "reports" / "results_runs.csv").shape == table.shape
    assert result.stdout.splitlines()[0] == ("78 runs of 2 agents (aide, react) on 3 competitions in 13 languages, "
                                             "joined with v1.0.0 (release)")


def test_reading_the_same_folders_again_adds_nothing(project, harness, settings):
    first = curate("results", "logs", "--from", "release")
    again = curate("results", "logs", "--from", "release")

    assert "stored: 78 added, 0 changed, 0 already stored as they are" in first.stdout
    assert "stored: 0 added, 0 changed, 78 already stored as they are" in again.stdout
    with Store(settings.path("store")) as store:
        assert len(store.stored_runs()) == 78
    # a run graded again with another outcome replaces its row
    changed = project / "logs" / "aide" / "titanic-English-python-0"
    write_run(project / "logs" / "aide", "titanic", "en", "success")
    third = curate("results", str(changed), "--from", "release", "--agent", "aide")
    assert "stored: 0 added, 1 changed, 0 already stored as they are" in third.stdout
    with Store(settings.path("store")) as store:
        stored = {run.run: run for run in store.stored_runs(["aide"])}
    assert len(stored) == 39 and stored["titanic-English-python-0"].error_class == "success"


def test_without_runs_it_reports_the_stored_ones(project, harness):
    curate("results", "logs/aide", "--from", "release")
    curate("results", "logs/react", "--from", "release")

    both = curate("results", "--from", "release", "--json")
    one = curate("results", "--from", "release", "--json", "--agent", "react")

    assert both.exit_code == 0 and json_lines(both)[1]["agents"] == ["aide", "react"]
    assert json_lines(both)[1]["runs"] == 78 and json_lines(one)[1]["runs"] == 39


def test_broken_files_and_folders_are_named_and_the_rest_is_read(project, harness):
    logs = project / "logs" / "aide"
    broken = {
        "titanic-Arab-python-1": b'{\n  "errors": [],\n  "tracebacks": [],\n  "success": true,\n  "sco',
        "titanic-Belarus-python-1": b"",
        "titanic-Chinese-python-1": json.dumps({"errors": [], "score": 0.7}).encode(),
        "titanic-Polish-python-1": b'{"success": true, "score": 0.8, "errors": ["\xff\xfe"]}',
    }
    for name, content in broken.items():
        (logs / name / "submission").mkdir(parents=True)
        (logs / name / "code_results.json").write_bytes(content)
    (logs / "notes").mkdir()
    (logs / "titanic-Turkish-python-2").mkdir()
    write_run(logs, "no-such-competition", "en", "success")
    (logs / "titanic-German-python-0").mkdir()
    (logs / "titanic-German-python-0" / "logs").mkdir()
    (logs / "titanic-Klingon-python-0" / "logs").mkdir(parents=True)
    mismatch = write_run(logs, "titanic", "ja", "success", fold=3)
    data = json.loads((mismatch / "code_results.json").read_text())
    (mismatch / "code_results.json").write_text(json.dumps({**data, "grader_competition": "spaceship-titanic"}))

    result = curate("results", "logs", "--from", "release", "--json")

    assert result.exit_code == 2
    logs = Path("logs/aide")  # named as given
    lines = result.stderr.splitlines()
    assert len(lines) == 10, lines
    expected = [
        f"{logs}/titanic-Arab-python-1/code_results.json: is not whole JSON (",
        f"{logs}/titanic-Belarus-python-1/code_results.json: is empty (the grading was cut off while writing it); "
        "skipped",
        f"{logs}/titanic-Chinese-python-1/code_results.json: has no true/false `success`, which the harness always "
        "writes; it is partial; skipped",
        f"{logs}/titanic-Polish-python-1/code_results.json: is not UTF-8 text; skipped",
        f"{logs}/notes: not a run folder: the harness names a run <comp-id>-<Language>-<codelang>-<fold|only_code>; "
        "skipped",
        f"{logs}/titanic-Turkish-python-2: not a run: it holds no code_results.json, submission/ or logs/; skipped",
        f"{logs}/no-such-competition-English-python-0: competition 'no-such-competition' is not in v1.0.0 (release); "
        "skipped",
        f"{logs}/titanic-German-python-0: language 'German' is not in the release v1.0.0 (release); skipped",
        f"{logs}/titanic-Klingon-python-0: language 'Klingon' is not a language the harness names",
        f"{logs}/titanic-Japanese-python-3/code_results.json: says competition 'spaceship-titanic', but its folder is "
        "named for 'titanic'; skipped",
    ]
    for start in expected:
        assert any(line.startswith(start) for line in lines), start
    assert "Traceback" not in result.output
    runs, summary = json_lines(result)
    assert len(runs) == 78 and summary["skipped"] == 10  # every readable run read, stored and reported
    assert (project / "reports" / "results.md").exists()


def test_nothing_readable_is_one_line_and_exit_2(project, harness, tmp_path):
    (tmp_path / "empty").mkdir()

    result = curate("results", str(tmp_path / "empty"), "--from", "release")

    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{tmp_path / 'empty'}: holds no run folder (the harness names a run "
        "<comp-id>-<Language>-<codelang>-<fold|only_code>); skipped",
        f"error: no run could be read from {tmp_path / 'empty'}; the lines above say why"]


def test_a_folder_of_agents_with_agent_is_refused_for_that_folder(project, harness):
    result = curate("results", "logs", "--from", "release", "--agent", "gpt")

    assert result.exit_code == 2
    assert result.stderr.splitlines()[0].startswith(f"{Path('logs')}: holds the folders of 2 agents (aide, react); "
                                                    "--agent names the agent of one folder")


def test_release_and_from_together_are_refused(project):
    result = curate("results", "logs", "--from", "release", "--release", "1.0.0")

    assert result.exit_code == 2
    assert result.stderr.strip() == "error: give --release or --from, not both"


def test_nan_folds_and_grade_sh_s_own_layout_are_read(project, harness):
    logs = project / "more" / "aide"
    folds = logs / "titanic-Italian-python-only_code"
    (folds / "submission").mkdir(parents=True)
    (folds / "submission" / "submission.py").write_text("def train(df):\n    return df\n", encoding="utf-8")
    # python/code_grader.py averages the folds that are not NaN, and Python's json writes NaN bare
    (folds / "code_results.json").write_text(
        '{"errors": ["Grader execution failed : (...)"], "tracebacks": ["NoneType: None\\n"], "success": true, '
        '"grader_competition": "titanic", "grader_language": "Italian", "grader": "default", "score": 0.74, '
        '"cv_scores": [0.71, NaN, 0.77]}', encoding="utf-8")
    manual = logs / "submission_titanic-Polish-python-only_code"  # what grade.sh leaves
    manual.mkdir()
    (manual / "code.py").write_text("import lightgbm\n", encoding="utf-8")
    (manual / "results.json").write_text(json.dumps({
        "errors": ["Could not load submission code: e=ModuleNotFoundError(\"No module named 'lightgbm'\")"],
        "tracebacks": ["NoneType: None\n"], "success": False}), encoding="utf-8")

    result = curate("results", "more/aide", "--from", "release", "--json")

    assert result.exit_code == 0, result.output
    runs = {run["run"]: run for run in json_lines(result)[0]}
    assert runs["titanic-Italian-python-only_code"]["error_class"] == "success"
    assert runs["titanic-Italian-python-only_code"]["reason"] == "score 0.74 (1 of 3 folds not graded)"
    assert runs["submission_titanic-Polish-python-only_code"]["language"] == "pl"
    assert runs["submission_titanic-Polish-python-only_code"]["reason"].startswith("missing lightgbm: ")


def test_runs_without_english_are_reported_without_gaps(project, harness):
    result = curate("results", "logs/aide/titanic-Kazakh-python-0", "logs/aide/spaceship-titanic-Kazakh-python-0",
                    "--from", "release", "--json")

    assert result.exit_code == 0, result.output
    summary = json_lines(result)[1]
    assert summary["agents"] == ["aide"] and set(summary["languages"]) == {"kk"}
    assert "gap_to_english" not in summary["languages"]["kk"]
    report = (project / "reports" / "results.md").read_text(encoding="utf-8")
    assert "| Kazakh (kk) | 2 |" in report and "| – | – | – |" in report


def test_a_report_folder_that_cannot_be_written_is_one_line_and_the_runs_are_kept(project, harness, settings):
    (project / "reports").write_text("not a folder", encoding="utf-8")

    result = curate("results", "logs", "--from", "release")

    assert result.exit_code == 2
    assert result.stderr.strip().startswith(f"error: {project / 'reports'}: is a file where a folder should be; move "
                                            "it aside (or set paths.reports in curate.toml), then run `curate results` "
                                            "again")
    assert "Traceback" not in result.output
    with Store(settings.path("store")) as store:
        assert len(store.stored_runs()) == 78
