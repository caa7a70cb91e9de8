"""`curate synthesize` against the fake LLM server, on the four datasets built in tests/synthesis/datasets.py."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from curation.cli import app
from tests.synthesis.datasets import houses, loans, patients, sales
from tests.synthesis.scripted import design, idea

runner = CliRunner()


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    root = tmp_path / "raw"
    for build in (houses, patients, loans, sales):
        build(root)
    return root


def test_four_datasets_three_verified_and_the_leak_rejected(project, designer, raw):
    out = project / "data" / "competitions"
    result = runner.invoke(app, ["synthesize", *(str(raw / name) for name in ("houses", "patients", "loans", "sales")),
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["houses-house-price", "patients-readmission",
                                                     "rejected", "sales-daily-units"]
    rejected = out / "rejected" / "loans-loan-default"
    assert (rejected / "REJECTED.md").read_text().endswith(
        "- no leaking column: collection_status alone predicts defaulted (balanced accuracy 1.00)\n")
    assert ("rejected loans-loan-default -> data/competitions/rejected/loans-loan-default: no leaking column: "
            "collection_status alone predicts defaulted (balanced accuracy 1.00)") in result.output
    yaml_ = yaml.safe_load((out / "sales-daily-units" / "competition.yaml").read_text())
    assert yaml_["source"] == "synthesized" and yaml_["license"] == "ODbL-1.0"
    assert yaml_["grading"] == {"metric": "mean_absolute_error", "target_col": "units_sold", "id_col": "id",
                                "direction": "minimize", "cv_folds": 5}
    assert designer.count("brainstorm") == 4 and designer.count("design") == 4
    assert designer.count("task_review") == 3  # the leaking design never reaches the reviewer

    ingested = runner.invoke(app, ["ingest", "--source", str(out)])
    assert ingested.exit_code == 0 and "3 competitions from" in ingested.output and "3 added" in ingested.output
    assert "rejected" not in ingested.output  # the rejected drafts are not competitions
    status = runner.invoke(app, ["status", "--detail", "-v"], env={"COLUMNS": "250"})  # -v: cells wrap, not cut
    shown = " ".join(status.output.split())
    assert "loans-loan-default" in status.output and "houses-house-price" in status.output
    assert "synthesize: rejected: no leaking column: collection_status alone predicts defaulted" in shown
    matrix = json.loads(runner.invoke(app, ["status", "--json"]).output)["matrix"]
    assert matrix["synthesize"][""] == {"done": 3, "flagged": 0, "open": 0, "failed": 1}  # the leak failed

    again = runner.invoke(app, ["synthesize", *(str(raw / name) for name in ("houses", "patients", "loans", "sales")),
                                "--out", str(out)])
    assert again.exit_code == 0, again.output
    assert designer.count() == 11  # nothing asked again
    assert "synthesize verify: 0 done, 0 failed, 0 not started; 0 LLM calls" in again.output


def test_a_design_the_table_cannot_take_is_sent_back(project, designer, raw):
    designer.designs["price"] = [design("Prices", split="group", split_column="street"),
                                 design("Prices", metric="root_mean_squared_error", direction="minimize")]
    result = runner.invoke(app, ["synthesize", str(raw / "houses"), "--out", str(project / "out")])
    assert result.exit_code == 0, result.output
    assert designer.count("design") == 2
    assert (project / "out" / "houses-house-price" / "competition.yaml").exists()


def test_an_unsound_task_is_rejected_with_the_reviewers_words(project, designer, raw):
    designer.unsound["price"] = ["size_m2 is only measured after the sale."]
    result = runner.invoke(app, ["synthesize", str(raw / "houses"), "--out", str(project / "out")])
    assert result.exit_code == 0, result.output
    assert "rejected houses-house-price" in result.output
    assert "soundness review: size_m2 is only measured after the sale." in result.output


def test_bad_input_is_one_line_per_file(project, designer, tmp_path):
    folder = tmp_path / "junk"
    folder.mkdir()
    (folder / "notes.json").write_text("{}")
    (folder / "one.csv").write_text("a\n1\n")
    result = runner.invoke(app, ["synthesize", str(folder), str(tmp_path / "missing"), "--out", str(project / "out")])
    # Files inside the project are named from its root, as the store keeps them.
    assert "junk/notes.json: not a tabular file (CSV, TSV or Parquet); skipped" in result.output
    assert "junk/one.csv: has a single column" in result.output
    assert f"{tmp_path / 'missing'}: not a folder of tabular files; skipped" in result.output
    assert "Traceback" not in result.output and designer.count() == 0


def test_outside_a_project_out_uses_the_default_settings(designer, raw, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["synthesize", str(raw / "patients"), "--out", str(tmp_path / "tasks")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "tasks" / "patients-readmission" / "data" / "train.csv").exists()


def test_max_cost_stops_before_paying_and_a_rerun_continues(project, designer, raw):
    stopped = runner.invoke(app, ["synthesize", str(raw / "houses"), "--out", str(project / "out"),
                                  "--max-cost", "0.0000001"])
    assert stopped.exit_code == 1
    assert "stopped: " in stopped.output and "rerun to continue where it stopped" in stopped.output
    assert designer.count() == 0 and not (project / "out" / "houses-house-price").exists()
    resumed = runner.invoke(app, ["synthesize", str(raw / "houses"), "--out", str(project / "out")])
    assert resumed.exit_code == 0, resumed.output
    assert (project / "out" / "houses-house-price" / "competition.yaml").exists()


# Issue 24, item 12: an empty progress label (": 1/1 · ..."), a 60-character slug, a task named "clear objective".

PROGRESS = re.compile(r"^synthesize (brainstorm|design|verify): (\d+)/(\d+) · .* · \d+:\d\d elapsed$")


def test_progress_names_the_step_under_way(project, designer, raw):
    result = runner.invoke(app, ["synthesize", str(raw / "houses"), str(raw / "patients"), "--out", str(project / "out")],
                           env={"CURATE_PROGRESS_SECONDS": "0"})
    assert result.exit_code == 0, result.output
    shown = [line for line in result.output.splitlines() if " · " in line]
    assert shown and not any(line.startswith(":") for line in shown), result.output
    steps = [PROGRESS.match(line) for line in shown]
    assert all(steps), result.output
    # each step's own items, its last line printed before the next step's first
    last = {step[1]: (int(step[2]), int(step[3])) for step in steps}
    assert last == {"brainstorm": (2, 2), "design": (2, 2), "verify": (2, 2)}
    assert [step[1] for step in steps] == sorted((step[1] for step in steps), key=["brainstorm", "design", "verify"].index)


def test_a_long_dataset_and_task_name_make_a_short_readable_slug(project, designer, raw):
    folder = raw.parent / "santander-customer-transaction-prediction"
    shutil.copytree(raw / "houses", folder)
    designer.ideas[folder.name] = [
        idea("predict the sale price of a house from its size and district", "houses.csv", "price", "regression",
             "root_mean_squared_error", "minimize")]
    result = runner.invoke(app, ["synthesize", str(folder), "--out", str(project / "out")])
    assert result.exit_code == 0, result.output
    assert [path.name for path in (project / "out").iterdir()] == ["santander-predict-the-sale-price"]


def test_rubric_wording_never_names_a_task(project, designer, raw):
    designer.ideas["houses"] = [idea("clear objective", "houses.csv", "price", "regression", "root_mean_squared_error",
                                     "minimize")]
    designer.designs["price"] = [design("Clear objective", id_col="house_id", metric="root_mean_squared_error",
                                        direction="minimize")]
    result = runner.invoke(app, ["synthesize", str(raw / "houses"), "--out", str(project / "out")])
    assert result.exit_code == 0, result.output
    assert [path.name for path in (project / "out").iterdir()] == ["houses-predict-price"]
    meta = yaml.safe_load((project / "out" / "houses-predict-price" / "competition.yaml").read_text())
    assert meta["comp_name"] == "Predict price"
    assert "objective" not in result.output.lower()
