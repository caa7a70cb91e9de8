"""A release folder and two agents' run folders in the harness's format, every class among them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curation.cli import app
from tests.results.harness_runs import HARNESS_NAMES, SCENARIOS, THIRTEEN, write_release, write_run

COMPETITIONS = {
    "titanic": {"metric": "roc_auc_score", "direction": "maximize", "target_col": "Survived", "domain": "transport"},
    "spaceship-titanic": {"metric": "roc_auc_score", "direction": "maximize", "target_col": "Transported",
                          "baseline_score": 0.6, "domain": "transport", "data_type": "tabular"},
    "santander-customer-transaction-prediction": {"metric": "roc_auc_score", "direction": "maximize",
                                                  "target_col": "target", "domain": "finance", "data_type": "tabular"},
}
FAILING = [name for name in SCENARIOS if name not in ("success", "hallucination")]
AGENTS = ("aide", "react")


def curate(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "300"})


def json_lines(result) -> tuple[list[dict], dict]:
    """The per-run objects and the summary of a `curate results --json`."""
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert "summary" in lines[-1] and all("summary" not in line for line in lines[:-1])
    return lines[:-1], lines[-1]["summary"]


def build_runs(logs: Path) -> dict[tuple[str, str], str]:
    """Both agents' runs in all 13 languages on three competitions: on titanic every failing scenario in turn, the
    other two succeed (with scores that differ by language), and react's Kazakh run on spaceship-titanic reports an
    implausible score. (agent, run folder name) -> the class it must get."""
    expected = {}
    turn = 0
    for agent in AGENTS:
        for number, language in enumerate(THIRTEEN):
            for competition in COMPETITIONS:
                if competition == "titanic":
                    scenario = FAILING[turn % len(FAILING)]
                    turn += 1
                elif (agent, language, competition) == ("react", "kk", "spaceship-titanic"):
                    scenario = "hallucination"
                else:
                    scenario = "success"
                folder = write_run(logs / agent, competition, language, scenario, seed=number + 13 * (agent == "react"))
                expected[(agent, folder.name)] = SCENARIOS[scenario][1]
    return expected


@pytest.fixture
def harness(project: Path) -> dict[tuple[str, str], str]:
    """release/ and logs/<agent>/<run>/ in the project; returns the class each run must get."""
    write_release(project / "release", COMPETITIONS, THIRTEEN)
    return build_runs(project / "logs")


__all__ = ["AGENTS", "COMPETITIONS", "HARNESS_NAMES", "curate", "json_lines"]
