"""Killing `curate review pull` at a fixed point and running it again loses no verdict, fix or rubric score, stores
none twice, and pays for no LLM answer (issue 14).

The kill points are deterministic: `curate` runs in a process of its own (tests/review/pull_worker.py) against the
Google Sheets fake, which SIGKILLs it on its Nth request, or SQLite's statement trace kills it just before the
store's Nth insert. The project: two competitions; Kazakh translations pushed to one annotator (answered: a native
fix, a NO without a version, YES and YES for the rest) and the English descriptions to two rubric annotators
(scored); `curate review pull` reads en, then kk.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.review.layout import columns_for
from curation.store import Store
from tests.fakes.sheets_api import FakeSheetsAPI, route_google_to, write_service_account_key

FIX = "`Survived` бағанын пайдаланып, қай жолаушылар аман қалғанын болжаңыз, train.csv файлынан."
COMMENT = "Бағандардың атаулары қате аударылған"
REPO = Path(__file__).resolve().parents[2]
VERDICTS, SCORES = 6, 4  # kk: 2 competitions x 3 fields, one annotator; en: 2 descriptions x 2 annotators


def curate(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def answer(api: FakeSheetsAPI, spreadsheet: str, tab: str, key: str, **cells: str) -> None:
    """Type into the row of `key` as an annotator would in the browser (cells by column key)."""
    sheet_tab = api.spreadsheets[spreadsheet].tab(tab)
    row = next(r for (r, c), text in sheet_tab.cells.items() if c == 0 and text == key)
    columns = {column.key: index for index, column in enumerate(columns_for(tab.partition(" - ")[0]))}
    for name, text in cells.items():
        api.type_into(spreadsheet, tab, row + 1, columns[name] + 1, text)


@pytest.fixture
def sheets(project, seeded, monkeypatch):
    """Pushed to the Sheets fake and answered; every Google request of this process goes to the fake."""
    toml = project / "curate.toml"
    text = toml.read_text(encoding="utf-8").replace('backend = "xlsx"', 'backend = "sheets"')
    text = text.replace("[review.annotators]\n", '[review.annotators]\nkk = ["aigerim"]\n')
    text = text.replace("[review.spreadsheets]\n", '[review.spreadsheets]\nkk = "sheet-kk"\nen = "sheet-en"\n')
    toml.write_text(text, encoding="utf-8")
    write_service_account_key(project / "key.json")
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(project / "key.json"))
    api = FakeSheetsAPI()
    api.create_spreadsheet("sheet-kk")
    api.create_spreadsheet("sheet-en")
    undo = route_google_to(api)
    try:
        for language in ("kk", "en"):
            pushed = curate("review", "push", "--lang", language)
            assert pushed.exit_code == 0, pushed.output
        answer(api, "sheet-kk", "description - aigerim", "titanic/description/kk", verdict="NO and YES", own_version=FIX)
        answer(api, "sheet-kk", "data_card - aigerim", "titanic/data_card/kk", verdict="NO and NO", comment=COMMENT)
        for slug in ("titanic", "spaceship-titanic"):
            for field in ("description", "data_card", "domain"):
                if (slug, field) not in {("titanic", "description"), ("titanic", "data_card")}:
                    answer(api, "sheet-kk", f"{field} - aigerim", f"{slug}/{field}/kk", verdict="YES and YES")
            for annotator, score in (("annotator-1", "2"), ("annotator-2", "1")):
                answer(api, "sheet-en", f"rubric - {annotator}", slug, score=score, comment=f"{annotator} on {slug}")
        seeded.close()
        yield project, api
    finally:
        undo()


def killed_pull(project, api: FakeSheetsAPI, request: int = 0, insert: str = "-") -> subprocess.CompletedProcess:
    """`curate review pull` in its own process, killed at the given point."""
    state = project / "sheets.pickle"
    api.save(state)
    return subprocess.run([sys.executable, "-m", "tests.review.pull_worker", str(state), str(request), insert,
                           "review", "pull"], cwd=project, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [
                              str(REPO), os.environ.get("PYTHONPATH")]))})


def stored(project) -> tuple[list, list, int]:
    with Store(project / "data" / "curation.sqlite") as store:
        return store.verdicts("kk", latest=False), store.rubric_scores(latest=False), len(store.llm_calls())


def assert_complete(project) -> None:
    """Every answer on the sheets is in the store exactly once; nothing was asked of a model."""
    verdicts, scores, calls = stored(project)
    assert len(verdicts) == VERDICTS and len({(v.item_id, v.annotator) for v in verdicts}) == VERDICTS
    assert [v.own_version for v in verdicts if v.own_version] == [FIX]
    assert [v.comment for v in verdicts if v.comment] == [COMMENT]
    assert len(scores) == SCORES and len({(s.competition, s.annotator) for s in scores}) == SCORES
    assert calls == 0


@pytest.mark.parametrize("point, verdicts_then, scores_then", [
    ({"request": 1}, 0, 0),                   # the token grant: nothing read yet
    ({"request": 4}, 0, 0),                   # between the two reads of the en cells (1 token, 2 tabs, 3-4 cells)
    ({"request": 5}, 0, SCORES),              # between languages: en's scores stored, kk not read
    ({"insert": "rubric_scores:3"}, 0, 2),    # between tabs: annotator-1's scores stored, annotator-2's not
    ({"insert": "review_verdicts:1"}, 0, SCORES),  # kk's answers in annotations/, none in the store yet
    ({"insert": "review_verdicts:4"}, 3, SCORES),  # while writing kk's verdicts to the store
], ids=lambda value: "-".join(f"{k}-{v}" for k, v in value.items()) if isinstance(value, dict) else None)
def test_pull_killed_at_a_fixed_point_and_rerun(sheets, point, verdicts_then, scores_then):
    project, api = sheets
    killed = killed_pull(project, api, **point)
    assert killed.returncode == -signal.SIGKILL, killed.stdout + killed.stderr
    verdicts, scores, _ = stored(project)
    assert (len(verdicts), len(scores)) == (verdicts_then, scores_then)  # the same point on every run

    rerun = curate("review", "pull")
    assert rerun.exit_code == 0, rerun.output
    assert_complete(project)
    again = curate("review", "pull")
    assert "nothing new from 2 languages (en, kk); 10 answers already stored" in again.output, again.output
    assert_complete(project)
    assert "kk: 4 keep, 1 fix, 1 retranslate" in curate("merge", "--lang", "kk").output
    assert "en: 2 final" in curate("merge", "--lang", "en").output

    # the annotations files, the source of truth, rebuild the same answers, none twice, in a lost store
    for suffix in ("", "-wal", "-shm"):
        (project / "data" / f"curation.sqlite{suffix}").unlink(missing_ok=True)
    imported = curate("review", "import", "annotations")
    assert imported.exit_code == 0, imported.output
    verdicts, scores, _ = stored(project)
    assert len(verdicts) == VERDICTS and len(scores) == SCORES
