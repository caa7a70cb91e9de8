"""The deterministic checks a drafted task must pass before it may become a competition.

Each check returns a CheckOutcome with the figure behind it, so a rejected task says exactly what was wrong.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from sklearn.model_selection import cross_val_score
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from curation.excerpt import plural
from curation.synthesis.metrics import METRICS, better, compute
from curation.synthesis.records import CheckOutcome
from curation.synthesis.refactor import Draft
from curation.synthesis.split import time_values

MIN_TRAIN_ROWS = 50
MIN_TEST_ROWS = 20
TEST_SHARE = (0.05, 0.5)
MIN_CLASS_SHARE = 0.01  # a class rarer than this in train is too rare to learn or grade
MAX_CLASSES = 100
LEAK_SCORE = 0.98  # balanced accuracy or R² one column alone reaches: the column gives the answer away
LEAK_ROWS = 5000


def deterministic_checks(draft: Draft) -> list[CheckOutcome]:
    """Every structural check, in order; all run, so a rejected task lists all its problems at once."""
    return [check(draft) for check in (target_absent, ids_aligned, splits_disjoint, sizes, class_balance,
                                       metric_extremes, no_single_column_leak)]


def target_absent(draft: Draft) -> CheckOutcome:
    target = draft.design.idea.target
    present = target in draft.test.columns or target in pd.read_csv(draft.folder / "data" / "test.csv", nrows=0).columns
    return CheckOutcome(check="target absent from test", passed=not present,
                        detail=f"{target} is a column of test.csv" if present else "")


def ids_aligned(draft: Draft) -> CheckOutcome:
    id_col = draft.id_col
    problems = []
    for name, frame in (("train", draft.train), ("test", draft.test), ("answers", draft.answers),
                        ("sample_submission", draft.sample)):
        if not frame[id_col].is_unique:
            problems.append(f"{id_col} repeats in {name}")
    test_ids = list(draft.test[id_col])
    if list(draft.answers[id_col]) != test_ids:
        problems.append("answers rows do not match test rows")
    if list(draft.sample[id_col]) != test_ids:
        problems.append("sample_submission rows do not match test rows")
    return CheckOutcome(check="ids unique and aligned", passed=not problems, detail="; ".join(problems))


def splits_disjoint(draft: Draft) -> CheckOutcome:
    design, id_col = draft.design, draft.id_col
    shared = set(draft.train[id_col]) & set(draft.test[id_col])
    problems = [f"{plural(len(shared), 'id')} in both train and test"] if shared else []
    if design.split == "group" and design.split_column:
        groups = set(draft.train[design.split_column].astype(str)) & set(draft.test[design.split_column].astype(str))
        if groups:
            problems.append(f"{plural(len(groups), design.split_column + ' group')} in both train and test")
    if design.split == "time" and design.split_column:
        latest, earliest = time_values(draft.train[design.split_column]).max(), time_values(draft.test[design.split_column]).min()
        if latest >= earliest:
            problems.append(f"train reaches {latest}, test starts at {earliest}")
    return CheckOutcome(check="splits disjoint", passed=not problems, detail="; ".join(problems))


def sizes(draft: Draft) -> CheckOutcome:
    train, test = len(draft.train), len(draft.test)
    share = test / (train + test) if train + test else 0.0
    problems = []
    if train < MIN_TRAIN_ROWS:
        problems.append(f"{train} training rows (at least {MIN_TRAIN_ROWS})")
    if test < MIN_TEST_ROWS:
        problems.append(f"{test} test rows (at least {MIN_TEST_ROWS})")
    if not TEST_SHARE[0] <= share <= TEST_SHARE[1]:
        problems.append(f"test holds {share:.0%} of the rows (between {TEST_SHARE[0]:.0%} and {TEST_SHARE[1]:.0%})")
    return CheckOutcome(check="sizes within bounds", passed=not problems, detail="; ".join(problems)
                        or f"{train} train, {test} test rows")


def class_balance(draft: Draft) -> CheckOutcome:
    if draft.design.idea.task_type == "regression":
        spread = pd.to_numeric(draft.train[draft.design.idea.target], errors="coerce")
        ok = spread.notna().mean() > 0.99 and spread.std() > 0
        return CheckOutcome(check="target usable", passed=bool(ok),
                            detail="" if ok else "the regression target is not numeric or does not vary")
    target = draft.design.idea.target
    shares = draft.train[target].astype(str).value_counts(normalize=True)
    problems = []
    if len(shares) < 2:
        problems.append("one class only in train")
    if len(shares) > MAX_CLASSES:
        problems.append(f"{len(shares)} classes (at most {MAX_CLASSES})")
    if len(shares) and shares.min() < MIN_CLASS_SHARE:
        problems.append(f"class {shares.idxmin()!r} is {shares.min():.2%} of train (at least {MIN_CLASS_SHARE:.0%})")
    unseen = set(draft.answers[target].astype(str)) - set(shares.index)
    if unseen:
        problems.append(f"test has classes train lacks: {', '.join(sorted(unseen)[:5])}")
    return CheckOutcome(check="class balance", passed=not problems, detail="; ".join(problems)
                        or ", ".join(f"{label} {share:.0%}" for label, share in shares.head(5).items()))


def metric_extremes(draft: Draft) -> CheckOutcome:
    metric = METRICS[draft.design.metric]
    target = draft.design.idea.target
    truth = draft.answers[target]
    try:
        perfect = compute(metric, truth, truth)
        sample = compute(metric, truth, draft.sample[target])
    except (ValueError, TypeError) as error:
        return CheckOutcome(check="metric computes", passed=False, detail=f"{metric.name}: {error}")
    problems = []
    if not (math.isfinite(perfect) and math.isfinite(sample)):
        problems.append(f"not finite (perfect {perfect}, sample {sample})")
    elif metric.best is not None and abs(perfect - metric.best) > 1e-6:
        problems.append(f"a perfect submission scores {perfect:.4f}, not {metric.best:g}")
    elif not better(metric, perfect, sample):
        problems.append(f"the sample submission ({sample:.4f}) scores as well as a perfect one ({perfect:.4f})")
    return CheckOutcome(check="metric computes", passed=not problems, detail="; ".join(problems)
                        or f"{metric.name}: perfect {perfect:.4f}, sample submission {sample:.4f}")


def no_single_column_leak(draft: Draft) -> CheckOutcome:
    """No feature left that alone predicts the target almost perfectly (a small tree on that one column)."""
    design, id_col = draft.design, draft.id_col
    target = design.idea.target
    rows = draft.train.sample(n=min(LEAK_ROWS, len(draft.train)), random_state=0)
    regression = design.idea.task_type == "regression"
    y = pd.to_numeric(rows[target]) if regression else rows[target].astype(str)
    if not regression and y.value_counts().min() < 3:
        y = y.where(y.map(y.value_counts()) >= 3, "other")
    leaks = []
    added_id = id_col != design.id_col  # a row number refactor added knows nothing; a dataset's own id may
    for name in rows.columns:
        if name == target or (name == id_col and added_id):
            continue
        x = _as_number(rows[name]).to_numpy().reshape(-1, 1)
        model = DecisionTreeRegressor(max_depth=6, random_state=0) if regression else DecisionTreeClassifier(
            max_depth=6, random_state=0)
        scoring = "r2" if regression else "balanced_accuracy"
        try:
            score = float(np.mean(cross_val_score(model, x, y, cv=3, scoring=scoring)))
        except ValueError:
            continue
        if score >= LEAK_SCORE:
            leaks.append(f"{name} alone predicts {target} ({scoring.replace('_', ' ')} {score:.2f})")
    return CheckOutcome(check="no leaking column", passed=not leaks, detail="; ".join(leaks))


def _as_number(column: pd.Series) -> pd.Series:
    """A column as numbers a tree can split: numbers as they are, anything else by its category code."""
    if pd.api.types.is_numeric_dtype(column):
        return column.fillna(column.median() if column.notna().any() else 0)
    return column.astype(str).astype("category").cat.codes
