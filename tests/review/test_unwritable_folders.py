"""Folders the review loop writes into that cannot take a file: full, unwritable (read-only, or immutable for root),
or a file standing where the folder should be. `review push`, `review pull` and `report` each say so in one line
naming the folder and what to do, exit 2, leave no partial file, lose nothing, and go ahead once it is fixed
(issue 27)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from curation.cli import app
from tests.review.seeding import fill, seed_translation
from tests.unwritable import disk_full, unwritable_folder

RETRANSLATED = "деректер ғылымы мен талдау"


def curate(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "400"})


def error_lines(result) -> list[str]:
    return [line for line in result.output.splitlines() if line.startswith("error:")]


def files_under(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def set_path(project: Path, key: str, value: str) -> None:
    toml = project / "curate.toml"
    text = toml.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.startswith(f"{key} = "))
    toml.write_text(text.replace(old, f'{key} = "{value}"', 1), encoding="utf-8")


def assert_one_line(result, starts: str, ends: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "unexpected" not in result.output
    [line] = error_lines(result)
    assert line.startswith(f"error: {starts}") and line.endswith(ends), line


def test_push_into_an_unwritable_review_folder_writes_nothing_and_records_nothing(project, seeded):
    assert curate("review", "push", "--lang", "kk").exit_code == 0
    folder = project / "review" / "kk"
    before = files_under(project / "review")
    seed_translation(seeded, "titanic", "domain", "kk", RETRANSLATED)  # something new for the sheet

    undo = unwritable_folder(folder)
    try:
        result = curate("review", "push", "--lang", "kk")
    finally:
        undo()

    assert_one_line(result, f"{folder}: cannot be written (",
                    "); make it writable by you (or set paths.review_sheets in curate.toml), then push again")
    assert files_under(project / "review") == before  # the workbooks as they were, and no partial file beside them
    again = curate("review", "push", "--lang", "kk")  # the store did not record the row as written: it is written now
    assert again.exit_code == 0 and "1 updated" in again.output, again.output


def test_push_onto_a_full_disk_leaves_no_partial_workbook(project, seeded, monkeypatch):
    with monkeypatch.context() as full:
        disk_full(full)
        result = curate("review", "push", "--lang", "kk")

    assert_one_line(result, f"{project / 'review' / 'kk'}: no room to write kk-annotator-1.xlsx (No space left on "
                            "device)", "; free some disk space, then push again")
    assert files_under(project / "review") == {}
    assert seeded.pushed_rows("kk") == []
    assert curate("review", "push", "--lang", "kk").exit_code == 0
    assert sorted(files_under(project / "review")) == ["kk/kk-annotator-1.xlsx", "kk/kk-annotator-2.xlsx"]


def test_push_where_a_file_stands_in_place_of_the_folder(project, seeded):
    (project / "notes.txt").write_text("mine", encoding="utf-8")
    set_path(project, "review_sheets", "notes.txt/review")

    result = curate("review", "push", "--lang", "kk")

    assert_one_line(result, f"{project / 'notes.txt'}: is a file where a folder should be; move it aside (or set "
                            "paths.review_sheets in curate.toml), then push again", "push again")
    assert (project / "notes.txt").read_text(encoding="utf-8") == "mine"


@pytest.fixture
def answered(project, seeded) -> Path:
    """Sheets pushed to one Kazakh annotator, one row answered."""
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("[review.annotators]\n", '[review.annotators]\nkk = ["aigerim"]\n'),
                    encoding="utf-8")
    assert curate("review", "push", "--lang", "kk").exit_code == 0
    fill(project / "review" / "kk" / "kk-aigerim.xlsx", "domain", "titanic/domain/kk", verdict="YES and YES")
    return project / "annotations" / "kk"


def test_pull_into_an_unwritable_annotations_folder_takes_nothing_until_it_can(project, seeded, answered):
    undo = unwritable_folder(answered)
    try:
        result = curate("review", "pull", "--lang", "kk")
    finally:
        undo()

    assert_one_line(result, f"{answered}: cannot be written (", "); make it writable by you (or set "
                    "paths.annotations in curate.toml), then pull again (the sheets still hold the answers)")
    assert files_under(answered) == {} and seeded.verdicts("kk") == []
    again = curate("review", "pull", "--lang", "kk")
    assert again.exit_code == 0 and "kk: 1 new verdict," in again.output, again.output
    assert [path.suffix for path in answered.iterdir()] == [".csv"]


def test_pull_onto_a_full_disk_leaves_no_partial_file(project, seeded, answered, monkeypatch):
    disk_full(monkeypatch)

    result = curate("review", "pull", "--lang", "kk")

    assert_one_line(result, f"{answered}: no room to write ", "-aigerim.csv (No space left on device); free some disk "
                    "space, then pull again (the sheets still hold the answers)")
    assert files_under(answered) == {}  # not even the hidden .partial the write started
    assert seeded.verdicts("kk") == []


def test_report_into_an_unwritable_or_full_reports_folder(project, seeded, monkeypatch):
    folder = project / "reports"
    undo = unwritable_folder(folder)
    try:
        result = curate("report")
    finally:
        undo()
    assert_one_line(result, f"{folder}: cannot be written (", "); make it writable by you (or set paths.reports in "
                    "curate.toml), then run `curate report` again")

    disk_full(monkeypatch)
    result = curate("report")
    assert_one_line(result, f"{folder}: no room to write review.md (No space left on device)",
                    "; free some disk space, then run `curate report` again")
    assert files_under(folder) == {}
