"""Sheets annotators have reshaped: columns deleted, renamed, copied or moved, and answers typed as formulas.

A tab whose columns are not where push put them is refused with one line naming the file, the tab and each column,
and nothing from it is taken; a formula in an annotator's column is kept as the text typed, never dropped.
"""

from __future__ import annotations

import openpyxl
import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.review.pull import pull
from curation.review.push import push

from tests.review.seeding import fill
from tests.review.test_sheets_backend import AIGERIM, api, backend_on, sheets_settings  # noqa: F401 (fixtures)

COMMENT = "the translation is wrong, the meaning is different"
FIX = "Жолаушылардың қайсысы апаттан аман қалғанын `Survived` бағаны бойынша train.csv деректерінен болжаңыз."


def curate(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture
def workbook(project, seeded):
    assert curate("review", "push", "--lang", "kk").exit_code == 0
    path = project / "review" / "kk" / "kk-annotator-1.xlsx"
    fill(path, "description", "titanic/description/kk", verdict="YES and NO", comment=COMMENT)
    fill(path, "domain", "titanic/domain/kk", verdict="YES and YES")
    return path


def edit(path, tab: str, change) -> None:
    book = openpyxl.load_workbook(path)
    change(book[tab])
    book.save(path)


def problem_lines(output: str, tab: str) -> list[str]:
    return [line for line in output.splitlines() if f"tab '{tab}'" in line]


@pytest.mark.parametrize("change, named", [
    (lambda sheet: sheet.delete_cols(6), "'Your version (a copy of the translation: edit it to fix it)' is missing"),
    (lambda sheet: sheet.delete_cols(7), "'Comment' is missing"),
    (lambda sheet: sheet.delete_cols(3), "'English original' is missing"),
    (lambda sheet: setattr(sheet.cell(1, 6), "value", "My fix"), "'Your version (a copy of the translation: edit it to fix it)' "
                                                                 "is missing (deleted or renamed"),
    (lambda sheet: setattr(sheet.cell(1, 9), "value", "Comment"), "'Comment' appears 2 times (columns G, I"),
    (lambda sheet: (sheet.insert_cols(5), sheet.cell(1, 5, "Notes")), "'Your answer' was moved to column F"),
], ids=["your-version-deleted", "comment-deleted", "original-deleted", "renamed", "duplicated", "moved"])
def test_a_reshaped_tab_is_one_line_and_nothing_from_it_is_taken(project, seeded, workbook, change, named):
    edit(workbook, "description", change)

    result = curate("review", "pull", "--lang", "kk")

    assert result.exit_code == 1, result.output
    [line] = problem_lines(result.output, "description")
    assert line.strip().startswith("kk-annotator-1.xlsx tab 'description': the column ") and named in line
    assert "nothing from this tab was taken" in line
    # the untouched tab is read; the reshaped one gives nothing, so no comment became a fix
    assert {(v.item_id, v.verdict, v.own_version) for v in seeded.verdicts("kk")} == {
        ("titanic/domain/kk", "YES and YES", "")}


def test_the_summary_counts_every_row_of_a_refused_tab(project, seeded, workbook):
    edit(workbook, "description", lambda sheet: sheet.delete_cols(7))
    rows = [row for row in seeded.pushed_rows("kk", "annotator-1") if row.tab == "description"]
    assert len(rows) > 1

    result = curate("review", "pull", "--lang", "kk")

    assert result.exit_code == 1, result.output
    assert len(problem_lines(result.output, "description")) == 1  # one line for the tab...
    # ...whose rows are all left out, not "1 row": the summary counts rows, not problem lines
    assert f"kk: 1 new verdict, 0 new rubric scores, 0 already stored, {len(rows)} rows not taken until corrected" \
        in result.output


def test_once_the_columns_are_back_the_tabs_answers_are_taken(project, seeded, workbook):
    edit(workbook, "description", lambda sheet: setattr(sheet.cell(1, 7), "value", "Notes"))
    assert curate("review", "pull", "--lang", "kk").exit_code == 1
    edit(workbook, "description", lambda sheet: setattr(sheet.cell(1, 7), "value", "Comment"))

    result = curate("review", "pull", "--lang", "kk")

    assert result.exit_code == 0, result.output
    [verdict] = [v for v in seeded.verdicts("kk") if v.field == "description"]
    assert (verdict.verdict, verdict.own_version, verdict.comment) == ("YES and NO", "", COMMENT)


def test_formulas_in_an_annotators_columns_are_kept_as_typed(project, seeded, workbook):
    fill(workbook, "description", "spaceship-titanic/description/kk", verdict="YES and NO",
         own_version="=1+1", comment='=HYPERLINK("https://example.org/glossary", "see the glossary")')

    result = curate("review", "pull", "--lang", "kk")

    assert result.exit_code == 1, result.output  # "=1+1" is not Kazakh: the fix is refused, named, not dropped
    [line] = [line for line in result.output.splitlines() if "(spaceship-titanic/description/kk)" in line]
    assert "row 2" in line and "your version did not pass the checks" in line

    fill(workbook, "description", "spaceship-titanic/description/kk", own_version=FIX)
    result = curate("review", "pull", "--lang", "kk")
    assert result.exit_code == 0, result.output
    assert "taken as typed, not as the formula's result: 'Comment' = '=HYPERLINK(" in " ".join(result.output.split())
    [verdict] = [v for v in seeded.verdicts("kk") if v.item_id == "spaceship-titanic/description/kk"]
    assert verdict.own_version == FIX
    assert verdict.comment == '=HYPERLINK("https://example.org/glossary", "see the glossary")'


def test_google_sheets_reshaped_tabs_and_formulas(seeded, sheets_settings, api):  # noqa: F811 (fixtures)
    backend = backend_on(api, sheets_settings)
    push(seeded, sheets_settings, "kk", backend)
    description, domain = f"description - {AIGERIM}", f"domain - {AIGERIM}"
    api.type_into("sheet-kk", description, 2, 5, "YES and NO")
    api.type_into("sheet-kk", description, 2, 7, COMMENT)
    api.type_into("sheet-kk", domain, 2, 5, "NO and YES")
    api.type_into("sheet-kk", domain, 2, 6, '=HYPERLINK("https://example.org", "деректер ғылымы")',
                  shows="деректер ғылымы")
    api.type_into("sheet-kk", domain, 3, 5, "YES and NO")
    api.type_into("sheet-kk", domain, 3, 7, "=1+1", shows="2")
    api.delete_column("sheet-kk", description, 6)  # "Your version": Comment slides into its place

    report = pull(seeded, sheets_settings, "kk", backend)

    reshaped, formula_fix = report.problems
    assert reshaped.startswith(f"sheet-kk tab '{description}': the column 'Your version (a copy of the "
                               "translation: edit it to fix it)' is missing") and "nothing from this tab was taken" in reshaped
    # the formula is what was typed: its URL is not Kazakh, so the fix is refused by name, not read as empty
    assert formula_fix.startswith(f"sheet-kk tab '{domain}' row 2 (spaceship-titanic/domain/kk): your version did "
                                  "not pass the checks")
    [verdict] = seeded.verdicts("kk")
    assert (verdict.item_id, verdict.comment) == ("titanic/domain/kk", "=1+1")
    [note] = [note for note in report.notes if "taken as typed" in note]
    assert "row 3" in note and "'Comment' = '=1+1'" in note
