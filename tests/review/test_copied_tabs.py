"""Answers in a copied tab and under merged cells (issue 27).

An annotator who copies a tab ("domain (2)" in Excel, "Copy of domain - <annotator>" in Google Sheets) and answers
there gets those answers read where the tab push made has none, and the copy is named; an item answered differently
in the copy and in the tab is named and not taken. Rows under cells merged across rows are named by range, not left
unanswered without a word. Both for .xlsx workbooks and Google Sheets (tests/fakes/sheets_api.py).
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.review.pull import pull
from curation.review.push import push
from tests.review.seeding import fill
from tests.review.test_sheets_backend import AIGERIM, api, backend_on, sheets_settings  # noqa: F401 (fixtures)

ITEMS = ("titanic/domain/kk", "spaceship-titanic/domain/kk")


def curate(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "400"})


@pytest.fixture
def workbook(project, seeded) -> Path:
    """kk pushed to one annotator, aigerim."""
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("[review.annotators]\n", '[review.annotators]\nkk = ["aigerim"]\n'),
                    encoding="utf-8")
    assert curate("review", "push", "--lang", "kk").exit_code == 0
    return project / "review" / "kk" / "kk-aigerim.xlsx"


def copy_tab(path: Path, tab: str, title: str) -> None:
    """Copy a tab as Excel's Move or Copy > Create a copy does, under the title Excel gives it."""
    book = openpyxl.load_workbook(path)
    book.copy_worksheet(book[tab]).title = title
    book.save(path)


def test_answers_in_a_copied_tab_are_read_and_the_copy_is_named(project, seeded, workbook):
    copy_tab(workbook, "domain", "domain (2)")
    for key in ITEMS:
        fill(workbook, "domain (2)", key, verdict="YES and YES")

    result = curate("review", "pull", "--lang", "kk")

    assert result.exit_code == 0, result.output
    assert "kk: 2 new verdicts," in result.output
    note = " ".join(line for line in result.output.splitlines() if line.startswith("note:"))
    assert note == ("note: kk-aigerim.xlsx tab 'domain (2)' is a copy of tab 'domain', not a tab push made; its 2 answers "
                    "were read as answers in 'domain', which had none for those items: answer in 'domain' from now on "
                    "and delete the copy")
    verdicts = {v.item_id: v for v in seeded.verdicts("kk")}
    assert set(verdicts) == set(ITEMS)
    assert verdicts["titanic/domain/kk"].source.startswith("kk-aigerim.xlsx tab 'domain (2)' row ")


def test_an_item_answered_differently_in_the_copy_is_named_and_not_taken(project, seeded, workbook):
    copy_tab(workbook, "domain", "domain (2)")
    fill(workbook, "domain", "titanic/domain/kk", verdict="YES and YES")
    fill(workbook, "domain (2)", "titanic/domain/kk", verdict="NO and NO", comment="not the usual term")
    fill(workbook, "domain", "spaceship-titanic/domain/kk", verdict="YES and YES")  # the same in both: one answer
    fill(workbook, "domain (2)", "spaceship-titanic/domain/kk", verdict="YES and YES")

    result = curate("review", "pull", "--lang", "kk")

    assert result.exit_code == 1, result.output
    [line] = [line for line in result.output.splitlines() if "domain (2)" in line]
    assert line == ("kk-aigerim.xlsx tab 'domain (2)': a copy of tab 'domain' answers 1 item otherwise than 'domain' "
                    "or another copy does (titanic/domain/kk); they are not taken until one answer is left: keep the "
                    "answers in 'domain', delete the copy and pull again")
    assert [v.item_id for v in seeded.verdicts("kk")] == ["spaceship-titanic/domain/kk"]
    assert "kk: 1 new verdict, 0 new rubric scores, 0 already stored, 1 row not taken until corrected" in result.output


def test_a_deleted_tab_is_read_from_its_copy(project, seeded, workbook):
    copy_tab(workbook, "domain", "domain_2")  # LibreOffice's name for a copy
    book = openpyxl.load_workbook(workbook)
    del book["domain"]
    book.save(workbook)
    fill(workbook, "domain_2", "titanic/domain/kk", verdict="YES and YES")

    result = curate("review", "pull", "--lang", "kk")

    assert result.exit_code == 0, result.output  # the copy holds every row: nothing is missing or deleted
    assert "its 1 answer was read as answers in 'domain'" in result.output
    assert [v.item_id for v in seeded.verdicts("kk")] == ["titanic/domain/kk"]


def test_rows_under_merged_answer_cells_are_named(project, seeded, workbook):
    fill(workbook, "description", "titanic/description/kk", verdict="YES and YES")
    fill(workbook, "domain", "titanic/domain/kk", verdict="YES and YES")
    book = openpyxl.load_workbook(workbook)
    book["domain"].merge_cells("E2:E3")  # one answer spread over both rows
    book.save(workbook)

    result = curate("review", "pull", "--lang", "kk")

    assert result.exit_code == 1, result.output
    [line] = [line for line in result.output.splitlines() if "are merged" in line]
    assert line == ("kk-aigerim.xlsx tab 'domain' rows 2-3: the cells E2:E3 ('Your answer') are merged into one, so "
                    "only its first cell holds what was typed; rows 2-3 were not read: unmerge the cells, fill in each "
                    "row and pull again")
    assert [v.item_id for v in seeded.verdicts("kk")] == ["titanic/description/kk"]  # and no row is called deleted
    assert "was deleted" not in result.output
    # the summary counts the two rows under the range, not the one line naming it
    assert "kk: 1 new verdict, 0 new rubric scores, 0 already stored, 2 rows not taken until corrected" in result.output


def test_google_sheets_copied_tabs_and_merged_cells(seeded, sheets_settings, api):  # noqa: F811 (fixtures)
    backend = backend_on(api, sheets_settings)
    push(seeded, sheets_settings, "kk", backend)
    domain, description = f"domain - {AIGERIM}", f"description - {AIGERIM}"
    copy = api.duplicate_tab("sheet-kk", domain)
    api.type_into("sheet-kk", copy, 2, 5, "YES and YES")
    api.type_into("sheet-kk", copy, 3, 5, "YES and YES")
    api.type_into("sheet-kk", description, 2, 5, "YES and YES")
    api.type_into("sheet-kk", description, 3, 5, "YES and YES")
    api.merge_cells("sheet-kk", description, "E2:E3")

    report = pull(seeded, sheets_settings, "kk", backend)

    assert report.problems == [f"sheet-kk tab '{description}' rows 2-3: the cells E2:E3 ('Your answer') are merged into "
                               "one, so only its first cell holds what was typed; rows 2-3 were not read: unmerge the "
                               "cells, fill in each row and pull again"]
    assert report.notes == [f"sheet-kk tab 'Copy of {domain}' is a copy of tab '{domain}', not a tab push made; its 2 "
                            f"answers were read as answers in '{domain}', which had none for those items: answer in "
                            f"'{domain}' from now on and delete the copy"]
    assert {v.item_id for v in seeded.verdicts("kk")} == set(ITEMS)
    assert report.not_taken == 2
