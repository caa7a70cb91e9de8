"""Scores too good to be true, which only the other runs can tell: a successful run whose score lies beyond every
reference of its competition (the baseline and the other runs' scores) by an implausible margin.

"Implausible" is Tukey's far-out fence over the references, in the metric's better direction: above the upper
quartile by `[results] implausible_fence` (3) times the interquartile range, that range taken as at least a twentieth
of the median's size (so near-identical references do not flag a run for being a little better). It needs five
references at least; with fewer nothing is flagged.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from curation.records import RunResult
from curation.results.release_info import TaskInfo

MIN_REFERENCES = 5


def implausible(runs: list[RunResult], tasks: dict[str, TaskInfo], fence: float) -> dict[int, str]:
    """Index in `runs` -> why, for each successful run whose score is beyond its competition's references."""
    by_competition: dict[str, list[int]] = defaultdict(list)
    for index, run in enumerate(runs):
        if run.error_class == "success" and run.score is not None:
            by_competition[run.competition].append(index)
    flagged = {}
    for competition, indexes in by_competition.items():
        task = tasks[competition]
        sign = 1.0 if task.direction == "maximize" else -1.0
        scores = np.array([runs[index].score for index in indexes], dtype=float) * sign
        references = np.append(scores, sign * task.baseline) if task.baseline is not None else scores
        if len(references) < MIN_REFERENCES:
            continue
        low, median, high = np.percentile(references, [25, 50, 75])
        spread = max(high - low, abs(median) / 20, 1e-12)
        limit = high + fence * spread
        for index, goodness in zip(indexes, scores):
            if goodness > limit:
                better = "above" if sign > 0 else "below"
                flagged[index] = (f"score {runs[index].score:g} is far {better} every other run of the competition "
                                  f"(their upper quartile {sign * high:g}; plausible up to {sign * limit:g}"
                                  + (f"; baseline {task.baseline:g}" if task.baseline is not None else "") + ")")
    return flagged
