"""The Meta Kaggle reader on a small dump laid out like the real one (same file names, columns, code shards)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import duckdb
import pytest

from curation.config import IngestSettings, MetaKaggleSettings
from curation.records import IngestedCompetition
from curation.sources import SourceError
from curation.sources.meta_kaggle import MetaKaggleDump, code_path, is_meta_kaggle

COMPETITION_COLUMNS = ["Id", "Slug", "Title", "Subtitle", "HostSegmentTitle", "ForumId", "OrganizationId", "EnabledDate",
                       "DeadlineDate", "EvaluationAlgorithmAbbreviation", "EvaluationAlgorithmName",
                       "EvaluationAlgorithmDescription", "EvaluationAlgorithmIsMax", "TotalTeams", "TotalCompetitors"]
KERNEL_COLUMNS = ["Id", "AuthorUserId", "CurrentKernelVersionId", "ForkParentKernelVersionId", "ForumTopicId",
                  "FirstKernelVersionId", "CreationDate", "EvaluationDate", "MadePublicDate", "IsProjectLanguageTemplate",
                  "CurrentUrlSlug", "Medal", "MedalAwardDate", "TotalViews", "TotalComments", "TotalVotes"]
VERSION_COLUMNS = ["Id", "ScriptId", "ParentScriptVersionId", "ScriptLanguageId", "AuthorUserId", "CreationDate",
                   "VersionNumber", "Title", "EvaluationDate", "IsChange", "TotalLines", "TotalVotes"]
SOURCE_COLUMNS = ["Id", "KernelVersionId", "SourceCompetitionId"]
SUBMISSION_COLUMNS = ["Id", "SubmittedUserId", "TeamId", "SourceKernelVersionId", "SubmissionDate", "ScoreDate",
                      "IsAfterDeadline", "PublicScoreLeaderboardDisplay", "PublicScoreFullPrecision"]


def write_csv(path: Path, columns: list[str], rows: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({column: row.get(column, "") for column in columns})


def code_file(code_root: Path, version_id: int, source: str, suffix: str = ".py") -> None:
    folder = code_path(code_root, version_id)
    folder.mkdir(parents=True, exist_ok=True)
    if suffix == ".ipynb":
        source = json.dumps({"cells": [{"cell_type": "code", "source": source, "outputs": []}], "nbformat": 4})
    (folder / f"{version_id}{suffix}").write_text(source, encoding="utf-8")


@pytest.fixture
def dump(tmp_path: Path) -> Path:
    """Three competitions that pass the default filters, and three that do not (classroom, few teams, segment)."""
    root = tmp_path / "meta-kaggle"
    root.mkdir()
    competitions = [
        dict(Id=1, Slug="titanic", Title="Titanic - Machine Learning from Disaster", HostSegmentTitle="Getting Started",
             EnabledDate="09/28/2012 21:13:33", EvaluationAlgorithmAbbreviation="CategorizationAccuracy",
             EvaluationAlgorithmName="Categorization Accuracy", EvaluationAlgorithmIsMax="True", TotalTeams=15000),
        dict(Id=2, Slug="house-prices", Title="House Prices, \"Advanced\"", HostSegmentTitle="Featured",
             EnabledDate="08/30/2016 00:00:00", EvaluationAlgorithmAbbreviation="RMSE",
             EvaluationAlgorithmName="Root Mean Squared Error", EvaluationAlgorithmIsMax="False", TotalTeams=4000,
             EvaluationAlgorithmDescription="Line one\nline two, with a comma"),
        dict(Id=3, Slug="Digit-Recognizer", Title="Digit Recognizer", HostSegmentTitle="Research",
             EnabledDate="07/25/2012 00:00:00", EvaluationAlgorithmAbbreviation="CategorizationAccuracy",
             EvaluationAlgorithmName="Categorization Accuracy", EvaluationAlgorithmIsMax="True", TotalTeams=1500),
        dict(Id=4, Slug="class-homework", Title="Homework", HostSegmentTitle="InClass", EnabledDate="01/01/2019 00:00:00",
             EvaluationAlgorithmName="AUC", EvaluationAlgorithmIsMax="True", TotalTeams=900),
        dict(Id=5, Slug="tiny", Title="Tiny", HostSegmentTitle="Featured", EnabledDate="01/01/2019 00:00:00",
             EvaluationAlgorithmName="AUC", EvaluationAlgorithmIsMax="True", TotalTeams=3),
        dict(Id=6, Slug="hidden-segment", Title="Hidden", HostSegmentTitle="Analytics", EnabledDate="01/01/2019 00:00:00",
             EvaluationAlgorithmName="AUC", EvaluationAlgorithmIsMax="True", TotalTeams=900),
    ]
    write_csv(root / "Competitions.csv", COMPETITION_COLUMNS, competitions)
    # kernel id -> (competition, current version, url slug, medal, votes)
    kernels = {
        10: (1, 1001, "titanic-gold", 1, 50), 11: (1, 1101, "titanic-popular", "", 900), 12: (1, 1201, "titanic-bronze", 3, 5),
        13: (1, 1301, "titanic-silver", 2, 40), 14: (1, 1401, "titanic-nothing", "", 1),
        20: (2, 2001, "house-low-score", "", 100), 21: (2, 2101, "house-high-score", "", 100), 22: (2, 2201, "house-missing-code", 1, 999),
        30: (3, 3001, "digits", "", 7),
        40: (4, 4001, "homework", 1, 100), 50: (5, 5001, "tiny", 1, 100), 60: (6, 6001, "hidden", 1, 100),
    }
    write_csv(root / "Kernels.csv", KERNEL_COLUMNS, [
        dict(Id=kernel, CurrentKernelVersionId=version, CurrentUrlSlug=slug, Medal=medal, TotalVotes=votes, AuthorUserId=kernel * 3)
        for kernel, (_, version, slug, medal, votes) in kernels.items()])
    versions, sources = [], []
    for kernel, (competition, version, _, _, _) in kernels.items():
        # an older version too: it names the competition as its source, the current one does not repeat it
        versions += [dict(Id=version - 1, ScriptId=kernel, VersionNumber=1, Title="first try"),
                     dict(Id=version, ScriptId=kernel, VersionNumber=2, Title="final")]
        sources.append(dict(Id=len(sources) + 1, KernelVersionId=version - 1, SourceCompetitionId=competition))
    write_csv(root / "KernelVersions.csv", VERSION_COLUMNS, versions)
    write_csv(root / "KernelVersionCompetitionSources.csv", SOURCE_COLUMNS, sources)
    write_csv(root / "Submissions.csv", SUBMISSION_COLUMNS, [
        dict(Id=1, SourceKernelVersionId=2001, PublicScoreFullPrecision="0.140"),
        dict(Id=2, SourceKernelVersionId=2001, PublicScoreFullPrecision="0.120"),
        dict(Id=3, SourceKernelVersionId=2101, PublicScoreFullPrecision="0.130"),
    ])
    code = tmp_path / "meta-kaggle-code"
    for kernel, (_, version, slug, _, _) in kernels.items():
        if slug != "house-missing-code":
            code_file(code, version, f"# {slug}\nimport pandas as pd\nprint('{slug}')\n", ".ipynb" if kernel % 2 else ".py")
    return root


SEGMENTS = ["Featured", "Research", "Getting Started"]


def read(root: Path, top: int = 3, **meta) -> dict[str, IngestedCompetition]:
    meta.setdefault("host_segments", SEGMENTS)
    settings = IngestSettings(meta_kaggle=MetaKaggleSettings(**meta))
    return {item.competition.competition: item for item in MetaKaggleDump(root, settings, top_notebooks=top, base=root.parent)}


def test_detects_a_dump_by_its_competitions_file(dump, tmp_path):
    assert is_meta_kaggle(dump)
    assert not is_meta_kaggle(tmp_path)


def test_code_files_are_sharded_by_the_padded_version_id(tmp_path):
    assert code_path(tmp_path, 230026147) == tmp_path / "0230" / "026"
    assert code_path(tmp_path, 42) == tmp_path / "0000" / "000"


def test_filters_keep_the_segments_asked_for_and_drop_classroom_and_small_competitions(dump):
    assert sorted(read(dump)) == ["digit-recognizer", "house-prices", "titanic"]
    # The default segments leave "Getting Started" out, as curate.toml does.
    assert sorted(read(dump, host_segments=MetaKaggleSettings().host_segments)) == ["digit-recognizer", "house-prices"]
    assert sorted(read(dump, min_teams=2000)) == ["house-prices", "titanic"]
    assert sorted(read(dump, enabled_after="2015-01-01")) == ["house-prices"]
    assert sorted(read(dump, enabled_before="2012-09-01")) == ["digit-recognizer"]
    assert "class-homework" in read(dump, exclude_classroom=False, host_segments=["InClass"])


def test_top_notebooks_by_medal_then_votes(dump):
    titanic = read(dump, top=4)["titanic"]
    assert [nb.name for nb in titanic.notebooks] == ["titanic-gold-1001", "titanic-silver-1301", "titanic-bronze-1201",
                                                     "titanic-popular-1101"]
    assert (titanic.notebooks[0].medal, titanic.notebooks[0].votes) == (1, 50)
    assert titanic.notebooks[0].text == "# titanic-gold\nimport pandas as pd\nprint('titanic-gold')"
    assert titanic.competition.comp_name == "Titanic - Machine Learning from Disaster"
    assert titanic.competition.comp_type == "Getting Started"
    assert titanic.competition.metric == "Categorization Accuracy"
    assert titanic.competition.data_card == "" and titanic.competition.grading is None


def test_equal_votes_are_ordered_by_leaderboard_score_in_the_metric_direction(dump):
    house = read(dump)["house-prices"]
    # RMSE is minimized: 0.120 (best of two submissions) beats 0.130.
    assert [(nb.name, nb.score) for nb in house.notebooks] == [("house-low-score-2001", 0.12), ("house-high-score-2101", 0.13)]
    assert house.competition.comp_name == 'House Prices, "Advanced"'


def test_a_missing_code_file_is_a_problem_and_the_next_notebook_takes_its_place(dump):
    house = read(dump)["house-prices"]
    assert len(house.notebooks) == 2
    assert [p.line() for p in house.problems] == [
        "meta-kaggle-code/0000/002/2201.*: no code file for notebook 'house-missing-code' (kernel version 2201); "
        "the Meta Kaggle Code folder may be older than the CSVs"]


def test_slugs_are_lowercased_and_data_types_come_from_tags(dump):
    write_csv(dump / "Tags.csv", ["Id", "Name", "Slug"], [dict(Id=7, Name="Image", Slug="image"), dict(Id=8, Name="Beginner")])
    write_csv(dump / "CompetitionTags.csv", ["Id", "CompetitionId", "TagId"], [dict(Id=1, CompetitionId=3, TagId=7),
                                                                               dict(Id=2, CompetitionId=1, TagId=8)])
    reader = MetaKaggleDump(dump, IngestSettings(meta_kaggle=MetaKaggleSettings(host_segments=SEGMENTS)), base=dump.parent)
    items = {item.competition.competition: item for item in reader}
    assert items["digit-recognizer"].competition.data_type == "image"
    assert items["titanic"].competition.data_type == "tabular"
    assert [p.line() for p in reader.problems] == [
        "meta-kaggle/Competitions.csv: Meta Kaggle has no data type; 2 competitions without telling tags were taken "
        "as tabular — check them before describing"]


def test_a_data_card_written_by_the_curator_is_picked_up(dump, tmp_path):
    cards = tmp_path / "competitions"
    (cards / "titanic").mkdir(parents=True)
    (cards / "titanic" / "data_card.md").write_text("Passengers of the Titanic.\n")
    settings = IngestSettings(meta_kaggle=MetaKaggleSettings(host_segments=SEGMENTS))
    items = {i.competition.competition: i for i in MetaKaggleDump(dump, settings, cards=cards)}
    assert items["titanic"].competition.data_card == "Passengers of the Titanic."
    assert items["house-prices"].competition.data_card == ""


def test_a_missing_column_is_one_line_naming_the_file_and_the_column(dump):
    rows = list(csv.DictReader((dump / "Kernels.csv").open()))
    columns = [c for c in KERNEL_COLUMNS if c != "TotalVotes"]
    write_csv(dump / "Kernels.csv", columns, [{k: v for k, v in row.items() if k in columns} for row in rows])
    with pytest.raises(SourceError) as error:
        MetaKaggleDump(dump, IngestSettings(), base=dump.parent)
    assert [p.line() for p in error.value.problems] == [
        "meta-kaggle/Kernels.csv: missing column 'TotalVotes'; is it a Meta Kaggle Kernels.csv?"]


def test_a_file_the_csv_reader_cannot_parse_is_one_line_naming_it(dump):
    with (dump / "Kernels.csv").open("a") as kernels:
        kernels.write('999,"a quote that never closes,5\n')
    with pytest.raises(SourceError) as error:
        read(dump)
    assert [p.line() for p in error.value.problems] == [
        "meta-kaggle/Kernels.csv: cannot be read (its rows do not follow one CSV layout, e.g. a quote that never "
        "closes); repair that row or download the file again"]


def test_a_bad_row_deep_in_a_big_file_is_named_by_its_line(dump):
    # What DuckDB says when it meets the row while reading (past the rows it sniffed), as it printed it on a
    # 7,000-row Kernels.csv with one broken line at the end.
    said = duckdb.InvalidInputException(
        "Invalid Input Error: CSV Error on Line: 7002\nOriginal Line: 123,\"unterminated,5\n\n"
        "Value with unterminated quote found.\n\nPossible fixes:\n* Enable ignore errors (ignore_errors=true)\n\n"
        f"  file = {dump / 'Kernels.csv'}\n  delimiter = , (Set By User)\n")
    reader = MetaKaggleDump(dump, IngestSettings(), base=dump.parent)
    assert reader._unreadable(said).line() == (
        "meta-kaggle/Kernels.csv: cannot be read (row on line 7002: Value with unterminated quote found); "
        "repair that row or download the file again")


def test_a_missing_file_and_a_missing_code_folder_are_named(dump, tmp_path):
    (dump / "KernelVersions.csv").unlink()
    with pytest.raises(SourceError, match="KernelVersions.csv: missing; a Meta Kaggle dump needs it"):
        MetaKaggleDump(dump, IngestSettings())
    other = tmp_path / "downloads" / "elsewhere"
    other.mkdir(parents=True)
    for name in ("Competitions.csv", "Kernels.csv", "KernelVersionCompetitionSources.csv"):
        (other / name).write_bytes((dump / name).read_bytes())
    write_csv(other / "KernelVersions.csv", VERSION_COLUMNS, [])
    with pytest.raises(SourceError, match="no Meta Kaggle Code folder next to the dump .* pass it with --code PATH"):
        MetaKaggleDump(other, IngestSettings())


def test_a_bad_optional_file_is_ignored_with_a_line(dump):
    write_csv(dump / "Submissions.csv", ["Id", "Score"], [dict(Id=1, Score=3)])
    reader = MetaKaggleDump(dump, IngestSettings(), base=dump.parent)
    items = {item.competition.competition: item for item in reader}
    assert all(nb.score is None for nb in items["house-prices"].notebooks)
    assert reader.problems[0].line() == "meta-kaggle/Submissions.csv: missing column 'SourceKernelVersionId'; the file is ignored"
