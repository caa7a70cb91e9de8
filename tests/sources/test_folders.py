"""The competition-folder reader: the sample, notebook order and selection, and every bad input it names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curation.config import IngestSettings
from curation.records import IngestedCompetition
from curation.sources import RejectedCompetition
from curation.sources.folders import CompetitionFolders

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"

YAML = """competition: {slug}
comp_name: "A competition"
comp_type: Featured
data_type: tabular
metric: Accuracy
grading:
  metric: accuracy_score
  target_col: label
  direction: maximize
  cv_folds: 5
"""


def script(body: str = "import pandas as pd\nprint(pd.__version__)\n") -> str:
    return body


def make(root: Path, folder: str, yaml_text: str | None = None, notebooks: dict[str, str] | None = None,
         listing: str | None = None, card: str | None = "The data card.", description: str | None = None) -> Path:
    path = root / folder
    (path / "notebooks").mkdir(parents=True)
    (path / "competition.yaml").write_text(yaml_text if yaml_text is not None else YAML.format(slug=folder))
    if card is not None:
        (path / "data_card.md").write_text(card)
    if description is not None:
        (path / "description.md").write_text(description)
    for name, text in (notebooks or {"baseline.py": script()}).items():
        (path / "notebooks" / name).write_text(text)
    if listing is not None:
        (path / "notebooks.csv").write_text(listing)
    return path


def read(root: Path, top: int = 3, **settings) -> dict[str, IngestedCompetition | RejectedCompetition]:
    reader = CompetitionFolders(root, IngestSettings(**settings), top_notebooks=top, base=root)
    return {item.competition if isinstance(item, RejectedCompetition) else item.competition.competition: item for item in reader}


def lines(item) -> list[str]:
    return [problem.line() for problem in item.problems]


def test_the_sample_reads_as_seven_competitions_with_their_problems():
    items = read(SAMPLE)
    assert len(items) == 7
    assert all(isinstance(item, IngestedCompetition) for item in items.values())
    titanic = items["titanic"]
    assert [nb.name for nb in titanic.notebooks] == [
        "titanic-random-forest-baseline.py", "titanic-feature-engineering-gbm.ipynb", "titanic-legacy-logistic-regression.ipynb"]
    assert titanic.competition.grading == {"metric": "accuracy_score", "target_col": "Survived", "id_col": "PassengerId",
                                           "direction": "maximize", "cv_folds": 5}
    assert "Survived" in titanic.competition.data_card
    assert items["house-prices-advanced-regression-techniques"].competition.grading["transform"] == "log"
    assert items["santander-customer-transaction-prediction"].competition.grading is None
    private = items["predict-who-is-more-influential-in-a-social-network"]
    assert private.competition.private and private.competition.description.startswith("Given two Twitter users")
    assert private.notebooks == []
    nlp = items["nlp-getting-started"]
    assert [nb.name for nb in nlp.notebooks] == ["disaster-tweets-distilbert.py", "disaster-tweets-tfidf-logreg.ipynb"]
    assert lines(nlp) == ["nlp-getting-started/notebooks/disaster-tweets-naive-bayes.ipynb: not valid notebook JSON "
                          "(unterminated string starting at: line 12, column 5); re-download or remove it"]
    assert "decoded as cp1252" in lines(items["santander-customer-transaction-prediction"])[0]
    assert {items[slug].competition.data_type for slug in ("digit-recognizer", "nlp-getting-started")} == {"image", "text"}


def test_notebooks_are_ranked_by_medal_then_votes_then_score_and_cut_to_top_n(tmp_path):
    make(tmp_path, "comp", notebooks={f"{name}.py": script() for name in "abcdef"}, listing=(
        "file,score,rank,votes,medal\n"
        "a.py,0.70,,500,\n"
        "b.py,0.80,,10,bronze\n"
        "c.py,0.75,,10,bronze\n"
        "d.py,0.60,,3,gold\n"
        "e.py,0.90,,900,silver\n"))
    item = read(tmp_path, top=4)["comp"]
    assert [nb.name for nb in item.notebooks] == ["d.py", "e.py", "b.py", "c.py"]
    assert (item.notebooks[0].medal, item.notebooks[0].votes, item.notebooks[0].score) == (1, 3, 0.60)
    # f.py is not listed: it comes after every listed one.
    assert [nb.name for nb in read(tmp_path, top=6)["comp"].notebooks][-1] == "f.py"


def test_lower_scores_rank_first_when_the_metric_is_minimized(tmp_path):
    make(tmp_path, "comp", yaml_text=YAML.format(slug="comp").replace("maximize", "minimize"),
         notebooks={"a.py": script(), "b.py": script()},
         listing="file,score,votes\na.py,0.30,5\nb.py,0.20,5\n")
    assert [nb.name for nb in read(tmp_path)["comp"].notebooks] == ["b.py", "a.py"]


def test_a_broken_top_notebook_gives_way_to_the_next(tmp_path):
    make(tmp_path, "comp", notebooks={"good.py": script(), "broken.ipynb": '{"cells": [', "also.py": script()},
         listing="file,votes,medal\nbroken.ipynb,100,gold\ngood.py,50,\nalso.py,10,\n")
    item = read(tmp_path, top=2)["comp"]
    assert [nb.name for nb in item.notebooks] == ["good.py", "also.py"]
    assert lines(item) == ["comp/notebooks/broken.ipynb: not valid notebook JSON (expecting value: line 1, column 12); "
                           "re-download or remove it"]


def test_without_notebooks_csv_files_go_in_name_order(tmp_path):
    make(tmp_path, "comp", notebooks={"b.py": script(), "a.ipynb": json.dumps(
        {"cells": [{"cell_type": "code", "source": "x = 1", "outputs": []}], "nbformat": 4})})
    assert [nb.name for nb in read(tmp_path)["comp"].notebooks] == ["a.ipynb", "b.py"]


def test_missing_field_refuses_the_competition_and_names_file_and_field(tmp_path):
    make(tmp_path, "comp", yaml_text=YAML.format(slug="comp").replace("metric: Accuracy\n", ""))
    make(tmp_path, "other")
    items = read(tmp_path)
    assert isinstance(items["comp"], RejectedCompetition)
    assert lines(items["comp"]) == ["comp/competition.yaml: missing field 'metric'; add it"]
    assert items["comp"].reason == "comp/competition.yaml: missing field 'metric'; add it"
    assert isinstance(items["other"], IngestedCompetition)


def test_misspelled_field_gets_a_suggestion(tmp_path):
    make(tmp_path, "comp", yaml_text=YAML.format(slug="comp").replace("metric: Accuracy", "metirc: Accuracy"))
    assert lines(read(tmp_path)["comp"]) == ["comp/competition.yaml: unknown field 'metirc'; did you mean 'metric'?",
                                              "comp/competition.yaml: missing field 'metric'; add it"]


def test_unknown_data_type_lists_the_valid_ones(tmp_path):
    make(tmp_path, "comp", yaml_text=YAML.format(slug="comp").replace("data_type: tabular", "data_type: spreadsheet"))
    [line] = lines(read(tmp_path)["comp"])
    assert line.startswith("comp/competition.yaml: field 'data_type': unknown data type 'spreadsheet'; use one of: tabular, image, text")


def test_invalid_yaml_and_prose_in_yaml_are_named(tmp_path):
    make(tmp_path, "broken", yaml_text="competition: broken\ncomp_name: [unclosed\n")
    make(tmp_path, "prose", yaml_text=YAML.format(slug="prose") + "data_card: some text\n")
    items = read(tmp_path)
    assert lines(items["broken"])[0].startswith("broken/competition.yaml: not valid YAML (line ")
    assert lines(items["prose"]) == ["prose/competition.yaml: field 'data_card' belongs in data_card.md next to it, not in the YAML"]


def test_private_competition_needs_a_description(tmp_path):
    make(tmp_path, "comp", yaml_text=YAML.format(slug="comp") + "private: true\n", notebooks={})
    item = read(tmp_path)["comp"]
    assert isinstance(item, RejectedCompetition)
    assert lines(item) == ["comp/description.md: required when private: true (no public code to infer the task from); "
                           "write the task description"]


def test_notebooks_csv_naming_a_missing_file_is_a_problem_and_the_rest_go_on(tmp_path):
    make(tmp_path, "comp", notebooks={"real.py": script()}, listing="file,votes\nghost.ipynb,10\nreal.py,5\n")
    item = read(tmp_path)["comp"]
    assert [nb.name for nb in item.notebooks] == ["real.py"]
    assert lines(item) == ["comp/notebooks.csv: row 2: names ghost.ipynb, which is not in comp/notebooks; "
                           "fix the name or remove the row"]


def test_bad_numbers_in_notebooks_csv_name_the_row(tmp_path):
    make(tmp_path, "comp", notebooks={"a.py": script()}, listing="file,votes,medal\na.py,many,\n")
    assert lines(read(tmp_path)["comp"]) == ["comp/notebooks.csv: row 2: 'many' is not a number"]


def test_a_notebooks_csv_that_is_not_utf8_is_named_and_the_notebooks_go_in_name_order(tmp_path):
    folder = make(tmp_path, "comp", notebooks={"b.py": script(), "a.py": script()})
    (folder / "notebooks.csv").write_bytes("file,votes\nb.py,10\n# café\n".encode("latin-1"))
    make(tmp_path, "other")
    items = read(tmp_path)
    assert [nb.name for nb in items["comp"].notebooks] == ["a.py", "b.py"]
    assert lines(items["comp"]) == ["comp/notebooks.csv: is not UTF-8; re-save it as UTF-8 (until then its notebooks go in name order)"]
    assert isinstance(items["other"], IngestedCompetition) and not items["other"].problems


def test_two_folders_claiming_one_slug_are_both_refused(tmp_path):
    make(tmp_path, "titanic-v1", yaml_text=YAML.format(slug="titanic"))
    make(tmp_path, "titanic-v2", yaml_text=YAML.format(slug="titanic"))
    make(tmp_path, "other")
    items = read(tmp_path)
    assert isinstance(items["titanic"], RejectedCompetition)
    assert items["titanic"].reason == "claimed by 2 folders: titanic-v1, titanic-v2"
    assert lines(items["titanic"]) == [
        "titanic-v1/competition.yaml: slug 'titanic' is also claimed by titanic-v2; give each folder its own slug or remove one",
        "titanic-v2/competition.yaml: slug 'titanic' is also claimed by titanic-v1; give each folder its own slug or remove one"]
    assert isinstance(items["other"], IngestedCompetition)


def test_missing_data_card_is_a_problem_but_the_competition_is_read(tmp_path):
    make(tmp_path, "comp", card=None)
    item = read(tmp_path)["comp"]
    assert isinstance(item, IngestedCompetition) and item.competition.data_card == ""
    assert lines(item) == ["comp/data_card.md: missing; write the data card (what the files and columns hold)"]


def test_a_folder_without_competition_yaml_is_reported(tmp_path):
    make(tmp_path, "comp")
    (tmp_path / "scratch").mkdir()
    reader = CompetitionFolders(tmp_path, IngestSettings(), base=tmp_path)
    assert len(reader) == 1
    assert [p.line() for p in reader.problems] == ["scratch: no competition.yaml; add one, or move the folder out of the competitions folder"]


def test_oversized_notebooks_are_skipped_with_the_limit_named(tmp_path):
    make(tmp_path, "comp", notebooks={"big.py": "x = 1\n" * 1000, "small.py": script()})
    item = read(tmp_path, max_notebook_bytes=1024)["comp"]
    assert [nb.name for nb in item.notebooks] == ["small.py"]
    assert "over the limit of 0.0 MB (ingest.max_notebook_bytes)" in lines(item)[0]


def test_a_single_competition_folder_can_be_the_source(tmp_path):
    path = make(tmp_path, "comp")
    assert list(read(path)) == ["comp"]


@pytest.mark.parametrize("budget", [200, 6000])
def test_token_budget_applies_to_every_notebook(tmp_path, budget):
    make(tmp_path, "comp", notebooks={"long.py": "\n".join(f"value_{i} = transform(value_{i - 1})" for i in range(1, 300))})
    notebook = read(tmp_path, notebook_token_budget=budget)["comp"].notebooks[0]
    assert (notebook.cut is not None) == (budget == 200)
    assert notebook.tokens <= budget + 20


def test_a_synthesized_task_keeps_its_provenance_and_rejected_drafts_are_not_competitions(tmp_path):
    make(tmp_path, "made", YAML.format(slug="made") + "source: synthesized\nlicense: CC0-1.0\norigin: a registry\n")
    make(tmp_path, "odd", YAML.format(slug="odd") + "source: kaggle\n")
    (tmp_path / "rejected" / "leaky").mkdir(parents=True)
    (tmp_path / "rejected" / "leaky" / "REJECTED.md").write_text("- no leaking column: ...\n")
    items = {item.competition.competition if isinstance(item, IngestedCompetition) else item.competition: item
             for item in CompetitionFolders(tmp_path, IngestSettings())}
    made = items["made"].competition
    assert (made.synthesized, made.license, made.origin) == (True, "CC0-1.0", "a registry")
    assert isinstance(items["odd"], RejectedCompetition)
    assert "field 'source' can only be 'synthesized'" in items["odd"].reason
    assert set(items) == {"made", "odd"}
    assert CompetitionFolders(tmp_path, IngestSettings()).problems == []  # rejected/ is not a folder without yaml
