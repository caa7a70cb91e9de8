"""reports/results.md with its plots, and the per-run table as CSV and Parquet for notebooks.

The first screen is what the benchmark was made to measure: each language's success rate, normalized score and gap
to English with its interval, then the competition x language heatmap. Then per agent, performance profiles, and
why runs fail per language, data type, domain and competition type.
"""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd

from curation.output_folders import cannot_write, write_whole
from curation.records import RunResult
from curation.results import plots, statistics
from curation.results.release_info import TaskInfo
from curation.results.taxonomy import TAXONOMY

REPORT = "results.md"
TABLE = "results_runs"  # .csv and .parquet
COLUMNS = ("run", "agent", "competition", "language", "error_class", "error_type", "score", "normalized_score",
           "reason", "classified_by", "fold", "source", "comp_name", "domain", "data_type", "comp_type", "metric",
           "direction")


def run_table(runs: list[RunResult], normalized: list[float], tasks: dict[str, TaskInfo]) -> pd.DataFrame:
    """One row per run with its class, normalized score and its task's release fields."""
    rows = []
    for run, score in zip(runs, normalized):
        task = tasks[run.competition]
        rows.append((run.run, run.agent, run.competition, run.language, run.error_class, run.error_type, run.score,
                     score, run.reason, run.classified_by, run.fold, run.source, task.comp_name, task.domain,
                     task.data_type, task.comp_type, task.metric, task.direction))
    return pd.DataFrame.from_records(rows, columns=list(COLUMNS))


def _percent(value: float | None) -> str:
    return "–" if value is None or pd.isna(value) else f"{value:.0%}"


def _number(value: float | None, signed: bool = False) -> str:
    return "–" if value is None or pd.isna(value) else (f"{value:+.3f}" if signed else f"{value:.3f}")


def _interval(gap: statistics.Gap | None) -> str:
    return "–" if gap is None or gap.low is None else f"[{gap.low:+.3f}, {gap.high:+.3f}]"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A Markdown table, the first column left-aligned and the figures right-aligned."""
    aligns = ["---"] + ["---:"] * (len(header) - 1)
    return ["| " + " | ".join(header) + " |", "|" + "|".join(aligns) + "|",
            *("| " + " | ".join(row) + " |" for row in rows)]


def _write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    try:
        write_whole(path, data)
    except OSError as error:
        raise cannot_write(path, error, "paths.reports", "run `curate results` again") from None
    return path


def write_report(folder: Path, table: pd.DataFrame, *, title: str, languages: list[str], names: dict[str, str],
                 resamples: int, seed: int) -> tuple[list[Path], list[statistics.Gap]]:
    """Write results.md, its plots and the per-run table into `folder`; (files written, the pooled gaps).
    FolderError when the folder cannot take them."""
    agents = sorted(table["agent"].unique())
    present = set(table["language"])
    order = [code for code in languages if code in present]
    cell_table = statistics.cells(table)
    per_language = statistics.by_language(table, cell_table).set_index("language")
    gaps = statistics.language_gaps(cell_table, order, resamples=resamples, seed=seed)
    by_gap = {gap.language: gap for gap in gaps}
    grid = statistics.pooled(cell_table).reindex(columns=order)
    files = [_write(folder, "results_heatmap.png", plots.heatmap(grid, names))]

    competitions = table["competition"].nunique()
    lines = [f"# Results: {title}", "",
             f"{len(table)} runs of {len(agents)} agent{'s' * (len(agents) != 1)} ({', '.join(agents)}) on "
             f"{competitions} competitions in {len(order)} languages; {table['error_class'].eq('success').mean():.0%} "
             "succeeded. Normalized score: 0 is the competition's baseline (or a run that did not succeed), 1 the best "
             "run of the competition; the gap is a language's score minus English's over the competitions both have, "
             "with a 95% bootstrap interval.", "", "## Gap to English", ""]
    rows = []
    for code in order:
        gap = by_gap.get(code)
        figures = per_language.loc[code]
        rows.append([names[code], str(int(figures["runs"])), _percent(figures["success"]), _number(figures["score"]),
                     _number(gap.gap if gap else None, signed=True), _interval(gap),
                     str(gap.competitions) if gap else "–"])
    lines += _table(["language", "runs", "success", "normalized score", "gap to English", "95% interval",
                     "competitions"], rows)
    lines += ["", "![Normalized score per competition and language](results_heatmap.png)", ""]

    if len(agents) > 1:
        per_agent = {agent: {gap.language: gap for gap in statistics.language_gaps(
            cell_table, order, resamples=resamples, seed=seed, agent=agent)} for agent in agents}
        lines += ["## Gap to English per agent", ""]
        lines += _table(["language", *agents], [[names[code], *(
            f"{_number(per_agent[agent][code].gap, True)} {_interval(per_agent[agent][code])}"
            if code in per_agent[agent] else "–" for agent in agents)] for code in order if code != "en"])
        lines.append("")
    files.append(_write(folder, "results_gaps.png", plots.gaps(gaps, names)))
    lines += ["![Gap to English](results_gaps.png)", "", "## Success and normalized score per language and agent", ""]
    figures = statistics.by_language_agent(table, cell_table)
    indexed = figures.set_index(["language", "agent"])
    lines += _table(["language", *(f"{agent} {what}" for agent in agents for what in ("success", "score"))],
                    [[names[code], *(value for agent in agents for value in (
                        _percent(indexed["success"].get((code, agent))),
                        _number(indexed["score"].get((code, agent)))))] for code in order])
    files.append(_write(folder, "results_by_agent.png", plots.language_agent_bars(figures, order, agents, names)))
    lines += ["", "![Success and score per language and agent](results_by_agent.png)", "",
              "## Performance profiles", "",
              "For each level t from 0 to 1, the share of competitions whose cell reaches a normalized score of at "
              "least t; the area under a curve (the table) is its mean cell.", ""]
    curves = statistics.profiles(cell_table)
    lines += _table(["language", *agents], [[names[code], *(_number(curves[(code, agent)][1])
                                                             if (code, agent) in curves else "–" for agent in agents)]
                                            for code in order])
    files.append(_write(folder, "results_profiles.png", plots.profiles(curves, agents, order, names)))
    lines += ["", "![Performance profiles](results_profiles.png)", "", "## Why runs fail", ""]
    lines += _taxonomy_section(folder, table, order, names, files)
    lines += ["## The classes", "", *(f"- `{name}`: {meaning}" for name, meaning in TAXONOMY.items()), "",
              f"Classified by the rules: {int(table['classified_by'].eq('rules').sum())} runs; by the `triage` model: "
              f"{int(table['classified_by'].eq('triage').sum())}; as a CSV named them: "
              f"{int(table['classified_by'].eq('input').sum())}.", "",
              f"Every run, one row each: [{TABLE}.csv]({TABLE}.csv) and {TABLE}.parquet (columns: "
              f"{', '.join(COLUMNS)}).", ""]
    csv_bytes = table.to_csv(index=False).encode("utf-8")
    files.append(_write(folder, f"{TABLE}.csv", csv_bytes))
    parquet = io.BytesIO()
    table.to_parquet(parquet, index=False)
    files.append(_write(folder, f"{TABLE}.parquet", parquet.getvalue()))
    files.insert(0, _write(folder, REPORT, ("\n".join(lines) + "\n").encode("utf-8")))
    return files, gaps


def _taxonomy_section(folder: Path, table: pd.DataFrame, order: list[str], names: dict[str, str],
                      files: list[Path]) -> list[str]:
    lines = []
    for by, heading, image in (("language", "Per language", "results_taxonomy_language.png"),
                               ("data_type", "Per data type", "results_taxonomy_data_type.png"),
                               ("domain", "Per domain", None), ("comp_type", "Per competition type", None)):
        counts = statistics.taxonomy(table, by)
        if by == "language":
            counts = counts.reindex([code for code in order if code in counts.index])
        labels = [names.get(key, str(key)) for key in counts.index]
        lines += [f"### {heading}", ""]
        lines += _table([by.replace("_", " "), "runs", *counts.columns],
                        [[label, str(int(row.sum())), *(f"{int(value)}" for value in row)]
                         for label, (_, row) in zip(labels, counts.iterrows())])
        lines.append("")
        if image:
            files.append(_write(folder, image, plots.taxonomy(counts, f"Runs by class, {heading.lower()}", labels)))
            lines += [f"![Runs by class, {heading.lower()}]({image})", ""]
    errors = statistics.runtime_errors(table)
    if not errors.empty:
        columns = [code for code in order if code in errors.columns]
        lines += ["### Runtime errors by exception class", ""]
        lines += _table(["exception", *(names[code] for code in columns)],
                        [[str(kind), *(str(int(row[code])) for code in columns)] for kind, row in errors.iterrows()])
        lines.append("")
    return lines
