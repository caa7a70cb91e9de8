"""`curate status`'s review section counts each text once: open, judged (merge not run yet) or merged."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from curation.cli import app
from curation.store import Store
from tests.review.seeding import KK, answer_unanswered, fill, seed_translation


def curate(*args: str):
    return CliRunner().invoke(app, list(args))


def review_row(language: str) -> dict:
    """The review section's row of a language as {column: value}, from `curate status --json`."""
    report = json.loads(curate("status", "--lang", language, "--json").stdout)
    [section] = [s for s in report["sections"] if s["title"].startswith("Review")]
    [row] = [row for row in section["rows"] if row[0] == language]
    return dict(zip(section["columns"][1:], row[1:]))


def review_round(project) -> None:
    """Push kk, every annotator answers YES and YES to what is open, pull."""
    assert curate("review", "push", "--lang", "kk").exit_code == 0
    for workbook in sorted((project / "review" / "kk").glob("*.xlsx")):
        answer_unanswered(workbook)
    assert curate("review", "pull", "--lang", "kk").exit_code == 0


def counts(row: dict) -> tuple[int, int, int]:
    return row["open"], row["judged"], row["merged"]


def test_a_text_translated_again_after_merge_is_open_and_not_merged_as_well(project, settings, seeded):
    review_round(project)
    assert counts(review_row("kk")) == (0, 6, 0)  # judged, merge not run yet
    assert "kk: 6 keep" in curate("merge", "--lang", "kk").output
    assert counts(review_row("kk")) == (0, 0, 6)

    # translate writes a new wording of every text (a retranslation, or --redo-reviewed): the old final texts
    # stay in the store until the next merge withdraws them, yet each text is open, and only open
    with Store(settings.path("store")) as store:
        for slug in ("titanic", "spaceship-titanic"):
            for field, text in KK.items():
                seed_translation(store, slug, field, "kk", text + " Жаңа нұсқа.")
        assert len(store.final_texts("kk")) == 6
    row = review_row("kk")
    assert counts(row) == (6, 0, 0) and row["pushed"] == 6
    status = curate("status", "--lang", "kk", "--detail")
    assert "each text counts once" in " ".join(status.stdout.split())

    review_round(project)
    assert counts(review_row("kk")) == (0, 6, 0)
    assert "kk: 6 keep" in curate("merge", "--lang", "kk").output
    assert counts(review_row("kk")) == (0, 0, 6)


def test_a_text_an_annotator_fixed_is_merged_once_merge_takes_the_fix(project, seeded):
    assert curate("review", "push", "--lang", "kk").exit_code == 0
    workbook = project / "review" / "kk" / "kk-annotator-1.xlsx"
    fix = KK["description"].replace("болжаңыз", "анықтаңыз")
    fill(workbook, "description", "titanic/description/kk", verdict="NO and YES", own_version=fix)
    for book in sorted((project / "review" / "kk").glob("*.xlsx")):
        answer_unanswered(book)
    pulled = curate("review", "pull", "--lang", "kk")
    assert pulled.exit_code == 0, pulled.output
    assert counts(review_row("kk")) == (0, 6, 0)
    assert "kk: 5 keep, 1 fix" in curate("merge", "--lang", "kk").output
    assert counts(review_row("kk")) == (0, 0, 6)


def test_merge_says_a_text_with_no_translation_has_none_rather_than_waiting_for_its_review(project, store):
    """Issue 24, item 9: `--comp` said "merge:kk waiting for review of data_card" for a data card translate failed
    on: there was nothing to review."""
    from tests.review.seeding import seed_competition

    seed_competition(store, "titanic")
    for field in ("description", "domain"):
        seed_translation(store, "titanic", field, "kk", KK[field])
    store.set_status("titanic", "translate:kk", "failed", "titanic/data_card/kk: no translation after 3 attempts: "
                                                          "the last answer was not one (it is a refusal)")
    review_round(project)
    assert "kk: 2 keep" in curate("merge", "--lang", "kk").output

    shown = CliRunner().invoke(app, ["status", "--comp", "titanic"], env={"COLUMNS": "120"}).stdout
    merge = next(line for line in shown.splitlines() if line.startswith("merge:kk"))
    assert "waiting for review of data_card" not in merge
    assert "data_card: no translation (translate failed; why: `curate status --why --lang kk`)" in merge
