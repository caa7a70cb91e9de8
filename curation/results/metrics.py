"""What a competition's metric says about a score: which way is better, and which values it can take at all.

Metrics are named as the harness's competitions.json names them (scikit-learn function names: roc_auc_score,
root_mean_squared_error, ...) or as a release names them for people ("ROC AUC", "RMSE").
"""

from __future__ import annotations

import math
import re

INF = math.inf

# Lower is better for these (the rest: higher). Matched on the normalised name, a word at a time.
_LOWER = re.compile(r"(error|loss|rmse|rmsle|mse|mae|mape|smape|wmae|deviance|distance|logloss|brier|perplexity)")

# The values a metric can take; a reported score outside them was not computed by the metric. Keys are normalised
# names (lowercase, words joined by '_', a trailing '_score' dropped).
_RANGES = {
    "roc_auc": (0.0, 1.0), "auc": (0.0, 1.0), "accuracy": (0.0, 1.0), "balanced_accuracy": (0.0, 1.0),
    "f1": (0.0, 1.0), "f1_macro": (0.0, 1.0), "f1_micro": (0.0, 1.0), "f1_weighted": (0.0, 1.0),
    "f1_samples": (0.0, 1.0), "f1_multilabel": (0.0, 1.0), "fscoremacro": (0.0, 1.0), "fbeta": (0.0, 1.0),
    "precision": (0.0, 1.0), "recall": (0.0, 1.0), "average_precision": (0.0, 1.0), "jaccard": (0.0, 1.0),
    "map": (0.0, 1.0), "map_at_k": (0.0, 1.0), "mean_average_precision": (0.0, 1.0), "ndcg": (0.0, 1.0),
    "iou": (0.0, 1.0), "dice": (0.0, 1.0),
    "matthews_corrcoef": (-1.0, 1.0), "mcc": (-1.0, 1.0), "cohen_kappa": (-1.0, 1.0),
    "quadratic_weighted_kappa": (-1.0, 1.0), "qwk": (-1.0, 1.0), "pearson": (-1.0, 1.0), "spearman": (-1.0, 1.0),
    "r2": (-INF, 1.0),
    "mean_squared_error": (0.0, INF), "root_mean_squared_error": (0.0, INF), "mean_absolute_error": (0.0, INF),
    "mean_squared_log_error": (0.0, INF), "root_mean_squared_log_error": (0.0, INF),
    "median_absolute_error": (0.0, INF), "mean_absolute_percentage_error": (0.0, INF), "log_loss": (0.0, INF),
    "logloss": (0.0, INF), "rmse": (0.0, INF), "mse": (0.0, INF), "mae": (0.0, INF), "rmsle": (0.0, INF),
    "msle": (0.0, INF), "mape": (0.0, INF), "smape": (0.0, 200.0), "wmae": (0.0, INF), "brier": (0.0, 1.0),
    "root_mean_squared_error_multitarget": (0.0, INF),
}
_ALIASES = {"roc_auc": "roc_auc", "rocauc": "roc_auc", "area_under_the_roc_curve": "roc_auc",
            "categorization_accuracy": "accuracy", "mean_f1": "f1", "macro_f1": "f1_macro", "micro_f1": "f1_micro",
            "root_mean_square_error": "root_mean_squared_error", "mean_square_error": "mean_squared_error",
            "multi_class_log_loss": "log_loss", "binary_cross_entropy": "log_loss", "r_squared": "r2",
            "coefficient_of_determination": "r2", "map_at_5": "map_at_k", "map_5": "map_at_k", "map_at_3": "map_at_k",
            "mean_average_precision_at_k": "map_at_k", "weighted_mean_absolute_error": "wmae"}


def normal_name(metric: str) -> str:
    """'ROC AUC' -> 'roc_auc', 'roc_auc_score' -> 'roc_auc', 'MAP@5' -> 'map_at_5'."""
    name = re.sub(r"[^a-z0-9]+", "_", metric.lower().replace("@", "_at_")).strip("_")
    name = name.removesuffix("_score")
    return _ALIASES.get(name, name)


def direction_of(stated: object, metric: str) -> str:
    """'maximize' or 'minimize': as the grading block states it, else what the metric's name says."""
    if isinstance(stated, str):
        text = stated.strip().lower()
        if text in ("maximize", "max", "higher", "higher is better", "greater_is_better"):
            return "maximize"
        if text in ("minimize", "min", "lower", "lower is better"):
            return "minimize"
    return "minimize" if _LOWER.search(normal_name(metric)) else "maximize"


def metric_range(metric: str) -> tuple[float, float] | None:
    """The values `metric` can take, or None when it is not one of the metrics known here."""
    return _RANGES.get(normal_name(metric))
