"""`curate review push` with the xlsx backend: layout, dropdown, locked columns, text never a formula, re-push."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from curation.review.backends import backend_for
from curation.review.items import second_annotator_items, review_items
from curation.review.layout import QUESTION, VERDICT_CHOICES
from curation.review.push import push

from tests.review.seeding import fill, locked, seed_translation


def _workbook(report, annotator: str) -> Path:
    return Path(next(sheet.ref for sheet in report.sheets if sheet.annotator == annotator)).resolve()  # relative to the project root (the working folder here)


def test_push_writes_a_workbook_per_annotator_with_the_form(seeded, review_settings):
    report = push(seeded, review_settings, "kk", backend_for(review_settings))

    first = _workbook(report, "aigerim")
    assert first == review_settings.path("review_sheets") / "kk" / "kk-aigerim.xlsx"
    book = openpyxl.load_workbook(first)
    assert book.sheetnames == ["Instructions", "description", "data_card", "domain"]
    instructions = {row[0]: row[1] for row in book["Instructions"].iter_rows(values_only=True)}
    assert instructions["Annotator"] == "aigerim" and instructions["Language"] == "kk"
    assert "sound native" in instructions["The question"]
    assert "starts as a copy of the translation" in instructions["Your version"]
    assert "as many times as in the English" in instructions["Keep exactly"] and "0.5, not 0,5" in instructions["Keep exactly"]
    assert "send it back" in instructions["Sending it back"] and "same file name, tabs and columns" in instructions["Sending it back"]
    assert "'Item id', 'Translation', 'English original', 'Check failed'" in instructions["Do not"]
    # The text wraps in a column a screen wide, each row tall enough for it, and prints one page wide: before, column
    # B was 110 wide and unwrapped, so a 448-character sentence ran four screens to the right.
    tab = book["Instructions"]
    assert tab.column_dimensions["B"].width <= 80
    longest = max(range(1, tab.max_row + 1), key=lambda row: len(tab.cell(row, 2).value or ""))
    assert len(tab.cell(longest, 2).value) > 300
    assert all(tab.cell(row, 2).alignment.wrap_text for row in range(1, tab.max_row + 1))
    assert tab.row_dimensions[longest].height >= 15 * len(tab.cell(longest, 2).value) / 80
    assert tab.sheet_properties.pageSetUpPr.fitToPage and tab.page_setup.fitToWidth == 1

    sheet = book["description"]
    header = [cell.value for cell in sheet[1]]
    assert header[:3] == ["Item id", "Translation", "English original"]
    assert header[5].startswith("Your version") and header[6] == "Comment" and header[7] == "Check failed"
    ids = [row[0] for row in sheet.iter_rows(min_row=2, values_only=True) if row[0]]
    assert ids == ["spaceship-titanic/description/kk", "titanic/description/kk"]
    assert sheet.cell(2, 4).value == QUESTION
    # "Your version" starts as the machine text, so fixing one word is editing one word
    assert sheet.cell(2, 6).value == sheet.cell(2, 2).value and sheet.cell(2, 6).value
    # the dropdown offers exactly the four answers on the answer column
    [validation] = sheet.data_validations.dataValidation
    assert validation.formula1 == '"' + ",".join(VERDICT_CHOICES) + '"'
    assert "E2" in str(validation.sqref)
    # locked: id, translation, original; editable: answer, own version, comment; the sheet is protected
    assert sheet.protection.sheet
    assert [locked(sheet, 2, col) for col in range(1, 9)] == [True, True, True, True, False, False, False, True]
    # below the pushed rows too (pasted rows): the columns' own styles leave answer, version and comment open
    assert [locked(sheet, 200, col) for col in range(1, 9)] == [True, True, True, True, False, False, False, True]
    assert sheet.cell(2, 2).alignment.wrap_text
    assert sheet.row_dimensions[2].height >= 30  # tall enough for the two wrapped lines of the translation

    # the second annotator gets 20% of the six items, rounded up: two, the same on every push
    second = openpyxl.load_workbook(_workbook(report, "dana"))
    keys = sorted(row[0] for tab in ("description", "data_card", "domain")
                  for row in second[tab].iter_rows(min_row=2, values_only=True) if row[0])
    expected = sorted(item.item_id for item in second_annotator_items(review_items(seeded, "kk"), 0.2))
    assert keys == expected and len(keys) == 2


def test_formula_looking_text_stays_text(seeded, review_settings):
    seed_translation(seeded, "titanic", "domain", "kk", "=HYPERLINK(\"http://x\")+1")
    report = push(seeded, review_settings, "kk", backend_for(review_settings))
    path = _workbook(report, "aigerim")

    cell = next(row for row in openpyxl.load_workbook(path)["domain"].iter_rows(min_row=2)
                if row[0].value == "titanic/domain/kk")[1]
    assert cell.value == "=HYPERLINK(\"http://x\")+1"
    assert cell.data_type == "s"
    # and the file itself holds no formula element at all
    import zipfile

    with zipfile.ZipFile(path) as archive:
        assert not any(b"<f>" in archive.read(name) for name in archive.namelist() if name.startswith("xl/worksheets/"))


def test_failed_checks_are_named_on_the_row(seeded, review_settings):
    seed_translation(seeded, "titanic", "data_card", "kk", "train.csv файлында", failed=("length", "placeholders"))
    path = _workbook(push(seeded, review_settings, "kk", backend_for(review_settings)), "aigerim")
    sheet = openpyxl.load_workbook(path)["data_card"]
    row = next(row for row in sheet.iter_rows(min_row=2, values_only=True) if row[0] == "titanic/data_card/kk")
    # one plain sentence per check; a damaged protected name is one a reviewer's YES cannot publish: the cell says so
    assert row[7].split("\n") == [
        "Much shorter or longer than the English: something may be missing or added.",
        "An identifier (code, a column, file or metric name, a URL) was changed, lost or repeated: each must stay "
        "exactly as written, as many times as in the English; a YES cannot publish it, so correct it in 'Your version'.",
    ]
    # the curator keeps the checks' names
    [pushed] = [row for row in seeded.pushed_rows("kk", "aigerim") if row.item_id == "titanic/data_card/kk"]
    assert pushed.failed_checks == ["length", "placeholders"]


def test_pushing_again_adds_only_new_or_changed_items_and_keeps_filled_rows(seeded, review_settings):
    backend = backend_for(review_settings)
    path = _workbook(push(seeded, review_settings, "kk", backend), "aigerim")
    fill(path, "description", "titanic/description/kk", verdict="NO and YES", own_version="Менің нұсқам", comment="стиль")

    again = push(seeded, review_settings, "kk", backend)
    assert [s.added + s.updated for s in again.sheets] == [0, 0]

    # both descriptions are retranslated: the filled row stays as it is, the new version gets a new row;
    # the unfilled row is simply updated in place
    seed_translation(seeded, "titanic", "description", "kk", "Жаңа аударма", provenance="retranslated", round=2)
    seed_translation(seeded, "spaceship-titanic", "description", "kk", "Басқа аударма", provenance="retranslated", round=2)
    third = push(seeded, review_settings, "kk", backend, annotator="aigerim")
    [sheet] = third.sheets
    assert (sheet.added, sheet.updated, sheet.kept_filled) == (1, 1, 1)

    rows = {row[0]: row for row in openpyxl.load_workbook(path)["description"].iter_rows(min_row=2, values_only=True) if row[0]}
    assert rows["titanic/description/kk"][1] == "`Survived` бағанын пайдаланып, кеме апатынан қай жолаушылар аман қалғанын болжаңыз, train.csv."
    assert rows["titanic/description/kk"][4:7] == ("NO and YES", "Менің нұсқам", "стиль")
    assert rows["titanic/description/kk #2"][1] == "Жаңа аударма"
    assert rows["spaceship-titanic/description/kk"][1] == "Басқа аударма"
    assert len(rows) == 3


def test_rubric_sheet_for_the_english_descriptions(seeded, review_settings):
    report = push(seeded, review_settings, "en", backend_for(review_settings))
    assert [sheet.annotator for sheet in report.sheets] == ["annotator-1", "annotator-2"]
    book = openpyxl.load_workbook(report.sheets[0].ref)
    assert book.sheetnames == ["Instructions", "rubric"]
    sheet = book["rubric"]
    assert [cell.value for cell in sheet[1]][:3] == ["Competition", "English description",
                                                     "Score: 0 unusable, 1 needs revision, 2 good"]
    assert [row[0] for row in sheet.iter_rows(min_row=2, values_only=True) if row[0]] == ["spaceship-titanic", "titanic"]
    [validation] = sheet.data_validations.dataValidation
    assert validation.formula1 == '"0 - unusable,1 - needs revision,2 - good"'


def test_push_without_annotators_uses_default_names_and_says_where_to_name_them(seeded, settings):
    report = push(seeded, settings, "kk", backend_for(settings))

    assert [sheet.annotator for sheet in report.sheets] == ["annotator-1", "annotator-2"]
    assert any("[review.annotators]" in note for note in report.notes)
    first, second = report.sheets
    assert first.added > second.added > 0  # everyone's items to the first, a share to the second


def test_deleted_rows_and_a_deleted_workbook_are_restored(seeded, review_settings):
    from curation.review.pull import pull

    backend = backend_for(review_settings)
    path = _workbook(push(seeded, review_settings, "kk", backend, annotator="aigerim"), "aigerim")
    book = openpyxl.load_workbook(path)
    book["domain"].delete_rows(2)  # spaceship-titanic/domain/kk
    book.save(path)
    assert "was deleted" in pull(seeded, review_settings, "kk", backend).problems[0]

    [sheet] = push(seeded, review_settings, "kk", backend, annotator="aigerim").sheets
    assert (sheet.restored, sheet.added, sheet.unchanged) == (1, 0, 5)
    assert "1 deleted rows restored" in sheet.line()
    rows = [row[0] for row in openpyxl.load_workbook(path)["domain"].iter_rows(min_row=2, values_only=True) if row[0]]
    assert rows == ["titanic/domain/kk", "spaceship-titanic/domain/kk"]
    assert pull(seeded, review_settings, "kk", backend).problems == []

    path.unlink()
    [sheet] = push(seeded, review_settings, "kk", backend, annotator="aigerim").sheets
    assert sheet.restored == 6
    rows = [row[0] for row in openpyxl.load_workbook(path)["description"].iter_rows(min_row=2, values_only=True)]
    assert rows[:2] == ["spaceship-titanic/description/kk", "titanic/description/kk"]
