"""The sheet as an annotator meets it: "Your version" prefilled (a fix is an edit), sheets pushed before the prefill,
a damaged identifier named at pull, and the rubric sheet with its data card and competition link."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from curation.review.backends import backend_for
from curation.review.layout import RUBRIC_COLUMNS, instructions
from curation.review.pull import pull
from curation.review.push import push

from tests.review.seeding import KK, fill, locked, seed_translation

ONE_WORD = KK["description"].replace("болжаңыз", "анықтаңыз")


@pytest.fixture
def pushed(seeded, review_settings) -> Path:
    return Path(push(seeded, review_settings, "kk", backend_for(review_settings), annotator="aigerim").sheets[0].ref)


def _taken(store) -> set[tuple[str, str, str, str]]:
    return {(v.item_id, v.verdict, v.own_version, v.comment) for v in store.verdicts("kk")}


def test_a_fix_is_any_edit_of_the_prefilled_version(seeded, review_settings, pushed):
    fill(pushed, "description", "titanic/description/kk", verdict="NO and YES", own_version=ONE_WORD)
    fill(pushed, "description", "spaceship-titanic/description/kk", verdict="NO and NO", comment="мағынасы басқа")
    fill(pushed, "data_card", "titanic/data_card/kk", verdict="YES and NO", own_version="")  # emptied: no fix
    fill(pushed, "domain", "titanic/domain/kk", verdict="YES and YES")

    report = pull(seeded, review_settings, "kk", backend_for(review_settings))

    assert report.problems == []
    assert _taken(seeded) == {
        ("titanic/description/kk", "NO and YES", ONE_WORD, ""),
        ("spaceship-titanic/description/kk", "NO and NO", "", "мағынасы басқа"),
        ("titanic/data_card/kk", "YES and NO", "", ""),
        ("titanic/domain/kk", "YES and YES", "", ""),
    }
    # the two NOs without a fix are noted (they go back to translation); the untouched YES is not
    assert sorted(line.split("(")[1].split(")")[0] for line in report.notes) == [
        "spaceship-titanic/description/kk", "titanic/data_card/kk"]
    # an untouched prefilled row is not an answer: pushing a retranslation updates it in place
    seed_translation(seeded, "spaceship-titanic", "domain", "kk", "жаңа аударма", provenance="retranslated", round=2)
    [again] = push(seeded, review_settings, "kk", backend_for(review_settings), annotator="aigerim").sheets
    assert (again.updated, again.added) == (1, 0)
    domain = {row[0]: row for row in openpyxl.load_workbook(pushed)["domain"].iter_rows(min_row=2, values_only=True)}
    assert domain["spaceship-titanic/domain/kk"][1] == domain["spaceship-titanic/domain/kk"][5] == "жаңа аударма"


def test_the_machine_text_is_the_one_pushed_in_the_row_not_a_later_retranslation(seeded, review_settings, pushed):
    # The translation is redone after the push; the annotator answers NO on the sheet she holds, cell untouched.
    seed_translation(seeded, "titanic", "description", "kk", "Мүлде басқа аударма.", provenance="retranslated", round=2)
    fill(pushed, "description", "titanic/description/kk", verdict="NO and YES", comment="сөздер")

    report = pull(seeded, review_settings, "kk", backend_for(review_settings))

    assert report.problems == []
    assert _taken(seeded) == {("titanic/description/kk", "NO and YES", "", "сөздер")}  # no "fix" back to the old text


def test_a_sheet_pushed_before_the_prefill_pulls_as_before(seeded, review_settings, pushed):
    # As push wrote sheets before: the old header and an empty "Your version" column.
    book = openpyxl.load_workbook(pushed)
    for tab in ("description", "data_card", "domain"):
        book[tab].cell(1, 6).value = "Your version (required when any answer is NO)"
        for row in range(2, book[tab].max_row + 1):
            book[tab].cell(row, 6).value = None
    book.save(pushed)
    fill(pushed, "description", "titanic/description/kk", verdict="NO and YES", own_version=ONE_WORD)
    fill(pushed, "data_card", "titanic/data_card/kk", verdict="NO and NO", comment="қате")
    fill(pushed, "domain", "titanic/domain/kk", verdict="YES and YES")
    fill(pushed, "domain", "spaceship-titanic/domain/kk", comment="тек пікір")  # a comment, no answer: as before

    report = pull(seeded, review_settings, "kk", backend_for(review_settings))

    assert _taken(seeded) == {
        ("titanic/description/kk", "NO and YES", ONE_WORD, ""),
        ("titanic/data_card/kk", "NO and NO", "", "қате"),
        ("titanic/domain/kk", "YES and YES", "", ""),
    }
    [unanswered] = report.problems
    assert "(spaceship-titanic/domain/kk): no answer chosen" in unanswered


def test_a_changed_identifier_is_refused_in_one_line_naming_it_and_its_count(seeded, review_settings, pushed):
    fill(pushed, "description", "titanic/description/kk", verdict="NO and YES",
         own_version=KK["description"].replace("`Survived`", "`Survived` (`Survived`)"))

    report = pull(seeded, review_settings, "kk", backend_for(review_settings))

    [line] = report.problems
    assert line == ("kk-aigerim.xlsx tab 'description' row 3 (titanic/description/kk): your version did not pass the "
                    "checks (placeholders): the identifier `Survived` must stay exactly as written and appear once, as "
                    "in the English; your version has it twice; correct 'Your version' and pull again")
    assert seeded.verdicts("kk") == []


def test_the_rubric_sheet_shows_the_data_card_and_link_and_its_instructions_name_its_columns(seeded, review_settings):
    report = push(seeded, review_settings, "en", backend_for(review_settings))
    book = openpyxl.load_workbook(report.sheets[0].ref)
    sheet = book["rubric"]
    header = [cell.value for cell in sheet[1]]
    assert header == [column.header for column in RUBRIC_COLUMNS]
    row = next(row for row in sheet.iter_rows(min_row=2, values_only=True) if row[0] == "titanic")
    assert row[header.index("Data card")].startswith("train.csv holds one row per passenger")
    assert row[header.index("Competition link")] == "https://www.kaggle.com/competitions/titanic"
    assert [locked(sheet, 2, col) for col in range(1, 7)] == [True, True, False, False, True, True]
    text = " ".join(value for row in book["Instructions"].iter_rows(values_only=True) for value in row if value)
    quoted = {part.split("'")[0] for part in text.split(" '")[1:]}
    named = {name for name in quoted if name and name != "rubric"}
    assert named <= set(header), named - set(header)  # every column the instructions name exists
    assert "Item id" not in text and "Translation" not in text


def test_a_rubric_sheet_pushed_before_the_new_columns_gets_them_and_pulls(seeded, review_settings):
    from curation.records import Description

    path = Path(push(seeded, review_settings, "en", backend_for(review_settings), annotator="ana").sheets[0].ref)
    book = openpyxl.load_workbook(path)
    book["rubric"].delete_cols(5, 5)  # as push wrote it before the data card, link and outline columns: four
    book.save(path)
    fill(path, "rubric", "titanic", score="2 - good")
    seeded.save_description(Description(competition="spaceship-titanic", text="Predict who was transported.",
                                        provenance="machine", grade="C"))

    again = push(seeded, review_settings, "en", backend_for(review_settings), annotator="ana")
    report = pull(seeded, review_settings, "en", backend_for(review_settings))

    assert again.sheets[0].updated == 1 and report.problems == []
    assert [(s.competition, s.score) for s in seeded.rubric_scores()] == [("titanic", 2)]
    sheet = openpyxl.load_workbook(path)["rubric"]
    assert [cell.value for cell in sheet[1]] == [column.header for column in RUBRIC_COLUMNS]


def test_instructions_say_how_to_send_the_sheet_back_for_each_backend():
    xlsx = dict(instructions("Kazakh", "aigerim", "kk", rubric=False, backend="xlsx"))
    sheets = dict(instructions("Kazakh", "aigerim", "kk", rubric=True, backend="sheets"))
    assert "same file name, tabs and columns" in xlsx["Sending it back"]
    assert sheets["Sending it back"].startswith("Nothing to send")
