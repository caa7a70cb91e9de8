"""Verification of drafted tasks: the deterministic checks and the baseline run, on datasets built here."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from curation.checks.data_card_lint import lint_data_card
from curation.synthesis.checks import deterministic_checks
from curation.synthesis.execution import run_baseline
from curation.synthesis.profile import load_table, profile_dataset
from curation.synthesis.records import TaskDesign, TaskIdea
from curation.synthesis.refactor import Draft, write_draft
from tests.synthesis.datasets import houses, loans, patients, sales


def draft_of(folder: Path, out: Path, target: str, task_type: str, metric: str, direction: str, split: str = "random",
             split_column: str | None = None, drop: tuple[str, ...] = (), id_col: str | None = None) -> Draft:
    profile = profile_dataset(folder, 10_000).profile
    table = profile.tables[0]
    idea = TaskIdea(name=target, table=table.file, target=target, task_type=task_type, metric=metric,
                    direction=direction, rationale="it matters")
    design = TaskDesign(slug=f"{profile.dataset}-{target}".replace("_", "-"), dataset=profile.dataset,
                        title=f"Predict {target}", idea=idea, split=split, split_column=split_column, metric=metric,
                        direction=direction, id_col=id_col, drop_columns=list(drop))
    frame, _ = load_table(folder / table.file, 10_000)
    return write_draft(frame, design, profile, out / design.slug)


def failed(draft: Draft) -> dict[str, str]:
    return {outcome.check: outcome.detail for outcome in deterministic_checks(draft) if not outcome.passed}


def test_a_sound_classification_passes_and_its_files_hide_the_answers(tmp_path: Path):
    draft = draft_of(patients(tmp_path), tmp_path / "out", "readmitted", "binary", "roc_auc_score", "maximize",
                     split="stratified", id_col="patient_id")
    assert failed(draft) == {}
    folder = draft.folder
    test = pd.read_csv(folder / "data" / "test.csv")
    answers = pd.read_csv(folder / "private" / "answers.csv")
    assert "readmitted" not in test.columns and list(answers.columns) == ["patient_id", "readmitted"]
    assert set(answers["readmitted"]) == {0, 1}  # a probability metric grades 0/1, 1 = "yes"
    assert sorted(p.name for p in (folder / "data").iterdir()) == ["sample_submission.csv", "test.csv", "train.csv"]
    card = (folder / "data_card.md").read_text()
    assert card.startswith("The data describe 400 rows of the table patients.csv of the patients dataset")
    assert "- `readmitted` — boolean. This is the target." in card and lint_data_card(card) == []
    assert "`readmitted` is 1 where the original data said 'True', 0 otherwise." in card  # DuckDB reads yes/no as booleans
    outcome, score, trivial = run_baseline(draft, seconds=120, memory_mb=2048)
    assert outcome.passed and score > trivial == 0.5, outcome.detail


def test_a_leaking_column_is_named(tmp_path: Path):
    draft = draft_of(loans(tmp_path), tmp_path / "out", "defaulted", "binary", "accuracy_score", "maximize")
    assert failed(draft) == {"no leaking column": "collection_status alone predicts defaulted (balanced accuracy 1.00)"}
    dropped = draft_of(tmp_path / "loans", tmp_path / "out2", "defaulted", "binary", "accuracy_score", "maximize",
                       drop=("collection_status",))
    assert failed(dropped) == {}


def test_a_time_split_keeps_the_future_out_of_train(tmp_path: Path):
    draft = draft_of(sales(tmp_path), tmp_path / "out", "units_sold", "regression", "root_mean_squared_error",
                     "minimize", split="time", split_column="date")
    assert failed(draft) == {}
    assert draft.train["date"].max() < draft.test["date"].min()
    assert "id" in draft.test.columns  # no unique column of its own: a row id was added


def test_broken_designs_fail_with_their_reasons(tmp_path: Path):
    folder = houses(tmp_path)
    tiny = draft_of(folder, tmp_path / "out", "district", "multiclass", "accuracy_score", "maximize")
    tiny.sample["district"] = tiny.answers["district"]  # a sample submission that is already perfect
    tiny.test.insert(1, "district", tiny.answers["district"])
    problems = failed(tiny)
    assert problems["target absent from test"] == "district is a column of test.csv"
    assert "scores as well as a perfect one" in problems["metric computes"]


def test_a_baseline_over_its_time_limit_is_stopped_and_said(tmp_path: Path):
    draft = draft_of(houses(tmp_path), tmp_path / "out", "price", "regression", "r2_score", "maximize")
    (draft.folder / "notebooks" / "baseline.py").write_text("import time\ntime.sleep(60)\n")
    outcome, score, _ = run_baseline(draft, seconds=1, memory_mb=2048)
    assert (outcome.passed, score) == (False, None)
    assert outcome.detail == "the baseline was stopped after 1 s (time limit)"
    (draft.folder / "notebooks" / "baseline.py").write_text("x = bytearray(3 * 1024 ** 3)\n")
    outcome, _, _ = run_baseline(draft, seconds=30, memory_mb=512)
    assert not outcome.passed and outcome.detail.startswith("the baseline failed (memory limit reached)")


def _leak_case(tmp_path: Path, kind: str) -> tuple[Draft, str]:
    """A loans table with one extra column of the given kind; returns the draft and that column's name."""
    import numpy as np

    folder = loans(tmp_path / kind)
    frame = pd.read_csv(folder / "loans.csv").drop(columns=["collection_status"])
    rng = np.random.default_rng(7)
    default = frame["defaulted"]
    extra = {
        "renamed copy": ("default_flag", default),
        "recoded label": ("status_code", default.map({0: "C-OK", 1: "X-LATE"})),
        "id encoding the answer": ("loan_ref", [f"{'D' if d else 'N'}-{i:04d}" for i, d in enumerate(default)]),
        "noisy copy (90% agree)": ("early_warning", np.where(rng.random(len(default)) < 0.9, default, 1 - default)),
        "honest strong feature": ("debt_ratio", (frame["amount"] / frame["income"]).round(3)),
    }[kind]
    frame[extra[0]] = extra[1]
    frame.to_csv(folder / "loans.csv", index=False)
    id_col = "loan_ref" if kind == "id encoding the answer" else "loan_id"
    if id_col == "loan_ref":
        frame = frame.drop(columns=["loan_id"])
        frame.to_csv(folder / "loans.csv", index=False)
    return draft_of(folder, tmp_path / kind / "out", "defaulted", "binary", "accuracy_score", "maximize",
                    id_col=id_col), extra[0]


@pytest.mark.parametrize("kind, leaks", [("renamed copy", True), ("recoded label", True),
                                         ("id encoding the answer", True), ("noisy copy (90% agree)", False),
                                         ("honest strong feature", False)])
def test_the_leak_probe_per_kind_of_column(tmp_path: Path, kind: str, leaks: bool):
    """The hardest cases each way: disguised copies of the target must be caught; a column that agrees with it
    90% of the time, or the very ratio the target was made from (plus noise), is a feature, not a leak."""
    draft, column = _leak_case(tmp_path, kind)
    problems = failed(draft)
    if leaks:
        assert problems["no leaking column"].startswith(f"{column} alone predicts defaulted")
    else:
        assert "no leaking column" not in problems, problems
