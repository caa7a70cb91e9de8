"""Normalized scores: each competition's scores put on one scale, whichever way its metric points.

0 is the competition's baseline (where the release knows it; else the worst successful score), 1 the best score any
successful run reached; a score below the baseline counts 0, and so does a run that did not succeed (a failure, a
hallucinated or leaked score). When no run beat the baseline, every run of the competition is 0; when the best and
the bottom are the same score (one successful run and no baseline), a successful run is 1.
"""

from __future__ import annotations

from collections import defaultdict

from curation.records import RunResult
from curation.results.release_info import TaskInfo


def normalized_scores(runs: list[RunResult], tasks: dict[str, TaskInfo]) -> list[float]:
    """Each run's normalized score, in [0, 1], in the order of `runs` (classes as they stand: only `success` counts)."""
    goodness: dict[str, list[float]] = defaultdict(list)
    for run in runs:
        if run.error_class == "success" and run.score is not None:
            goodness[run.competition].append(_sign(tasks[run.competition]) * run.score)
    scale = {}
    for competition, values in goodness.items():
        task = tasks[competition]
        top = max(values)
        bottom = _sign(task) * task.baseline if task.baseline is not None else min(values)
        scale[competition] = (bottom, top)
    found = []
    for run in runs:
        if run.error_class != "success" or run.score is None:
            found.append(0.0)
            continue
        bottom, top = scale[run.competition]
        value = _sign(tasks[run.competition]) * run.score
        if top > bottom:
            found.append(min(1.0, max(0.0, (value - bottom) / (top - bottom))))
        else:
            found.append(1.0 if value >= top and tasks[run.competition].baseline is None else 0.0)
    return found


def _sign(task: TaskInfo) -> float:
    return 1.0 if task.direction == "maximize" else -1.0
