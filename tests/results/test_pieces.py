"""The pieces of `curate results` on their own: the harness's names, metrics, normalized scores, the gap's bootstrap,
performance profiles, the plausibility fence and the leakage signs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from curation.languages import LANGUAGES
from curation.records import RunResult
from curation.results.harness import HARNESS_LANGUAGES, RunName, parse_run_name
from curation.results.leakage import leak_in
from curation.results.metrics import direction_of, metric_range
from curation.results.plausibility import implausible
from curation.results.release_info import TaskInfo
from curation.results.scores import normalized_scores
from curation.results.statistics import cells, language_gaps, profiles


def test_the_registry_names_every_language_as_the_harness_does():
    assert sorted(language.harness for language in LANGUAGES.values()) == sorted(HARNESS_LANGUAGES)


@pytest.mark.parametrize("name, parts", [
    ("ieor-242-nyc-taxi-Ukranian-python-0", RunName("ieor-242-nyc-taxi", "Ukranian", "python", "0")),
    ("wids-datathon-2020-Arab-python-only_code", RunName("wids-datathon-2020", "Arab", "python", "only_code")),
    ("2024-datalab-cup1-Belarus-python-12", RunName("2024-datalab-cup1", "Belarus", "python", "12")),
    ("submission_titanic-Polish-python-only_code", RunName("titanic", "Polish", "python", "only_code", manual=True)),
    ("titanic-Polish-python", None), ("titanic-Polish-cobol-0", None), ("notes", None),
    ("titanic-Pol ish-python-0", None),
])
def test_run_folder_names_are_read_from_the_right(name, parts):
    assert parse_run_name(name) == parts


@pytest.mark.parametrize("stated, metric, direction", [
    ("maximize", "root_mean_squared_error", "maximize"), (None, "root_mean_squared_error", "minimize"),
    (None, "RMSLE", "minimize"), (None, "log_loss", "minimize"), (None, "roc_auc_score", "maximize"),
    (None, "MAP@5", "maximize"), ("minimize", "accuracy_score", "minimize"), ("lower", "custom", "minimize"),
])
def test_a_metric_points_as_stated_else_as_its_name_says(stated, metric, direction):
    assert direction_of(stated, metric) == direction


def test_metric_ranges():
    assert metric_range("roc_auc_score") == (0, 1) and metric_range("ROC AUC") == (0, 1)
    assert metric_range("r2_score")[1] == 1 and metric_range("rmse")[0] == 0
    assert metric_range("a metric nobody knows") is None


def run(competition: str, score: float | None, error_class: str = "success", language: str = "en",
        agent: str = "a", name: str = "") -> RunResult:
    return RunResult(run=name or f"{competition}-{language}-{score}", agent=agent, competition=competition,
                     language=language, source="", score=score, error_class=error_class)


def test_normalized_scores_point_the_metric_s_way():
    tasks = {"auc": TaskInfo("auc", metric="roc_auc_score", baseline=0.5),
             "rmse": TaskInfo("rmse", metric="rmse", direction="minimize", baseline=10.0),
             "alone": TaskInfo("alone", metric="accuracy")}
    runs = [run("auc", 0.9), run("auc", 0.7), run("auc", 0.4), run("auc", None, "runtime_error"),
            run("rmse", 2.0), run("rmse", 6.0), run("rmse", 12.0), run("alone", 0.8), run("auc", 0.99, "leakage")]

    assert normalized_scores(runs, tasks) == pytest.approx([1.0, 0.5, 0.0, 0.0, 1.0, 0.5, 0.0, 1.0, 0.0])


def test_no_run_above_the_baseline_scores_zero():
    tasks = {"hard": TaskInfo("hard", metric="roc_auc_score", baseline=0.8)}
    assert normalized_scores([run("hard", 0.7), run("hard", 0.75)], tasks) == [0.0, 0.0]


def test_a_score_far_beyond_the_others_is_implausible_and_a_good_one_is_not():
    tasks = {"auc": TaskInfo("auc", metric="roc_auc_score", baseline=0.70),
             "rmse": TaskInfo("rmse", metric="rmse", direction="minimize")}
    runs = [run("auc", value) for value in (0.78, 0.80, 0.81, 0.82, 0.83, 0.84, 0.86, 0.91, 0.999)]
    runs += [run("rmse", value) for value in (4.1, 4.3, 4.4, 4.6, 4.8, 3.7, 0.01)]
    runs += [run("auc", 1.0, "runtime_error")]

    flagged = implausible(runs, tasks, fence=3.0)

    assert sorted(runs[index].score for index in flagged) == [0.01, 0.999]
    assert flagged[8].startswith("score 0.999 is far above every other run of the competition")
    assert "below" in flagged[15]


def test_fewer_than_five_references_flag_nothing():
    tasks = {"auc": TaskInfo("auc", metric="roc_auc_score")}
    assert implausible([run("auc", value) for value in (0.6, 0.61, 0.62, 0.999)], tasks, fence=3.0) == {}


def table_of(values: dict[tuple[str, str, str], float]) -> pd.DataFrame:
    rows = [{"run": f"{c}-{l}-{a}", "competition": c, "language": l, "agent": a, "normalized_score": v,
             "error_class": "success" if v > 0 else "runtime_error"} for (c, l, a), v in values.items()]
    return pd.DataFrame(rows)


def test_the_gap_to_english_and_its_bootstrap_are_seeded():
    generator = np.random.default_rng(7)
    values = {}
    for number in range(30):
        english = float(generator.uniform(0.3, 1.0))
        values[(f"c{number}", "en", "a")] = english
        values[(f"c{number}", "kk", "a")] = max(0.0, english - 0.1 + float(generator.normal(0, 0.05)))
        values[(f"c{number}", "ru", "a")] = english
    cell_table = cells(table_of(values))

    first = language_gaps(cell_table, ["en", "kk", "ru"], resamples=2000, seed=0)
    again = language_gaps(cell_table, ["ru", "kk", "en"], resamples=2000, seed=0)
    other = language_gaps(cell_table, ["en", "kk", "ru"], resamples=2000, seed=1)

    kk = {gap.language: gap for gap in first}["kk"]
    assert kk.competitions == 30 and kk.gap == pytest.approx(-0.1, abs=0.02)
    assert kk.low < kk.gap < kk.high < 0
    assert {gap.language: gap for gap in again}["kk"] == kk  # the same whatever the order
    assert {gap.language: gap for gap in other}["kk"] != kk
    ru = {gap.language: gap for gap in first}["ru"]
    assert (ru.gap, ru.low, ru.high) == (0.0, 0.0, 0.0)


def test_a_profile_s_area_is_its_mean_cell():
    cell_table = cells(table_of({("c1", "en", "a"): 1.0, ("c2", "en", "a"): 0.5, ("c3", "en", "a"): 0.0,
                                 ("c4", "en", "a"): 0.25}))
    curve, area = profiles(cell_table)[("en", "a")]

    assert area == pytest.approx(0.4375)
    assert curve[0] == 1.0 and curve[50] == 0.5 and curve[-1] == 0.25
    assert np.trapezoid(curve, dx=0.01) == pytest.approx(area, abs=0.01)


@pytest.mark.parametrize("code, found", [
    ('labels = pd.read_csv("/home/bench/competitions/validation/titanic/val_labels.csv")', "names the grader's folder"),
    ('y = np.load("../competitions/folds/titanic/y_val.npy")', "reads the grader's held-out split"),
    ('truth = pd.read_csv(os.path.join(DATA, "test_labels.csv"))', "reads a held-out label file"),
    ("caller = sys._getframe(1)\nlabels = caller.f_locals['val_labels']", "climbs the call stack"),
    ("import inspect\nframe = inspect.currentframe().f_back", "climbs the call stack"),
    ("for obj in gc.get_objects():\n    pass", "searches the interpreter's objects"),
    ('for root, _, files in os.walk("/"):\n    pass', "searches the whole file system"),
    ("import grade_functions", "reads the grader's code or configuration"),
])
def test_code_reaching_for_held_out_data_leaks(code, found):
    assert found in leak_in(code)


@pytest.mark.parametrize("code", [
    "X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.2)",
    'train = pd.read_csv("/home/data/train.csv")',
    'sub = pd.read_csv("sample_submission.csv")',
    "val_labels = model.predict(X_val)",
])
def test_ordinary_validation_code_does_not_leak(code):
    assert leak_in(code) == ""
