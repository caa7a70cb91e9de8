"""`curate review push|pull|import` from the command line: what a curator sees, and one line for each mistake."""

from __future__ import annotations

import csv

from typer.testing import CliRunner

from curation.cli import app

from tests.review.seeding import fill


def curate(*args: str):
    return CliRunner().invoke(app, list(args))


def add_annotators(project, line: str) -> None:
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("[review.annotators]\n", f"[review.annotators]\n{line}\n"),
                    encoding="utf-8")


def test_push_without_annotators_uses_default_names_and_says_where_to_name_them(project, seeded):
    result = curate("review", "push", "--lang", "kk,en")
    assert result.exit_code == 0, result.output
    # said once for both languages, not once per language
    assert "2 languages: no annotators named for kk, en: the sheets are for annotator-1, annotator-2; name them " \
           'under [review.annotators] in curate.toml (kk = ["name@example.org"])' in result.output
    assert result.output.count("no annotators named") == 1
    assert "kk annotator-1:" in result.output and "kk annotator-2:" in result.output
    assert "en annotator-1:" in result.output and "en annotator-2:" in result.output


def test_mistakes_get_one_line(project, seeded):
    assert "unknown backend 'csv'" in curate("review", "push", "--lang", "kk", "--backend", "csv").output
    assert "GOOGLE_APPLICATION_CREDENTIALS" in curate("review", "push", "--lang", "kk", "--backend", "sheets").output
    assert "nope.xlsx: no such workbook" in curate("review", "pull", "--file", "nope.xlsx").output
    assert "missing: no such folder" in curate("review", "import", "missing").output
    assert "unknown language code 'xx'" in curate("review", "push", "--lang", "xx").output


def test_rubric_push_pull_merge(project, seeded):
    assert curate("review", "push", "--lang", "en").exit_code == 0
    first, second = project / "review" / "en" / "rubric-annotator-1.xlsx", project / "review" / "en" / "rubric-annotator-2.xlsx"
    fill(first, "rubric", "titanic", score="2 - good")
    fill(first, "rubric", "spaceship-titanic", score="5", comment="great")
    fill(second, "rubric", "titanic", score="1", comment="the metric is not named")

    result = curate("review", "pull", "--lang", "en")

    assert result.exit_code == 1  # one row not taken
    assert "rubric-annotator-1.xlsx tab 'rubric' row 2 (spaceship-titanic): '5' is not a score" in result.output
    assert "en: 0 new verdicts, 2 new rubric scores" in result.output
    files = sorted((project / "annotations" / "en").glob("*-rubric.csv"))
    assert len(files) == 2
    assert {row["score"] for f in files for row in csv.DictReader(f.open(encoding="utf-8"))} == {"1", "2"}

    merged = curate("merge", "--lang", "en")
    assert "en: 1 final, 1 open" in merged.output
    assert "spaceship-titanic: rubric 0 of 2 scores" in merged.output
    assert seeded.rubric_final() == {"titanic": 1}


def test_pull_then_import_into_a_lost_store(project, seeded):
    add_annotators(project, 'kk = ["aigerim"]')
    assert curate("review", "push", "--lang", "kk").exit_code == 0
    fill(project / "review" / "kk" / "kk-aigerim.xlsx", "domain", "titanic/domain/kk", verdict="YES and YES")
    pulled = curate("review", "pull")
    assert pulled.exit_code == 0 and "kk: 1 new verdict," in pulled.output
    assert "kk: 0 new verdicts, 0 new rubric scores, 1 already stored" in curate("review", "pull").output
    import json

    status = json.loads(curate("status", "--json", "--lang", "kk").output)
    [review] = [s for s in status["sections"] if s["title"].startswith("Review")]
    # six items pushed: five open, one judged, nothing merged yet
    assert review["rows"] == [["kk", 6, 5, 1, 0, "0%", 0, "-"]]

    seeded.close()
    (project / "data" / "curation.sqlite").unlink()
    for leftover in (project / "data").glob("curation.sqlite-*"):
        leftover.unlink()
    imported = curate("review", "import", "annotations")
    assert imported.exit_code == 0 and "1 file: 1 verdict and 0 rubric scores added" in imported.output


def test_a_bad_service_account_key_is_one_line(project, seeded, monkeypatch):
    (project / "key.json").write_text('{"type": "service_account"}', encoding="utf-8")
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(project / "key.json"))
    result = curate("review", "push", "--lang", "kk", "--backend", "sheets")
    assert result.exit_code == 2
    assert "key.json: not a readable service account key" in result.output and "Traceback" not in result.output
