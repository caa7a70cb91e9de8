"""The store's core tables: a process killed in the middle of writing leaves no half-written competition."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from curation.records import CheckResult, Competition, IngestedCompetition, Notebook, Translation
from curation.store import Store

REPO = Path(__file__).resolve().parents[1]

# Rewrites 30 competitions over and over, each with 25 notebooks that carry the same version number as their
# competition's name: after a kill, every competition must show one version in all its rows.
WRITER = """
import sys
from curation.records import CheckResult, Competition, IngestedCompetition, Notebook, Translation
from curation.store import Store

store = Store(sys.argv[1])
version = 0
while True:
    version += 1
    slug = f"comp-{version % 30}"
    item = IngestedCompetition(
        competition=Competition(competition=slug, comp_name=f"version {version}", comp_type="Featured",
                                data_type="tabular", metric="AUC"),
        notebooks=[Notebook(competition=slug, name=f"nb-{n}", text=f"version {version} " + "x = 1\\n" * 200)
                   for n in range(25)])
    store.save_ingested(item)
    if version == 40:
        print("ready", flush=True)
"""


@pytest.mark.parametrize("delay", [0.05, 0.2, 0.5])
def test_a_store_killed_mid_write_opens_consistent(tmp_path, delay):
    path = tmp_path / "curation.sqlite"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, env=env)
    try:
        assert writer.stdout.readline().strip() == b"ready"
        time.sleep(delay)
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    assert writer.returncode == -signal.SIGKILL

    with Store(path) as store:
        assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        competitions = store.competitions()
        assert len(competitions) == 30
        for competition in competitions:
            notebooks = store.notebooks(competition.competition)
            assert len(notebooks) == 25, competition.competition
            versions = {nb.text.split(" x = ")[0] for nb in notebooks}
            assert versions == {competition.comp_name}, competition.competition
        # and the store still takes writes
        item = IngestedCompetition(competition=Competition(competition="after-the-kill", comp_name="A", comp_type="Featured",
                                                           data_type="tabular", metric="AUC"))
        assert store.save_ingested(item) == "added"


def test_status_of_one_stage_and_where_competitions_came_from(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        assert store.status("titanic", "ingest") is None
        store.save_ingested(IngestedCompetition(competition=Competition(
            competition="titanic", comp_name="Titanic", comp_type="Getting Started", data_type="tabular",
            metric="Accuracy", source="/data/competitions/titanic"),
            notebooks=[Notebook(competition="titanic", name="a.py", text="x = 1")]))
        store.set_status("titanic", "ingest", "done", "1 notebook", "abc")
        status = store.status("titanic", "ingest")
        assert (status.status, status.detail, status.input_hash) == ("done", "1 notebook", "abc")
        assert store.competition_sources() == {"titanic": "/data/competitions/titanic"}


def test_one_batch_is_found_by_its_id_with_its_request_count(tmp_path):
    with Store(tmp_path / "store.sqlite") as store:
        first = store.add_batch("openai", "gpt", [("a", "hash-a", {"n": 1}), ("b", "hash-b", {"n": 2})])
        second = store.add_batch("anthropic", "claude", [("c", "hash-c", {"n": 3})])
        store.update_batch(second, "in_progress", {"processing": 1}, remote_id="msgbatch_1")

        found = store.batch(second)
        assert (found.provider, found.remote_id, found.state, found.counts, found.requests) == (
            "anthropic", "msgbatch_1", "in_progress", {"processing": 1}, 1)
        assert store.batch(first).requests == 2
        assert store.batch(second + 1) is None
        assert [batch.id for batch in store.batches()] == [first, second]


def test_a_store_from_before_the_check_results_column_counts_the_same_pass_rates(tmp_path):
    """`curate status` counts check pass rates from a column beside each translation (migration 32); a store written
    before it gets the column filled from the records, so its figures do not change on upgrade."""
    checks = [[("placeholders", True), ("length", False)], [("placeholders", True), ("length", True)],
              [("placeholders", False)], []]
    with Store(tmp_path / "store.sqlite") as store:
        for number, results in enumerate(checks):
            store.save_translation(Translation(
                competition=f"c{number}", field="description", language="kk", source_text="Predict.",
                source_hash="s", text="Болжаңыз.", model="m",
                checks=[CheckResult(name=name, passed=passed, detail="") for name, passed in results],
                flagged=not all(passed for _, passed in results)))
        expected = store.translation_tallies()
    assert expected["kk"].translated == 4 and expected["kk"].flagged == 2
    assert expected["kk"].checks == {"placeholders": [2, 3], "length": [1, 2]}
    with sqlite3.connect(tmp_path / "store.sqlite") as db:  # back to the schema before migration 32
        db.executescript("DROP INDEX translations_checks; DROP INDEX translations_by_language; "
                         "ALTER TABLE translations DROP COLUMN check_results; "
                         "DELETE FROM schema_migrations WHERE version = 32;")
    db.close()
    with Store(tmp_path / "store.sqlite") as store:
        assert store.translation_tallies() == expected
