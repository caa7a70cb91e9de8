"""The grading metrics a synthesized task may use: the single-column metrics the ML²B harness's default grader
knows by name (its python/grade_functions.py METRICS table, read 2026-11-23), with their direction and the kind
of prediction they score.

A task names its metric the way the harness does, so competitions.json works there unchanged; this module
computes the same numbers locally to verify the task before it is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd
from sklearn import metrics as sk

from curation.synthesis.records import Direction, TaskType


@dataclass(frozen=True)
class Metric:
    name: str
    score: Callable[[np.ndarray, np.ndarray], float]
    direction: Direction
    task_types: tuple[TaskType, ...]
    probability: bool = False  # scores the probability of the positive class, not a label
    best: float | None = None  # the value a perfect submission gets


CLASSIFICATION: tuple[TaskType, ...] = ("binary", "multiclass")
METRICS: dict[str, Metric] = {metric.name: metric for metric in (
    Metric("accuracy_score", sk.accuracy_score, "maximize", CLASSIFICATION, best=1.0),
    Metric("balanced_accuracy", sk.balanced_accuracy_score, "maximize", CLASSIFICATION, best=1.0),
    Metric("f1_score", sk.f1_score, "maximize", ("binary",), best=1.0),
    Metric("f1_score_avg_macro", lambda t, p: sk.f1_score(t, p, average="macro"), "maximize", CLASSIFICATION, best=1.0),
    Metric("f1_score_avg_weighted", lambda t, p: sk.f1_score(t, p, average="weighted"), "maximize", CLASSIFICATION,
           best=1.0),
    Metric("matthews_corrcoef", sk.matthews_corrcoef, "maximize", CLASSIFICATION, best=1.0),
    Metric("roc_auc_score", sk.roc_auc_score, "maximize", ("binary",), probability=True, best=1.0),
    Metric("log_loss", sk.log_loss, "minimize", ("binary",), probability=True),
    Metric("root_mean_squared_error", sk.root_mean_squared_error, "minimize", ("regression",), best=0.0),
    Metric("mean_squared_error", sk.mean_squared_error, "minimize", ("regression",), best=0.0),
    Metric("mean_absolute_error", sk.mean_absolute_error, "minimize", ("regression",), best=0.0),
    Metric("r2_score", sk.r2_score, "maximize", ("regression",), best=1.0),
)}
READABLE = {
    "accuracy_score": "Accuracy", "balanced_accuracy": "Balanced accuracy", "f1_score": "F1 score",
    "f1_score_avg_macro": "Macro F1", "f1_score_avg_weighted": "Weighted F1", "matthews_corrcoef": "MCC",
    "roc_auc_score": "ROC AUC", "log_loss": "Log loss", "root_mean_squared_error": "RMSE",
    "mean_squared_error": "MSE", "mean_absolute_error": "MAE", "r2_score": "R²",
}


def metric_names(task_type: TaskType | None = None) -> list[str]:
    """The harness names usable for a task type (all of them when None)."""
    return [name for name, metric in METRICS.items() if task_type is None or task_type in metric.task_types]


def better(metric: Metric, score: float, than: float, margin: float = 1e-9) -> bool:
    """Whether `score` beats `than` in the metric's direction by more than `margin`."""
    return score > than + margin if metric.direction == "maximize" else score < than - margin


def compute(metric: Metric, truth: pd.Series, predicted: pd.Series) -> float:
    """The metric on aligned answers and predictions; raises ValueError when it cannot be computed."""
    if metric.probability:
        values = pd.to_numeric(predicted, errors="raise").to_numpy(dtype=float)
        return float(metric.score(truth.to_numpy(), values))
    if metric.task_types == ("regression",):
        return float(metric.score(truth.to_numpy(dtype=float), pd.to_numeric(predicted).to_numpy(dtype=float)))
    return float(metric.score(truth.astype(str).to_numpy(), predicted.astype(str).to_numpy()))


def trivial_prediction(metric: Metric, train_target: pd.Series, rows: int) -> pd.Series:
    """What a predictor that ignores the features submits: the mean, the majority class, or the positive rate."""
    if "regression" in metric.task_types:
        return pd.Series([float(pd.to_numeric(train_target).mean())] * rows)
    if metric.probability:
        positive = positive_label(train_target)
        share = float((train_target.astype(str) == str(positive)).mean())
        return pd.Series([share] * rows)
    return pd.Series([train_target.astype(str).mode().iloc[0]] * rows)


def positive_label(target: pd.Series) -> object:
    """The label a probability metric scores as positive: 1/True/yes when present, else the rarer label."""
    labels = list(pd.unique(target.dropna()))
    for candidate in labels:
        if str(candidate).strip().lower() in ("1", "1.0", "true", "yes", "y", "positive"):
            return candidate
    counts = target.value_counts()
    return counts.index[-1]
