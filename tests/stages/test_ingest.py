"""The ingest stage on the sample: what the store holds, idempotent re-runs, and updates of only what changed."""

from __future__ import annotations

import shutil
from pathlib import Path

from curation.config import IngestSettings, MetaKaggleSettings, Settings
from curation.sources.folders import CompetitionFolders
from curation.sources.meta_kaggle import MetaKaggleDump
from curation.stages.ingest import IngestReport, run_ingest
from curation.store import Store
from tests.sources.test_meta_kaggle import SEGMENTS, dump  # noqa: F401  (the small Meta Kaggle dump fixture)

SAMPLE_SLUGS = [
    "digit-recognizer", "house-prices-advanced-regression-techniques", "nlp-getting-started",
    "predict-who-is-more-influential-in-a-social-network", "santander-customer-transaction-prediction",
    "spaceship-titanic", "titanic",
]


def ingest(settings: Settings, store: Store, root: Path | None = None) -> IngestReport:
    root = root or settings.path("competitions")
    reader = CompetitionFolders(root, settings.ingest)
    return run_ingest(reader, store, source=root, source_problems=reader.problems)


def snapshot(store: Store) -> dict:
    """Everything ingest writes, timestamps and row ids included, so 'changed nothing' can be checked."""
    return {table: [tuple(row) for row in store.db.execute(f"SELECT * FROM {table} ORDER BY 1, 2")]
            for table in ("competitions", "notebooks", "stage_status", "problems")}


def test_the_sample_lands_in_the_store(settings, store):
    report = ingest(settings, store)
    assert sorted(report.added) == SAMPLE_SLUGS
    assert report.failed == {} and report.updated == [] and report.unchanged == []
    assert [c.competition for c in store.competitions()] == SAMPLE_SLUGS
    assert store.notebook_counts() == {"digit-recognizer": 2, "house-prices-advanced-regression-techniques": 2,
                                       "nlp-getting-started": 2, "santander-customer-transaction-prediction": 2,
                                       "spaceship-titanic": 2, "titanic": 3}
    assert [nb.name for nb in store.notebooks("titanic")][0] == "titanic-random-forest-baseline.py"
    statuses = {s.competition: (s.status, s.detail) for s in store.statuses() if s.stage == "ingest"}
    assert statuses["nlp-getting-started"] == ("done", "2 notebooks; 1 problem to look at")
    assert statuses["predict-who-is-more-influential-in-a-social-network"] == ("done", "0 notebooks; description written by a person")
    assert [p.path for p in store.problems("ingest")] == [
        "data/sample/nlp-getting-started/notebooks/disaster-tweets-naive-bayes.ipynb",
        "data/sample/santander-customer-transaction-prediction/notebooks/santander-gaussian-naive-bayes.py"]


def test_rerunning_on_unchanged_input_changes_nothing(settings, store):
    ingest(settings, store)
    before = snapshot(store)
    report = ingest(settings, store)
    assert sorted(report.unchanged) == SAMPLE_SLUGS
    assert report.added == report.updated == []
    assert snapshot(store) == before


def test_changed_input_updates_just_what_changed(settings, store):
    ingest(settings, store)
    before = snapshot(store)
    root = settings.path("competitions")
    card = root / "titanic" / "data_card.md"
    card.write_text(card.read_text() + "\nTickets shared by a group hint at families travelling together.\n")
    notebook = root / "digit-recognizer" / "notebooks" / "digits-pca-knn.py"
    notebook.write_text(notebook.read_text().replace("n_neighbors=4", "n_neighbors=5"))
    report = ingest(settings, store)
    assert sorted(report.updated) == ["digit-recognizer", "titanic"]
    assert len(report.unchanged) == len(SAMPLE_SLUGS) - 2
    assert "families travelling together" in store.competition("titanic").data_card
    assert "n_neighbors=5" in store.notebooks("digit-recognizer")[1].text
    after = snapshot(store)
    untouched = lambda rows, index=0: [r for r in rows if r[index] not in ("titanic", "digit-recognizer")]  # noqa: E731
    assert untouched(after["competitions"]) == untouched(before["competitions"])
    assert untouched(after["notebooks"]) == untouched(before["notebooks"])
    assert after["problems"] == before["problems"]


def test_a_broken_edit_keeps_the_stored_record_and_says_why_it_failed(settings, store):
    ingest(settings, store)
    yaml = settings.path("competitions") / "spaceship-titanic" / "competition.yaml"
    yaml.write_text(yaml.read_text().replace("data_type: tabular", "data_type: tabluar"))
    report = ingest(settings, store)
    assert list(report.failed) == ["spaceship-titanic"]
    assert store.competition("spaceship-titanic").data_type == "tabular"
    assert store.notebook_counts()["spaceship-titanic"] == 2
    status = store.status("spaceship-titanic", "ingest")
    assert status.status == "failed"
    assert status.detail.startswith("data/sample/spaceship-titanic/competition.yaml: field 'data_type': unknown data type 'tabluar'")
    assert any(p.competition == "spaceship-titanic" for p in store.problems("ingest"))
    # Fixing the file brings it back to done; nothing else was touched.
    yaml.write_text(yaml.read_text().replace("data_type: tabluar", "data_type: tabular"))
    report = ingest(settings, store)
    assert "spaceship-titanic" in report.unchanged
    assert store.status("spaceship-titanic", "ingest").status == "done"
    assert not any(p.competition == "spaceship-titanic" for p in store.problems("ingest"))


def test_a_folder_that_left_the_source_is_reported_and_kept(settings, store):
    ingest(settings, store)
    shutil.rmtree(settings.path("competitions") / "spaceship-titanic")
    report = ingest(settings, store)
    assert report.gone == ["spaceship-titanic"]
    assert store.competition("spaceship-titanic") is not None
    assert store.status("spaceship-titanic", "ingest").status == "failed"


def test_a_competition_without_notebooks_or_description_needs_a_person(settings, store):
    root = settings.path("competitions")
    shutil.rmtree(root / "titanic" / "notebooks")
    (root / "titanic" / "notebooks.csv").unlink()
    report = ingest(settings, store)
    assert report.needs_human == {"titanic": "no usable notebooks: add some under notebooks/, or set private: true and write description.md"}
    assert store.status("titanic", "ingest").status == "needs_human"


def test_progress_is_reported_once_per_competition(settings, store):
    seen = []
    reader = CompetitionFolders(settings.path("competitions"), settings.ingest)
    run_ingest(reader, store, on_item=seen.append)
    assert sorted(seen) == SAMPLE_SLUGS


def ingest_dump(dump: Path, store: Store) -> IngestReport:
    reader = MetaKaggleDump(dump, IngestSettings(meta_kaggle=MetaKaggleSettings(host_segments=SEGMENTS)))
    return run_ingest(reader, store, source=dump, source_problems=reader.problems)


def test_a_meta_kaggle_dump_reingests_idempotently_and_updates_only_what_changed(dump, store):  # noqa: F811
    first = ingest_dump(dump, store)
    assert sorted(first.added) == ["digit-recognizer", "house-prices", "titanic"]
    assert any("taken as tabular" in p.message for p in store.problems("ingest"))
    before = snapshot(store)
    assert sorted(ingest_dump(dump, store).unchanged) == ["digit-recognizer", "house-prices", "titanic"]
    assert snapshot(store) == before
    # One more vote for a titanic notebook changes that competition only.
    kernels = (dump / "Kernels.csv").read_text().replace("titanic-bronze,3,,,,5", "titanic-bronze,3,,,,6")
    (dump / "Kernels.csv").write_text(kernels)
    report = ingest_dump(dump, store)
    assert report.updated == ["titanic"]
    assert sorted(report.unchanged) == ["digit-recognizer", "house-prices"]
    assert [nb.votes for nb in store.notebooks("titanic")] == [50, 40, 6]


def test_ingesting_one_source_keeps_the_problems_of_another(settings, store, dump, tmp_path):  # noqa: F811
    folders = tmp_path / "hand-made"
    for slug in ("nlp-getting-started", "santander-customer-transaction-prediction"):
        shutil.copytree(settings.path("competitions") / slug, folders / slug)
    ingest(settings, store, folders)
    from_folders = {p.competition for p in store.problems("ingest")}
    assert from_folders == {"nlp-getting-started", "santander-customer-transaction-prediction"}

    ingest_dump(dump, store)

    after_dump = {p.competition for p in store.problems("ingest")}
    assert from_folders < after_dump and "house-prices" in after_dump  # its code file is missing

    nlp = folders / "nlp-getting-started"
    (nlp / "notebooks" / "disaster-tweets-naive-bayes.ipynb").unlink()
    listed = (nlp / "notebooks.csv").read_text().splitlines(True)
    (nlp / "notebooks.csv").write_text("".join(line for line in listed if "disaster-tweets-naive-bayes" not in line))
    ingest(settings, store, folders)

    # the fixed notebook's line is gone; the other folder's and the dump's stay until they are fixed
    after_fix = {p.competition for p in store.problems("ingest")}
    assert "nlp-getting-started" not in after_fix
    assert {"santander-customer-transaction-prediction", "house-prices"} <= after_fix
