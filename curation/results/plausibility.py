"""Scores too good to be true, which only the other runs can tell: a successful run whose score lies beyond every
reference of its competition (the baseline and the other runs' scores) by an implausible margin.

"Implausible" is Tukey's far-out fence over the references: above their upper quartile by `[results]
implausible_fence` (3) interquartile ranges. Where the metric has a best possible value (AUC 1, RMSE 0), scores are
compared by their distance to it on a log scale, so that 0.999 against others' 0.80-0.91 is seen for the tenfold
smaller error it claims, and the range is taken as at least a factor of two; elsewhere on the metric's own scale,
the range at least a twentieth of the median's size. Five references at least; with fewer nothing is flagged.
"""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

from curation.records import RunResult
from curation.results.metrics import metric_range
from curation.results.release_info import TaskInfo

MIN_REFERENCES = 5
TINY = 1e-12


def _scale(task: TaskInfo):
    """score -> goodness (higher is better), and the least spread the fence allows on that scale."""
    bounds = metric_range(task.metric)
    if task.direction == "maximize" and bounds and math.isfinite(bounds[1]):
        return (lambda score: -math.log(max(bounds[1] - score, TINY))), None
    if task.direction == "minimize" and bounds and math.isfinite(bounds[0]):
        return (lambda score: -math.log(max(score - bounds[0], TINY))), None
    sign = 1.0 if task.direction == "maximize" else -1.0
    return (lambda score: sign * score), sign


def implausible(runs: list[RunResult], tasks: dict[str, TaskInfo], fence: float) -> dict[int, str]:
    """Index in `runs` -> why, for each successful run whose score is beyond its competition's references."""
    by_competition: dict[str, list[int]] = defaultdict(list)
    for index, run in enumerate(runs):
        if run.error_class == "success" and run.score is not None:
            by_competition[run.competition].append(index)
    flagged = {}
    for competition, indexes in by_competition.items():
        task = tasks[competition]
        goodness, raw = _scale(task)
        scores = np.array([goodness(runs[index].score) for index in indexes])
        references = np.append(scores, goodness(task.baseline)) if task.baseline is not None else scores
        if len(references) < MIN_REFERENCES:
            continue
        low, median, high = np.percentile(references, [25, 50, 75])
        least = abs(median) / 20 if raw is not None else math.log(2)
        limit = high + fence * max(high - low, least, TINY)
        quartile = float(np.percentile([runs[index].score for index in indexes], 75 if task.direction == "maximize"
                                       else 25))
        for index, value in zip(indexes, scores):
            if value > limit:
                better = "above" if task.direction == "maximize" else "below"
                flagged[index] = (f"score {runs[index].score:g} is far {better} every other run of the competition "
                                  f"(their {'upper' if better == 'above' else 'lower'} quartile {quartile:g}"
                                  + (f"; baseline {task.baseline:g}" if task.baseline is not None else "") + ")")
    return flagged
