"""What `curate status` shows for describe and tag: grade, rounds, flags, the loop's figures, card lint findings."""

from __future__ import annotations

import io

from rich.console import Console

from curation.llm import LLM
from curation.stages.describe import DescribeStage
from curation.stages.runner import run_stage
from curation.stages.tag import TagStage
from curation.status import build_status
from curation.status_view import render_status
from tests.stages.scripted_models import TaskWriter
from tests.stages.test_describe import HOUSES_CLEAN, HOUSES_VAGUE, TITANIC_CLEAN, add_competition

SPACESHIP = "Predict which passengers were transported to another dimension."


async def test_status_shows_grades_rounds_flags_and_the_share_good_after_round_one_and_last(
        store, llm_settings, llm_server) -> None:
    llm_server.respond_with(TaskWriter(
        first={"Titanic": TITANIC_CLEAN, "House Prices": HOUSES_VAGUE, "Spaceship": SPACESHIP},
        grades={HOUSES_VAGUE: "B", HOUSES_CLEAN: "C", SPACESHIP: "A", SPACESHIP + " Use XGBoost.": "B"},
        refined={HOUSES_VAGUE: HOUSES_CLEAN, SPACESHIP: SPACESHIP + " Use XGBoost."},
        domains={"Titanic": ["maritime studies"], "House Prices": ["real estate"], "Spaceship": ["synthetic"]}))
    add_competition(store, "titanic", "Titanic")
    add_competition(store, "house-prices", "House Prices",
                    data_card="One row per home. The submission file has an Id and a SalePrice column.")
    add_competition(store, "spaceship-titanic", "Spaceship")
    for stage in (DescribeStage(llm_settings, max_rounds=2), TagStage(llm_settings)):
        async with LLM(llm_settings, store, stage=stage.name) as llm:
            await run_stage(stage, store, llm_settings, llm)

    report = build_status(store, llm_settings, ["en"])

    rows = {row.competition: row for row in report.competitions}
    assert {slug: (row.columns["grade"], row.columns["rounds"], row.columns["domain"]) for slug, row in rows.items()} == {
        "titanic": ("C", "1", "maritime studies"), "house-prices": ("C", "2", "real estate"),
        "spaceship-titanic": ("B", "2", "synthetic")}
    assert rows["spaceship-titanic"].columns["flags"] == "needs human (1 lint)"
    assert rows["house-prices"].columns["flags"] == "card: 1 sentence"
    assert rows["spaceship-titanic"].stages["describe"]["status"] == "needs_human"
    sections = {section.title.split(" (")[0]: section for section in report.sections}
    summary = sections["Descriptions"]
    assert summary.note.startswith("good after round 1: 33% (1/3), after the last round: 67% (2/3); 1 need a person")
    spend = sum(call.cost_usd for call in store.llm_calls() if call.stage in ("describe", "tag"))
    assert spend > 0 and summary.note.endswith(f"describe + tag spend ${spend:.4f}")
    assert summary.rows[0][-1] == f"{spend:.4f}"
    card = sections["Data-card sentences about submissions or test files"]
    assert card.rows == [["house-prices", "submission_format", "The submission file has an Id and a SalePrice column."]]

    out = io.StringIO()
    render_status(report, Console(file=out, width=200), detail=True)
    shown = out.getvalue()
    assert "good after round 1: 33%" in shown and "maritime studies" in shown
