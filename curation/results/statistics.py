"""The figures of the results report, from the per-run table (one row per run, its class and normalized score).

A cell is one (competition, language, agent): the mean normalized score of its runs (folds, repeats). A language's
score is the mean over competitions of its cells, so every competition weighs the same however many runs it had;
agents are pooled by averaging their cells first.

The gap of a language to English is the mean, over the competitions both have, of (the language's cell - English's
cell); its 95% interval is a percentile bootstrap over those competitions (`[results] bootstrap_resamples`, seeded
by `[results] seed` and the language, so a rerun prints the same interval).

A performance profile of a (language, agent) is, for each level t from 0 to 1, the share of competitions whose cell
reaches a normalized score of at least t. The area under it is the mean cell, a single number per curve.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np
import pandas as pd

from curation.records import ERROR_CLASSES

LEVELS = np.linspace(0.0, 1.0, 101)


@dataclass(frozen=True)
class Gap:
    """A language's gap to English: mean difference and its bootstrap interval, over `competitions`."""

    language: str
    competitions: int
    gap: float | None
    low: float | None
    high: float | None


def cells(table: pd.DataFrame) -> pd.DataFrame:
    """(competition, language, agent) -> mean normalized score and success share of its runs."""
    return (table.assign(succeeded=table["error_class"].eq("success"))
            .groupby(["competition", "language", "agent"], observed=True, sort=True)
            .agg(score=("normalized_score", "mean"), success=("succeeded", "mean"), runs=("run", "size"))
            .reset_index())


def pooled(cell_table: pd.DataFrame) -> pd.DataFrame:
    """competition x language: the mean over agents of their cells."""
    return cell_table.pivot_table(index="competition", columns="language", values="score", aggfunc="mean",
                                  observed=True)


def by_language_agent(table: pd.DataFrame, cell_table: pd.DataFrame) -> pd.DataFrame:
    """Per (language, agent): runs, success rate (over runs), normalized score (mean over competitions)."""
    runs = (table.assign(succeeded=table["error_class"].eq("success"))
            .groupby(["language", "agent"], observed=True).agg(runs=("run", "size"), success=("succeeded", "mean")))
    score = cell_table.groupby(["language", "agent"], observed=True)["score"].mean().rename("score")
    return runs.join(score).reset_index()


def by_language(table: pd.DataFrame, cell_table: pd.DataFrame) -> pd.DataFrame:
    """Per language, agents pooled: runs, success rate, normalized score (mean over competitions of pooled cells)."""
    runs = (table.assign(succeeded=table["error_class"].eq("success"))
            .groupby("language", observed=True).agg(runs=("run", "size"), success=("succeeded", "mean")))
    return runs.join(pooled(cell_table).mean().rename("score")).reset_index()


def language_gaps(cell_table: pd.DataFrame, languages: list[str], *, resamples: int, seed: int,
                  agent: str | None = None, english: str = "en") -> list[Gap]:
    """Each language's gap to English (agents pooled, or one agent's), with a seeded bootstrap interval."""
    chosen = cell_table if agent is None else cell_table[cell_table["agent"] == agent]
    grid = pooled(chosen)
    gaps = []
    for language in languages:
        if language == english or english not in grid or language not in grid:
            continue
        differences = (grid[language] - grid[english]).dropna().to_numpy()
        if not len(differences):
            gaps.append(Gap(language, 0, None, None, None))
            continue
        low = high = None
        if len(differences) > 1:
            generator = np.random.default_rng([seed, zlib.crc32(f"{agent or ''}/{language}".encode())])
            draws = generator.integers(0, len(differences), size=(resamples, len(differences)))
            means = differences[draws].mean(axis=1)
            low, high = (float(value) for value in np.percentile(means, [2.5, 97.5]))
        gaps.append(Gap(language, len(differences), float(differences.mean()), low, high))
    return gaps


def profiles(cell_table: pd.DataFrame) -> dict[tuple[str, str], tuple[np.ndarray, float]]:
    """(language, agent) -> (share of competitions reaching each of LEVELS, area under that curve)."""
    found = {}
    for (language, agent), group in cell_table.groupby(["language", "agent"], observed=True, sort=True):
        values = group["score"].to_numpy()
        curve = (values[None, :] >= LEVELS[:, None]).mean(axis=1)
        found[(language, agent)] = (curve, float(values.mean()))
    return found


def taxonomy(table: pd.DataFrame, by: str) -> pd.DataFrame:
    """Runs per `by` (language, data_type, domain, comp_type) and class, classes in the taxonomy's order."""
    counts = pd.crosstab(table[by], table["error_class"])
    return counts.reindex(columns=[name for name in ERROR_CLASSES if name in counts.columns], fill_value=0)


def runtime_errors(table: pd.DataFrame, top: int = 8) -> pd.DataFrame:
    """Runtime errors per exception class (the `top` most frequent, the rest as 'others') and language."""
    errors = table[table["error_class"] == "runtime_error"]
    if errors.empty:
        return pd.DataFrame()
    kinds = errors["error_type"].replace("", "unknown")
    common = kinds.value_counts().index[:top]
    kinds = kinds.where(kinds.isin(common), "others")
    return pd.crosstab(kinds, errors["language"])
