"""The release's small parts on their own: versions, harness CSV escaping, the manifest diff, gates for requests."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from curation.release.gates import find_offenders
from curation.release.harness import HARNESS_COLUMNS, write_tasks_csv
from curation.release.inputs import ReleaseInputs
from curation.release.manifest import diff_releases
from curation.release.rows import COLUMNS
from curation.release.version import BadVersion, parse_version, versions_from_tags
from tests.release.seeding import seed_store


def test_versions_are_semantic_and_ordered():
    assert str(parse_version("v1.2.3")) == "1.2.3" and parse_version("1.2.3").tag == "v1.2.3"
    assert versions_from_tags(["v1.10.0", "v1.9.0", "nightly", "v2.0.0"])[-2:] == [parse_version("1.10.0"),
                                                                                  parse_version("2.0.0")]
    for bad in ("1.0", "1.0.0-rc1", "01.0.0", "latest"):
        with pytest.raises(BadVersion, match="MAJOR.MINOR.PATCH"):
            parse_version(bad)


NASTY_CELLS = [
    'a "quoted", comma-separated\nmulti-line\r\ntext', "  leading and trailing spaces  ", ",,,", '"', "\t tab",
    "=SUM(A1:A2)", "العربية \u200f RTL mark", "中文，全角逗号", "emoji 🚀 and ß", "line\\nescape",
]


def test_harness_csv_survives_pandas_default_read_csv(tmp_path: Path):
    rows = []
    for number, text in enumerate(NASTY_CELLS):
        row = {column: None for column in COLUMNS}
        row.update(competition=f"comp-{number}", comp_name=text, description=text, data_card=text, domain=text,
                   metric="ROC AUC", private=number % 2 == 0, rubric_score=2, description_verdict=None)
        rows.append(row)
    path = tmp_path / "tasks" / "Arab.csv"
    write_tasks_csv(rows, path)
    frame = pd.read_csv(path)
    assert tuple(frame.columns[: len(HARNESS_COLUMNS)]) == HARNESS_COLUMNS
    assert list(frame["description"]) == NASTY_CELLS
    assert list(frame["data_card"]) == NASTY_CELLS
    assert list(frame["comp-id"]) == [f"comp-{n}" for n in range(len(NASTY_CELLS))]
    assert list(frame["private"]) == [n % 2 == 0 for n in range(len(NASTY_CELLS))]
    assert frame["description_verdict"].isna().all()


def test_diff_names_added_removed_and_changed_texts():
    hashes = {"description": "1", "data_card": "2", "domain": "3"}
    before = {"version": "1.0.0", "content": {"be": {"a": hashes, "b": hashes}, "tr": {"a": hashes}}}
    now = {"be": {"a": {**hashes, "domain": "9"}, "c": hashes}, "kk": {"a": hashes}}
    changes = diff_releases(before, now)
    assert changes["previous_version"] == "1.0.0"
    assert changes["competitions_added"] == ["c"] and changes["competitions_removed"] == ["b"]
    assert changes["languages_added"] == ["kk"] and changes["languages_removed"] == ["tr"]
    assert changes["languages"] == {"be": {"rows_added": ["c"], "rows_removed": ["b"], "texts_changed": ["a/domain"]}}
    assert diff_releases(None, now)["competitions_added"] == ["a", "c"]
    unknown = diff_releases(None, now, previous_version="1.0.0")
    assert unknown["unknown"] is True and unknown["competitions_added"] == []


def test_open_redescribe_requests_and_unscored_descriptions_hold_a_competition_back(settings, store):
    seed_store(store, settings.project.languages, ["titanic", "spaceship"], unscored=("spaceship",))
    store.add_request("redescribe", "titanic", "the target is wrong")
    lines = [offender.line() for offender in find_offenders(ReleaseInputs.from_store(store, settings), settings)]
    assert lines == [
        "spaceship/description: the English description has no rubric score yet; have it scored in the rubric sheet "
        "and run `curate merge`",
        "titanic/description: reviewers asked for a new description that is still open; run `curate describe`, "
        "then translate, review and merge",
    ]


def test_status_shows_release_readiness_per_language(settings, store):
    from curation.status import build_status

    seed_store(store, settings.project.languages, ["titanic", "spaceship"])
    store.add_request("retranslate", "titanic", "wrong term", field="domain", language="kk")
    report = build_status(store, settings, settings.project.languages)
    section = next(s for s in report.sections if s.title == "Release readiness")
    assert ["kk", 1, 1] in section.rows and ["be", 2, 0] in section.rows and ["en", 2, 0] in section.rows
    assert "1 problem block `curate publish`" in section.note and "no release yet" in section.note
