"""The results report's figures, as PNG bytes: the competition x language heatmap, the gaps to English, success and
score per language and agent, performance profiles, and why runs fail per language and per data type."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")  # files only, never a window; must precede pyplot
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from curation.results.statistics import LEVELS, Gap  # noqa: E402

# One colour per class, failures warm, suspicious scores purple, success green.
CLASS_COLOURS = {"success": "#4c9a5b", "syntax_error": "#f2b134", "missing_package": "#e3c15a",
                 "runtime_error": "#e58a3c", "out_of_memory": "#c4453f", "timeout": "#9b3b5a",
                 "bad_submission": "#b07a55", "hallucination": "#7b5ea7", "leakage": "#3f6fb5", "other": "#9a9a9a"}
MAX_ANNOTATED = 40  # competitions in the heatmap up to which each cell shows its value
LABELLED = 80  # ... and up to which each row is named


def _png(figure) -> bytes:
    image = io.BytesIO()
    try:
        figure.savefig(image, dpi=110, format="png")
    finally:
        plt.close(figure)
    return image.getvalue()


def heatmap(grid: pd.DataFrame, names: dict[str, str]) -> bytes:
    """Competition x language, the pooled normalized score of each cell (blank where no run was read)."""
    rows, columns = len(grid.index), len(grid.columns)
    # Past LABELLED rows the competitions are too many to name: a thin row each, ordered by their mean score, so the
    # languages' columns still show where agents do worse.
    labelled = rows <= LABELLED
    if not labelled:
        grid = grid.loc[grid.mean(axis=1).sort_values(ascending=False).index]
    height = 0.28 * rows + 1.6 if labelled else 9.0
    figure, axis = plt.subplots(figsize=(max(6.0, 0.62 * columns + 3.2), max(3.0, height)))
    image = axis.imshow(grid.to_numpy(dtype=float), aspect="auto", cmap="viridis", vmin=0, vmax=1,
                        interpolation="nearest")
    axis.set_xticks(range(columns), [names.get(code, code) for code in grid.columns], rotation=45, ha="right")
    if labelled:
        axis.set_yticks(range(rows), list(grid.index), fontsize=7 if rows > 30 else 9)
    else:
        axis.set_yticks([])
        axis.set_ylabel(f"{rows} competitions, best mean score at the top")
    if rows <= MAX_ANNOTATED:
        for (row, column), value in np.ndenumerate(grid.to_numpy(dtype=float)):
            if not np.isnan(value):
                axis.text(column, row, f"{value:.2f}", ha="center", va="center", fontsize=7,
                          color="black" if value > 0.6 else "white")
    figure.colorbar(image, ax=axis, label="normalized score")
    axis.set_title("Normalized score per competition and language (agents pooled)")
    figure.tight_layout()
    return _png(figure)


def gaps(rows: list[Gap], names: dict[str, str]) -> bytes:
    """Each language's gap to English with its 95% bootstrap interval."""
    shown = [gap for gap in rows if gap.gap is not None]
    figure, axis = plt.subplots(figsize=(7.5, 0.42 * max(len(shown), 1) + 1.5))
    labels = [names.get(gap.language, gap.language) for gap in shown]
    values = [gap.gap for gap in shown]
    low = [gap.gap - gap.low if gap.low is not None else 0 for gap in shown]
    high = [gap.high - gap.gap if gap.high is not None else 0 for gap in shown]
    axis.errorbar(values, range(len(shown)), xerr=[low, high], fmt="o", color="#3f6fb5", ecolor="#8aa6d6", capsize=3)
    axis.axvline(0, color="#666", linewidth=0.8)
    axis.set_yticks(range(len(shown)), labels)
    axis.invert_yaxis()
    axis.set_xlabel("normalized score minus English's (95% bootstrap interval over competitions)")
    axis.set_title("Gap to English")
    figure.tight_layout()
    return _png(figure)


def language_agent_bars(table: pd.DataFrame, languages: list[str], agents: list[str], names: dict[str, str]) -> bytes:
    """Success rate and normalized score per language, one bar per agent."""
    figure, axes = plt.subplots(1, 2, figsize=(12, 0.22 * len(languages) * max(1, len(agents)) + 1.6),
                                sharey=True)
    height = 0.8 / max(len(agents), 1)
    indexed = table.set_index(["language", "agent"])
    for axis, column, title in ((axes[0], "success", "Success rate"), (axes[1], "score", "Normalized score")):
        for number, agent in enumerate(agents):
            values = [indexed[column].get((code, agent), np.nan) for code in languages]
            axis.barh(np.arange(len(languages)) + number * height, values, height=height, label=agent)
        axis.set_xlim(0, 1)
        axis.set_title(title)
    axes[0].set_yticks(np.arange(len(languages)) + height * (len(agents) - 1) / 2,
                       [names.get(code, code) for code in languages])
    axes[0].invert_yaxis()
    axes[1].legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    return _png(figure)


def profiles(curves: dict[tuple[str, str], tuple[np.ndarray, float]], agents: list[str], languages: list[str],
             names: dict[str, str]) -> bytes:
    """Performance profiles, one panel per agent, a curve per language (area in the legend)."""
    figure, axes = plt.subplots(1, len(agents), figsize=(5.2 * len(agents) + 1.5, 4.4), squeeze=False, sharey=True)
    colours = plt.get_cmap("tab20")
    for axis, agent in zip(axes[0], agents):
        for number, code in enumerate(languages):
            if (code, agent) in curves:
                curve, area = curves[(code, agent)]
                axis.step(LEVELS, curve, where="post", color=colours(number % 20),
                          linewidth=2.2 if code == "en" else 1.2, label=f"{names.get(code, code)} ({area:.2f})")
        axis.set_xlim(0, 1)
        axis.set_ylim(0, 1.02)
        axis.set_xlabel("normalized score reached, at least")
        axis.set_title(agent)
    axes[0][0].set_ylabel("share of competitions")
    axes[0][-1].legend(loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=7, title="language (area)")
    figure.suptitle("Performance profiles")
    figure.tight_layout()
    return _png(figure)


def taxonomy(counts: pd.DataFrame, title: str, labels: list[str]) -> bytes:
    """Each row's runs split by class, as shares in one stacked bar."""
    shares = counts.div(counts.sum(axis=1).replace(0, 1), axis=0)
    figure, axis = plt.subplots(figsize=(9, 0.4 * len(shares) + 1.9))
    left = np.zeros(len(shares))
    for name in shares.columns:
        widths = shares[name].to_numpy() * 100
        axis.barh(labels, widths, left=left, color=CLASS_COLOURS.get(name, "#777"), label=name, edgecolor="white")
        left += widths
    axis.set_xlim(0, 100)
    axis.set_xlabel("% of runs")
    axis.set_title(title)
    axis.invert_yaxis()
    handles, names = axis.get_legend_handles_labels()
    figure.legend(handles, names, ncol=5, loc="lower center", frameon=False, fontsize=8)
    figure.tight_layout(rect=(0, 0.55 / figure.get_figheight(), 1, 1))
    return _png(figure)
