"""`curate review pull`: a workbook filled as annotators fill it, every kind of bad entry, and what gets stored."""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl
import pytest

from curation.review.annotations import import_annotations
from curation.review.backends import backend_for
from curation.review.pull import pull
from curation.review.push import push
from curation.store import Store

from tests.review.seeding import KK, fill, seed_competition, seed_translation

GOOD_FIX = "Жолаушылардың қайсысы апаттан аман қалғанын `Survived` бағаны бойынша train.csv деректерінен болжаңыз."


@pytest.fixture
def pushed(seeded, review_settings) -> Path:
    seed_competition(seeded, "digit-recognizer")
    for field, text in KK.items():
        seed_translation(seeded, "digit-recognizer", field, "kk", text)
    report = push(seeded, review_settings, "kk", backend_for(review_settings), annotator="aigerim")
    return Path(report.sheets[0].ref)


def _lines(report, fragment: str) -> list[str]:
    return [line for line in report.problems + report.notes if fragment in line]


def test_pull_stores_valid_answers_and_names_every_bad_row(seeded, review_settings, pushed):
    fill(pushed, "description", "titanic/description/kk", verdict=" Yes and yes ")
    fill(pushed, "description", "spaceship-titanic/description/kk", verdict="maybe")
    fill(pushed, "description", "digit-recognizer/description/kk", verdict="NO and YES",
         own_version="Жолаушылардың қайсысы апаттан аман қалғанын болжаңыз.")  # dropped `Survived` and train.csv
    fill(pushed, "data_card", "titanic/data_card/kk", verdict="no & yes", comment="тым сөзбе-сөз")
    fill(pushed, "data_card", "spaceship-titanic/data_card/kk", verdict="NO and NO",
         own_version="The file train.csv holds one row per passenger with the columns PassengerId, Pclass and Survived.")
    fill(pushed, "domain", "spaceship-titanic/domain/kk", translation="өзгертілген аударма", verdict="YES and YES")
    fill(pushed, "domain", "titanic/domain/kk", verdict="NO and YES", own_version="деректер туралы ғылым")
    fill(pushed, "description", "digit-recognizer/description/kk", verdict="NO and YES",
         own_version="Жолаушылардың қайсысы апаттан аман қалғанын болжаңыз.")
    book = openpyxl.load_workbook(pushed)
    cards = book["data_card"]
    duplicate = next(row for row in range(2, cards.max_row + 1) if cards.cell(row, 1).value == "digit-recognizer/data_card/kk")
    cards.cell(10, 1).value = "digit-recognizer/data_card/kk"
    cards.cell(10, 5).value = "YES and YES"
    cards.cell(11, 1).value = "titanic/description/xx"
    cards.cell(11, 5).value = "YES and YES"
    domains = book["domain"]
    domains.delete_rows(next(row for row in range(2, domains.max_row + 1)
                             if domains.cell(row, 1).value == "digit-recognizer/domain/kk"))
    book.save(pushed)

    report = pull(seeded, review_settings, "kk", backend_for(review_settings))

    name = "kk-aigerim.xlsx"
    assert _lines(report, f"{name} tab 'description' row") and all(name in line for line in report.problems)
    [unknown] = _lines(report, "'maybe'")
    assert "tab 'description'" in unknown and "spaceship-titanic/description/kk" in unknown and "pick one of" in unknown
    [broken] = _lines(report, "digit-recognizer/description/kk")
    assert "placeholders" in broken and "Survived" in broken
    [no_fix] = _lines(report, "(titanic/data_card/kk)")
    assert "'NO and YES' without your version" in no_fix and "tab 'data_card'" in no_fix
    [english] = _lines(report, "spaceship-titanic/data_card/kk")
    assert "did not pass the checks" in english and ("language" in english or "script" in english)
    [locked] = _lines(report, "spaceship-titanic/domain/kk")
    assert "locked column 'Translation' was edited" in locked
    [duplicated] = _lines(report, "appears again")
    assert "row 10 (digit-recognizer/data_card/kk)" in duplicated and f"first at row {duplicate}" in duplicated
    [stranger] = _lines(report, "unknown item id")
    assert "row 11" in stranger and "titanic/description/xx" in stranger
    [deleted] = _lines(report, "was deleted")
    assert "digit-recognizer/domain/kk" in deleted and "tab 'domain'" in deleted
    assert len(report.problems) == 7 and report.notes == [no_fix]  # the NO without a version is taken: a note

    stored = {(v.item_id, v.verdict, v.own_version) for v in seeded.verdicts("kk")}
    assert stored == {
        ("titanic/description/kk", "YES and YES", ""),
        ("titanic/data_card/kk", "NO and YES", ""),  # goes back to translation with its comment
        ("titanic/domain/kk", "NO and YES", "деректер туралы ғылым"),
    }
    [path] = report.files
    assert path.parent == review_settings.path("annotations") / "kk" and path.name.endswith("-aigerim.csv")
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert {row["item_id"] for row in rows} == {item for item, _, _ in stored}
    assert next(row for row in rows if row["item_id"] == "titanic/data_card/kk")["comment"] == "тым сөзбе-сөз"

    again = pull(seeded, review_settings, "kk", backend_for(review_settings))
    assert (again.verdicts, again.repeated, again.files) == (0, 3, [])
    assert again.notes == []  # the NO without a version was noted when it was taken, not on every pull since
    assert len(seeded.verdicts("kk", latest=False)) == 3


def test_a_corrected_row_is_taken_on_the_next_pull(seeded, review_settings, pushed):
    fill(pushed, "description", "titanic/description/kk", verdict="NO and YES", own_version="Predict who survived.")
    assert pull(seeded, review_settings, "kk", backend_for(review_settings)).verdicts == 0
    fill(pushed, "description", "titanic/description/kk", own_version=GOOD_FIX)
    report = pull(seeded, review_settings, "kk", backend_for(review_settings))
    assert report.verdicts == 1 and report.problems == []
    [verdict] = seeded.verdicts("kk")
    assert verdict.own_version == GOOD_FIX and verdict.source.endswith("tab 'description' row 4")


def test_pull_a_returned_file_from_anywhere(seeded, review_settings, pushed, tmp_path):
    returned = tmp_path / "inbox" / "kk-aigerim (returned).xlsx"
    returned.parent.mkdir()
    returned.write_bytes(pushed.read_bytes())
    fill(returned, "domain", "titanic/domain/kk", verdict="YES and YES")
    assert seeded.status("titanic", "review:kk").detail == "waiting for a verdict on description, data_card, domain"
    report = pull(seeded, review_settings, "kk", backend_for(review_settings), file=returned)
    assert report.verdicts == 1 and report.problems == []
    assert seeded.verdicts("kk")[0].annotator == "aigerim"
    status = seeded.status("titanic", "review:kk")
    assert (status.status, status.detail) == ("pending", "waiting for a verdict on description, data_card")


def test_import_rebuilds_the_store_from_annotations(seeded, review_settings, pushed):
    fill(pushed, "description", "titanic/description/kk", verdict="NO and YES", own_version=GOOD_FIX, comment="жақсырақ")
    fill(pushed, "domain", "titanic/domain/kk", verdict="YES and YES")
    pull(seeded, review_settings, "kk", backend_for(review_settings))
    fill(pushed, "domain", "titanic/domain/kk", verdict="NO and NO", own_version="деректер туралы ғылым")
    pull(seeded, review_settings, "kk", backend_for(review_settings))  # a changed mind: a second file

    with Store(review_settings.root / "rebuilt.sqlite") as fresh:
        report = import_annotations(fresh, review_settings.path("annotations"))
        assert (report.files, report.verdicts, report.problems) == (2, 3, [])
        assert [v.model_dump() for v in fresh.verdicts("kk")] == [v.model_dump() for v in seeded.verdicts("kk")]
        assert import_annotations(fresh, review_settings.path("annotations")).verdicts == 0


def test_a_missing_tab_and_a_file_that_is_not_a_workbook(seeded, review_settings, pushed, tmp_path):
    fill(pushed, "description", "titanic/description/kk", verdict="YES and YES")
    book = openpyxl.load_workbook(pushed)
    del book["domain"]
    book.save(pushed)
    report = pull(seeded, review_settings, "kk", backend_for(review_settings))
    assert report.verdicts == 1
    assert report.problems == ["kk-aigerim.xlsx: tab 'domain' is missing; its rows cannot be read; restore the tab "
                               "(or push again to recreate it; answers pulled before are kept)"]

    junk = tmp_path / "answers.xlsx"
    junk.write_text("not a workbook", encoding="utf-8")
    report = pull(seeded, review_settings, "kk", backend_for(review_settings), file=junk)
    assert report.problems == [f"{junk}: cannot be opened as an .xlsx workbook; save it as an Excel workbook (.xlsx) "
                               "and pull again"]


def test_an_own_version_that_only_the_soft_checks_flag_is_taken_with_a_warning(seeded, review_settings, pushed):
    # Cut to its first word: length flags it, and a person's version is still taken; the curator is told why.
    fill(pushed, "domain", "digit-recognizer/domain/kk", verdict="NO and YES", own_version="деректер")
    report = pull(seeded, review_settings, "kk", backend_for(review_settings))
    [note] = _lines(report, "digit-recognizer/domain/kk")
    assert note in report.notes
    assert ("your version is taken; the checks that only warn flag it (length): shorter than the English: a word of "
            "it seems to be missing") in note
    [taken] = [v for v in seeded.verdicts("kk") if v.item_id == "digit-recognizer/domain/kk"]
    assert (taken.verdict, taken.own_version) == ("NO and YES", "деректер")


FLAGGED = ("`Survived` бағанын пайдаланып, кеме апатынан қай жолаушылар аман қалғанын болжаңыз, train.csv. "
           "Бұл жарыс жаңадан бастаушыларға арналған және өте танымал.")


def test_a_one_word_fix_of_a_flagged_text_pulls_as_a_fix(seeded, review_settings):
    # The machine text added a sentence (adequacy and length flag it); the annotator changes one word of it and keeps
    # the rest. Before, pull refused the version for adequacy while YES on the same text was taken.
    seed_competition(seeded, "house-prices")
    seed_translation(seeded, "house-prices", "description", "kk", FLAGGED, failed=("length", "adequacy"))
    book = Path(push(seeded, review_settings, "kk", backend_for(review_settings), annotator="aigerim").sheets[0].ref)
    fixed = FLAGGED.replace("аман қалғанын", "тірі қалғанын")
    fill(book, "description", "house-prices/description/kk", verdict="NO and YES", own_version=fixed)
    report = pull(seeded, review_settings, "kk", backend_for(review_settings))
    assert not [line for line in report.problems if "house-prices" in line]
    [taken] = [v for v in seeded.verdicts("kk") if v.item_id == "house-prices/description/kk"]
    assert taken.own_version == fixed
    [note] = [line for line in report.notes if "house-prices/description/kk" in line]
    assert "(length, adequacy)" in note and "your version is taken" in note


def test_a_hard_rule_still_refuses_an_own_version(seeded, review_settings, pushed):
    # An identifier changed: only the hard rules (identifiers, numbers, language, script, no English) may refuse.
    fill(pushed, "description", "digit-recognizer/description/kk", verdict="NO and YES",
         own_version=GOOD_FIX.replace("`Survived`", "`survived`"))
    report = pull(seeded, review_settings, "kk", backend_for(review_settings))
    [refused] = [line for line in report.problems if "digit-recognizer/description/kk" in line]
    assert "your version did not pass the checks (placeholders)" in refused and "pull again" in refused
    assert not [v for v in seeded.verdicts("kk") if v.item_id == "digit-recognizer/description/kk"]
