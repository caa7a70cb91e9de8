"""`curate ingest`, `curate status` and `curate init` as a curator runs them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from curation.cli import app
from tests.sources.test_meta_kaggle import dump  # noqa: F401  (the small Meta Kaggle dump fixture)

runner = CliRunner()
SAMPLE_SLUGS = {
    "digit-recognizer", "house-prices-advanced-regression-techniques", "nlp-getting-started",
    "predict-who-is-more-influential-in-a-social-network", "santander-customer-transaction-prediction",
    "spaceship-titanic", "titanic",
}
BROKEN = "data/sample/nlp-getting-started/notebooks/disaster-tweets-naive-bayes.ipynb: not valid notebook JSON"


def test_ingest_then_status_on_the_sample(project):
    result = runner.invoke(app, ["ingest"])
    assert result.exit_code == 0, result.output
    assert "7 competitions from data/sample: 7 added, 0 updated, 0 unchanged, 0 failed; 13 notebooks." in result.stdout
    assert "2 problems:" in result.stderr
    assert BROKEN in result.stderr

    result = runner.invoke(app, ["status", "--detail"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    for slug in SAMPLE_SLUGS:
        assert slug in result.stdout
    result = runner.invoke(app, ["status"], env={"COLUMNS": "250"})
    assert result.stdout.startswith("7 competitions in 12 languages")
    assert next(line for line in result.stdout.splitlines() if line.startswith("en ")).split()[1] == "7"  # all ingested
    assert "Problems (2)" in result.stdout
    assert f"[ingest] {BROKEN}" in result.stdout
    assert "decoded as cp1252" in result.stdout


def test_status_json_is_for_scripts(project):
    runner.invoke(app, ["ingest"])
    result = runner.invoke(app, ["status", "--json", "--lang", "kk,be"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    rows = {row["competition"]: row for row in report["competitions"]}
    assert set(rows) == SAMPLE_SLUGS
    assert rows["titanic"]["notebooks"] == 3
    assert rows["titanic"]["stages"]["ingest"] == {"status": "done", "detail": "3 notebooks"}
    assert report["counts"]["ingest"] == {"done": 7}
    assert [p["path"] for p in report["problems"]][0].endswith("disaster-tweets-naive-bayes.ipynb")


def test_a_second_ingest_reports_everything_unchanged(project):
    runner.invoke(app, ["ingest"])
    result = runner.invoke(app, ["ingest"])
    assert "7 competitions from data/sample: 0 added, 0 updated, 7 unchanged, 0 failed; 13 notebooks." in result.stdout


def test_top_limits_notebooks_per_competition(project):
    runner.invoke(app, ["ingest", "--top", "1"])
    report = json.loads(runner.invoke(app, ["status", "--json"]).stdout)
    assert {row["notebooks"] for row in report["competitions"]} == {0, 1}


def test_a_bad_competition_shows_as_failed_with_its_reason_and_the_others_go_on(project):
    yaml = project / "data" / "sample" / "titanic" / "competition.yaml"
    yaml.write_text(yaml.read_text().replace("comp_type: Getting Started\n", ""))
    result = runner.invoke(app, ["ingest"])
    assert result.exit_code == 0
    assert "6 added" in result.stdout
    assert "failed: titanic: data/sample/titanic/competition.yaml: missing field 'comp_type'" in result.stderr
    report = json.loads(runner.invoke(app, ["status", "--json"]).stdout)
    rows = {row["competition"]: row for row in report["competitions"]}
    assert rows["titanic"]["stages"]["ingest"]["status"] == "failed"
    assert rows["spaceship-titanic"]["stages"]["ingest"]["status"] == "done"
    status = runner.invoke(app, ["status"], env={"COLUMNS": "250"}).stdout
    assert next(line for line in status.splitlines() if line.startswith("en ")).split()[1] == "6/·/·/1"
    assert "data/sample/titanic/competition.yaml: missing field 'comp_type'" in status


def copy_competition(project: Path, slug: str, edit=lambda text: text) -> Path:
    """The sample's titanic folder under a new slug, its competition.yaml passed through `edit`."""
    folder = project / "data" / "sample" / slug
    shutil.copytree(project / "data" / "sample" / "titanic", folder)
    yaml = folder / "competition.yaml"
    yaml.write_text(edit(yaml.read_text().replace("competition: titanic", f"competition: {slug}")))
    return folder


def test_every_kind_of_bad_input_is_one_line_counted_in_status_and_the_sample_is_untouched(project):
    runner.invoke(app, ["ingest"])
    before = json.loads(runner.invoke(app, ["status", "--json"]).stdout)["competitions"]
    bad = copy_competition(project, "zz-bad-notebooks") / "notebooks"
    shutil.rmtree(bad)
    bad.mkdir()
    (bad.parent / "notebooks.csv").unlink()
    (bad / "a-not-json.ipynb").write_text("this is not JSON")
    (bad / "b-empty.ipynb").write_text("")
    (bad / "c-binary.ipynb").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8)
    with (bad / "d-huge.ipynb").open("wb") as huge:  # 50 MB (sparse: the size is refused before any reading)
        huge.write(b'{"cells": [')
        huge.truncate(50 * 1024 * 1024)
    (bad / "e-prose-only.ipynb").write_text(json.dumps({"cells": [{"cell_type": "markdown", "source": "# notes", "metadata": {}}],
                                                        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    (bad / "f-utf16.py").write_text("import pandas as pd\n# Größe\ndf = pd.read_csv('train.csv')\n", encoding="utf-16")
    copy_competition(project, "zz-missing-field", lambda text: text.replace("metric: Accuracy\n", ""))
    copy_competition(project, "zz-misspelled-field", lambda text: text.replace("comp_type:", "comp_tpye:"))
    copy_competition(project, "zz-unknown-data-type", lambda text: text.replace("data_type: tabular", "data_type: spreadsheet"))
    listed = copy_competition(project, "zz-csv-names-a-missing-file") / "notebooks.csv"
    listed.write_text(listed.read_text() + "no-such-notebook.ipynb,0.9,,9999,gold\n")
    copy_competition(project, "zz-twin-a", lambda text: text.replace("competition: zz-twin-a", "competition: zz-twin"))
    copy_competition(project, "zz-twin-b", lambda text: text.replace("competition: zz-twin-b", "competition: zz-twin"))

    result = runner.invoke(app, ["ingest"])

    assert result.exit_code == 0, result.output
    assert "13 competitions from data/sample: 2 added, 0 updated, 7 unchanged, 4 failed" in result.stdout
    expected = {
        "zz-bad-notebooks/notebooks/a-not-json.ipynb: not valid notebook JSON",
        "zz-bad-notebooks/notebooks/b-empty.ipynb: is empty",
        "zz-bad-notebooks/notebooks/c-binary.ipynb: is binary",
        "zz-bad-notebooks/notebooks/d-huge.ipynb: is 52.4 MB, over the limit of 20.0 MB (ingest.max_notebook_bytes)",
        "zz-bad-notebooks/notebooks/e-prose-only.ipynb: has no code cells",
        "zz-bad-notebooks/notebooks/f-utf16.py: decoded as utf-16, not UTF-8",
        "zz-missing-field/competition.yaml: missing field 'metric'",
        "zz-misspelled-field/competition.yaml: unknown field 'comp_tpye'; did you mean 'comp_type'?",
        "zz-unknown-data-type/competition.yaml: field 'data_type': unknown data type 'spreadsheet'; use one of: tabular",
        "zz-csv-names-a-missing-file/notebooks.csv: row 5: names no-such-notebook.ipynb",
        "zz-twin-a/competition.yaml: slug 'zz-twin' is also claimed by data/sample/zz-twin-b",
        "zz-twin-b/competition.yaml: slug 'zz-twin' is also claimed by data/sample/zz-twin-a",
    }
    listed = [line for line in result.stderr.splitlines() if line.startswith("  ")]  # under "N problems:"
    # the sample's own 2, these 12, and the misspelled field's consequence: 'comp_type' is missing
    assert "15 problems:" in result.stderr and len(listed) == 15
    for problem in expected:  # one line each, naming the file
        assert sum(f"data/sample/{problem}" in line for line in listed) == 1, problem
    refused = [line.split(":")[1].strip() for line in result.stderr.splitlines() if line.startswith("failed: ")]
    assert sorted(refused) == ["zz-missing-field", "zz-misspelled-field", "zz-twin", "zz-unknown-data-type"]
    assert "Traceback" not in result.output

    report = json.loads(runner.invoke(app, ["status", "--json"]).stdout)
    shown = [f"{p['path']}: {p['message']}" for p in report["problems"]]
    for problem in expected:
        assert sum(f"data/sample/{problem}" in line for line in shown) == 1, problem
    rows = {row["competition"]: row for row in report["competitions"]}
    assert {slug: rows[slug]["stages"]["ingest"]["status"] for slug in rows if slug.startswith("zz-")} == {
        "zz-bad-notebooks": "done", "zz-csv-names-a-missing-file": "done", "zz-missing-field": "failed",
        "zz-misspelled-field": "failed", "zz-unknown-data-type": "failed", "zz-twin": "failed"}
    assert rows["zz-bad-notebooks"]["notebooks"] == 1  # the UTF-16 script, read and flagged
    assert rows["zz-bad-notebooks"]["stages"]["ingest"]["detail"] == "1 notebook; 6 problems to look at"
    assert [row for row in report["competitions"] if row["competition"] in SAMPLE_SLUGS] == before
    assert report["counts"]["ingest"] == {"done": 9, "failed": 4}


def test_ingest_from_a_meta_kaggle_dump(project, dump):  # noqa: F811
    result = runner.invoke(app, ["ingest", "--source", str(dump), "--top", "2"])
    assert result.exit_code == 0, result.output
    assert "2 competitions from" in result.stdout  # Getting Started is not among curate.toml's host segments
    report = json.loads(runner.invoke(app, ["status", "--json"]).stdout)
    rows = {row["competition"]: row for row in report["competitions"]}
    assert rows["house-prices"]["notebooks"] == 2
    assert rows["house-prices"]["stages"]["ingest"]["detail"] == "2 notebooks; 1 problem to look at; no data card yet"


def test_a_dump_with_a_missing_column_is_one_line_and_recorded(project, dump):  # noqa: F811
    text = (dump / "KernelVersionCompetitionSources.csv").read_text().replace("SourceCompetitionId", "CompetitionId")
    (dump / "KernelVersionCompetitionSources.csv").write_text(text)
    result = runner.invoke(app, ["ingest", "--source", str(dump)])
    assert result.exit_code == 2
    assert result.stderr.strip().endswith(
        "KernelVersionCompetitionSources.csv: missing column 'SourceCompetitionId'; is it a Meta Kaggle KernelVersionCompetitionSources.csv?")
    assert len(result.stderr.strip().splitlines()) == 1
    assert "missing column 'SourceCompetitionId'" in runner.invoke(app, ["status"], env={"COLUMNS": "250"}).stdout


def test_a_refused_dump_keeps_the_problems_of_the_competition_folders(project, dump):  # noqa: F811
    runner.invoke(app, ["ingest"])
    (dump / "Kernels.csv").write_text((dump / "Kernels.csv").read_text().replace("TotalVotes", "Votes"))

    assert runner.invoke(app, ["ingest", "--source", str(dump)]).exit_code == 2

    status = runner.invoke(app, ["status"], env={"COLUMNS": "250"}).stdout
    assert "Problems (3)" in status
    assert f"[ingest] {BROKEN}" in status and "Kernels.csv: missing column 'TotalVotes'" in status


def test_a_source_that_does_not_exist_is_one_line(project):
    result = runner.invoke(app, ["ingest", "--source", "nowhere"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: nowhere: no such folder; pass --source or set paths.competitions in curate.toml"


def test_status_before_any_ingest_says_what_to_do(project):
    result = runner.invoke(app, ["status"])
    assert result.exit_code == 0
    assert "No competitions yet. Run curate ingest first." in result.stdout


def test_init_scaffolds_a_project_and_refuses_to_overwrite(tmp_path):
    target = tmp_path / "my-benchmark"
    result = runner.invoke(app, ["init", str(target)])
    assert result.exit_code == 0, result.output
    assert (target / "curate.toml").exists()
    assert (target / "data" / "competitions").is_dir() and (target / "annotations").is_dir()
    assert 'competitions = "data/competitions"' in (target / "curate.toml").read_text()
    repo = Path(__file__).resolve().parents[1]
    for folder in ("prompts", "cards"):
        if (repo / folder).is_dir():
            assert sorted(p.name for p in (target / folder).iterdir()) == sorted(p.name for p in (repo / folder).iterdir())
    assert (target / "glossary.csv").read_text(encoding="utf-8") == (repo / "glossary.csv").read_text(encoding="utf-8")
    # the new project works at once
    shutil.copytree(repo / "data" / "sample" / "titanic", target / "data" / "competitions" / "titanic")
    result = runner.invoke(app, ["ingest", "--config", str(target / "curate.toml")])
    assert "1 competition from" in result.stdout and "1 added" in result.stdout

    (target / "curate.toml").write_text("# my edits\n")
    result = runner.invoke(app, ["init", str(target)])
    assert result.exit_code == 2
    assert "curate.toml already exists; nothing was changed" in result.stderr
    assert (target / "curate.toml").read_text() == "# my edits\n"
