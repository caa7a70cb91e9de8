"""The ML²B grading harness's files: tasks/<HarnessName>.csv per language and competitions.json keyed by comp-id.

comp-id is the competition's Kaggle slug: unique, already the key of every store table, and stable across
releases (a renamed competition keeps its slug), so a harness run pinned to one release still finds its task
in the next.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from curation.languages import Language
from curation.records import Competition
from curation.release.rows import COLUMNS

# The harness reads these first; the rest of the dataset columns follow as extras.
HARNESS_COLUMNS = ("comp_name", "competition", "comp-id", "data_card", "description", "domain", "metric")
EXTRA_COLUMNS = tuple(column for column in COLUMNS if column not in HARNESS_COLUMNS)


def comp_id(slug: str) -> str:
    """The harness's identifier for a competition: its slug."""
    return slug


def harness_path(language: Language) -> str:
    """tasks/<HarnessName>.csv for a language as the project names it (Settings.language), with the harness's own
    spelling (e.g. tasks/Belarus.csv); a language a curator added is its English name unless curate.toml says."""
    return f"tasks/{language.harness}.csv"


def write_tasks_csv(rows: list[dict], path: Path) -> None:
    """One language's harness file: comma-separated UTF-8, every field quoted so newlines and commas survive."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
        writer.writerow(HARNESS_COLUMNS + EXTRA_COLUMNS)
        for row in rows:
            values = {**row, "comp-id": comp_id(row["competition"])}
            writer.writerow([_cell(values.get(column)) for column in HARNESS_COLUMNS + EXTRA_COLUMNS])


def _cell(value: object) -> object:
    # QUOTE_NONNUMERIC quotes every string; None stays an empty unquoted cell, which pandas reads as missing.
    if value is None:
        return None
    if isinstance(value, bool):
        return str(value)
    return value


def grading_config(competitions: list[Competition], published: set[str]) -> tuple[dict[str, dict], list[str]]:
    """competitions.json content for the published competitions, and the slugs left out for having no grading block."""
    config, missing = {}, []
    for competition in competitions:
        if competition.competition not in published:
            continue
        if not competition.grading:
            missing.append(competition.competition)
            continue
        config[comp_id(competition.competition)] = competition.grading
    return config, missing


def write_grading_config(config: dict[str, dict], path: Path) -> None:
    """competitions.json, keys sorted so unchanged grading blocks give unchanged bytes."""
    path.write_text(json.dumps(config, ensure_ascii=False, indent=2, sort_keys=True) + "\n", encoding="utf-8")
