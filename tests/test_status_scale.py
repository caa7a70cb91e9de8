"""`curate status` and a translated item cost the same SQL statements at any project size, and every lookup made
once per item is answered by an index, not a scan of the table (issue 23: at 500 competitions the report ran 16,663
statements, and translate's status after each item scanned and sorted the whole translations table).

The statements are counted with SQLite's trace callback on the store the code under test is given; the projects are
written straight into the store (as ingest, describe, tag, translate, review push and pull and merge leave them)."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

from curation.config import Settings
from curation.llm import LLM
from curation.records import PushedRow, Verdict
from curation.review.items import item_id, text_hash
from curation.stages.merge import merge_language
from curation.stages.translate import TranslateStage, translate_languages
from curation.stages.translate_sources import text_hash as source_hash
from curation.status import build_status
from curation.store import Store

from tests.fakes.sample_model import masked_answer
from tests.review.seeding import KK, ORIGINALS, seed_competition, seed_translation

REPO = Path(__file__).resolve().parents[1]
SMALL, LARGE = 3, 9  # competitions; both above the two a translate look reads one by one
PULLED = "2026-11-23T12:00:00+00:00"
# The tables that grow with the project: a lookup once per item must not scan one of them.
GROWING = ("competitions", "notebooks", "stage_status", "descriptions", "domains", "description_rounds",
           "translations", "translation_history", "final_texts", "requests", "review_pushed", "review_verdicts",
           "llm_calls", "problems")


def seed_project(store: Store, settings: Settings, competitions: int, *, missing: str | None = None) -> None:
    """`competitions` competitions translated into every target and pushed to one annotator, verdicts on two thirds
    of the texts, every fifth competition's texts flagged, merge run on every other language; `missing`: a
    competition whose Kazakh description is not translated yet."""
    for number in range(competitions):
        slug = f"competition-{number:03d}"
        seed_competition(store, slug)
        for stage in ("ingest", "describe", "tag"):
            store.set_status(slug, stage, "done", "")
        for language in settings.project.targets:
            pushed = []
            for row, (field, text) in enumerate(KK.items()):
                if slug == missing and (field, language) == ("description", "kk"):
                    continue
                translation = seed_translation(store, slug, field, language, text,
                                               failed=("length",) if number % 5 == 0 else ())
                key, digest = item_id(slug, field, language), text_hash(text, ORIGINALS[field])
                pushed.append(PushedRow(language=language, annotator="ann", key=key, item_id=key, sheet="book.xlsx",
                                        tab=field, row=number + 2, translation_hash=digest, text=text,
                                        original=translation.source_text))
                if (number + row) % 3:
                    store.add_verdict(Verdict(item_id=key, competition=slug, field=field, language=language,
                                              annotator="ann", verdict="YES and YES", translation=text,
                                              translation_hash=digest, pulled_at=PULLED))
            store.save_pushed_rows(pushed)
            store.set_status(slug, f"translate:{language}", "needs_human" if number % 5 == 0 else "done", "")
    for language in settings.project.targets[::2]:
        merge_language(store, language)


def traced(store: Store) -> list[str]:
    """The statements the store runs from now on (with their values bound), in order."""
    statements: list[str] = []
    store.db.set_trace_callback(statements.append)
    return statements


def status_statements(tmp_path: Path, settings: Settings, competitions: int, **options) -> list[str]:
    with Store(tmp_path / f"{competitions}.sqlite") as store:
        seed_project(store, settings, competitions)
        statements = traced(store)
        build_status(store, settings, settings.project.languages, **options).to_json()
        store.db.set_trace_callback(None)
    return statements


def test_the_status_report_runs_the_same_statements_for_3_competitions_or_9(tmp_path, settings):
    # What --json, --detail, --lang and --comp build: every row, column and section.
    small, large = (status_statements(tmp_path / str(n), settings, n) for n in (SMALL, LARGE))
    assert len(large) == len(small), "statements that grew: " + "; ".join(sorted(set(large) - set(small))[:5])
    assert len(small) < 200  # a handful per language and section, not one per competition or text


def test_the_overview_is_counted_by_a_few_aggregate_queries(tmp_path, settings):
    small, large = (status_statements(tmp_path / str(n), settings, n, detail=False) for n in (SMALL, LARGE))
    assert small == large and len(small) <= 5
    assert all(not re.search(r"\bWHERE\b", statement) or "GROUP BY" in statement for statement in small)


def test_the_json_text_is_the_report_with_one_line_per_competition(tmp_path, settings):
    """`--json` is written by json's C encoder (an indented dump of 500 competitions took longer than building the
    report): the same object, the top level indented and each competition on a line of its own."""
    with Store(tmp_path / "store.sqlite") as store:
        seed_project(store, settings, SMALL)
        report = build_status(store, settings, settings.project.languages)
    text = report.json_text()
    assert json.loads(text) == json.loads(json.dumps(report.to_json(), default=str))
    assert [line.strip()[:33] for line in text.splitlines() if '"comp_name"' in line] == [
        f'{{"competition": "competition-{number:03d}"' for number in range(SMALL)]


OVERVIEW_IMPORTS = """
import sys
from typer.testing import CliRunner
from curation.cli import app
for options in ([], ["--json"]):
    result = CliRunner().invoke(app, ["status", *options])
    assert result.exit_code == 0, result.output
print(" ".join(name for name in ("pyarrow", "openpyxl", "openai", "anthropic", "gspread", "curation.stages.publish")
               if name in sys.modules))
"""


def test_a_report_loads_no_sdk_workbook_or_parquet_library(project, settings):
    """Half a second of a report's time at any size went to importing every stage module (and with them pyarrow,
    the SDKs); status imports only the modules that register with it, and the release section's columns are known
    without pyarrow."""
    with Store(settings.path("store")) as store:
        seed_project(store, settings, 1)
    loaded = subprocess.run([sys.executable, "-c", OVERVIEW_IMPORTS], cwd=project, capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)}, check=True)
    assert loaded.stdout.split() == []


# -- one translated item -------------------------------------------------------------------------------------


def kazakh_translator(request) -> str:
    """The seeded Kazakh description, as a model returns it: the English text's protected spans as placeholders."""
    return masked_answer(KK["description"], ORIGINALS["description"])


async def one_item(store: Store, settings: Settings, competitions: int) -> tuple[list[str], list[str]]:
    """Translate the one missing text of a project of `competitions`: (the statements of the whole run, those of
    asking for the translation and recording it — the part that runs once per item)."""
    missing = f"competition-{competitions - 1:03d}"
    seed_project(store, settings, competitions, missing=missing)
    stage = TranslateStage(settings, "kk")
    for translation in store.translations(language="kk"):  # as translate would have left them: up to date
        store.save_translation(translation.model_copy(update={"source_hash": source_hash(translation.source_text),
                                                              "input_hash": stage.input_hash(translation.source_text, None)}))
    everything = traced(store)
    async with LLM(settings, store, stage="translate") as llm:
        [(_, summary)] = await translate_languages(store, settings, llm, ["kk"])
    store.db.set_trace_callback(None)
    assert summary.complete and store.translation(missing, "description", "kk") is not None
    # Once more by hand for the per-item part alone: the item made pending again by a reviewer's request.
    store.add_request("retranslate", missing, "shorter, please", field="description", language="kk")
    stage = TranslateStage(settings, "kk")
    [item] = stage.pending(store, settings)
    per_item = traced(store)
    async with LLM(settings, store, stage="translate") as llm:
        result = await stage.run_one(item, llm)
    stage.record(store, result)
    store.db.set_trace_callback(None)
    return everything, per_item


async def test_one_translated_item_costs_the_same_statements_at_any_size_each_by_an_index(
        tmp_path, llm_settings, llm_server):
    llm_server.respond_with(kazakh_translator)
    runs = {}
    for competitions in (SMALL, LARGE):
        with Store(tmp_path / f"{competitions}.sqlite") as store:
            runs[competitions] = await one_item(store, llm_settings, competitions)
    (whole_small, item_small), (whole_large, item_large) = runs[SMALL], runs[LARGE]
    assert len(whole_large) == len(whole_small)
    assert len(item_large) == len(item_small) and item_small

    with Store(tmp_path / f"{LARGE}.sqlite") as store:
        scans = {statement: plan for statement in item_large if (plan := scanned(store.db, statement))}
    assert not scans, "\n".join(f"{statement}\n  -> {plan}" for statement, plan in scans.items())


def scanned(db: sqlite3.Connection, statement: str) -> list[str]:
    """The growing tables EXPLAIN QUERY PLAN says the statement reads whole (SCAN), not through an index (SEARCH)."""
    if not re.match(r"\s*(SELECT|UPDATE|DELETE|INSERT|WITH)\b", statement, re.I):
        return []  # BEGIN, COMMIT, SAVEPOINT, PRAGMA ...
    steps = [row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {statement}")]
    return [step for step in steps if (found := re.match(r"SCAN (\w+)", step)) and found.group(1) in GROWING]
