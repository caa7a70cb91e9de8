"""The English rubric sheet's outline column (issue 26): the outline beside the description, scored 0/1/2 like it,
pulled into the store and annotations/, and an outline that arrives after the description was scored goes into the
same row without touching what the annotator entered."""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl

from curation.records import Outline
from curation.release.outlines import outline_hash
from curation.review.annotations import import_annotations
from curation.review.backends import backend_for
from curation.review.layout import RUBRIC_COLUMNS
from curation.review.pull import pull
from curation.review.push import push
from curation.store import Store
from tests.review.seeding import fill

OUTLINE = Outline(competition="titanic", data_preparation=["Fill missing ages with the median of their class."],
                  features=["Take the title from each passenger's name."], model=["Train gradient-boosted trees."],
                  training_and_validation=["Check the model with five-fold cross-validation."],
                  inference_and_submission=["Predict survival for every test passenger, judged by accuracy."])


def rubric_rows(path: Path) -> dict[str, dict[str, object]]:
    sheet = openpyxl.load_workbook(path)["rubric"]
    keys = [column.key for column in RUBRIC_COLUMNS]
    return {row[0]: dict(zip(keys, row)) for row in sheet.iter_rows(min_row=2, values_only=True) if row[0]}


def test_the_outline_is_scored_in_the_rubric_row_and_pulled(seeded: Store, review_settings, tmp_path: Path):
    seeded.save_outline(OUTLINE)
    [sheet] = push(seeded, review_settings, "en", backend_for(review_settings), annotator="ana").sheets
    path = Path(sheet.ref)
    rows = rubric_rows(path)
    assert rows["titanic"]["outline"] == OUTLINE.text()
    assert rows["spaceship-titanic"]["outline"] is None  # no outline: nothing to score there
    book = openpyxl.load_workbook(path)
    ranges = {str(validation.sqref) for validation in book["rubric"].data_validations.dataValidation}
    assert any("C2:" in found and "H2:" in found for found in ranges)  # a dropdown under both scores

    fill(path, "rubric", "titanic", score="2 - good", outline_score="1 - needs revision",
         outline_comment="the features part misses the family size")
    fill(path, "rubric", "spaceship-titanic", outline_score="2")
    report = pull(seeded, review_settings, "en", backend_for(review_settings))

    assert [(s.competition, s.score) for s in seeded.rubric_scores()] == [("titanic", 2)]
    [scored] = seeded.outline_scores()
    assert (scored.competition, scored.annotator, scored.score, scored.comment) == (
        "titanic", "ana", 1, "the features part misses the family size")
    assert scored.outline_hash == outline_hash(OUTLINE)
    [problem] = report.problems
    assert problem == ("rubric-ana.xlsx tab 'rubric' row 2 (spaceship-titanic): an outline score, but this row was "
                       "pushed without an outline; clear it, or push again for the row with the outline")
    written = [file for file in report.files if file.name.endswith("-outline.csv")]
    assert len(written) == 1
    with written[0].open(encoding="utf-8") as handle:
        assert [row["score"] for row in csv.DictReader(handle)] == ["1"]

    # the annotations files rebuild the outline scores in a new store, as they do verdicts and rubric scores
    with Store(tmp_path / "rebuilt.sqlite") as rebuilt:
        imported = import_annotations(rebuilt, review_settings.path("annotations"))
        assert imported.problems == [] and [s.score for s in rebuilt.outline_scores()] == [1]


def test_an_outline_written_after_the_description_was_scored_joins_its_row(seeded: Store, review_settings):
    [sheet] = push(seeded, review_settings, "en", backend_for(review_settings), annotator="ana").sheets
    path = Path(sheet.ref)
    fill(path, "rubric", "titanic", score="2 - good", comment="clear")
    assert pull(seeded, review_settings, "en", backend_for(review_settings)).problems == []
    seeded.save_outline(OUTLINE)

    [again] = push(seeded, review_settings, "en", backend_for(review_settings), annotator="ana").sheets

    assert (again.updated, again.added, again.unchanged) == (1, 0, 1)
    titanic = rubric_rows(path)["titanic"]
    assert (titanic["score"], titanic["comment"], titanic["outline"]) == ("2 - good", "clear", OUTLINE.text())
    fill(path, "rubric", "titanic", outline_score="2 - good")
    assert pull(seeded, review_settings, "en", backend_for(review_settings)).problems == []
    assert [(s.competition, s.score) for s in seeded.outline_scores()] == [("titanic", 2)]
    assert [(s.competition, s.score) for s in seeded.rubric_scores()] == [("titanic", 2)]  # the description's stays
    # scored now: a later outline goes into a new row, the scored one stays as the annotator left it
    seeded.save_outline(OUTLINE.model_copy(update={"model": ["Train a random forest."]}))
    [third] = push(seeded, review_settings, "en", backend_for(review_settings), annotator="ana").sheets
    assert (third.added, third.kept_filled) == (1, 1)
