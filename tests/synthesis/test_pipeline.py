"""Synthesized competitions go the whole way: ingest, describe, tag, translate, review push, publish, and load."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from curation.cli import app
from tests.release.downstream import load_release
from tests.review.seeding import fill
from tests.stages.scripted_models import TaskWriter
from tests.stages.test_translate import Translator
from tests.synthesis.datasets import houses, loans, patients, sales
from tests.synthesis.scripted import TaskDesigner


runner = CliRunner()
SYNTHESIZED = ["houses-house-price", "patients-readmission", "sales-daily-units"]


class Model:
    """The synthesize prompts as TaskDesigner answers them, translations as Translator, the rest as TaskWriter.

    No translation set holds the synthesized competitions' texts: Translator answers them with filler words, which the
    checks flag (6 of the 9); the annotator's YES then stands for them, as it would for a flagged real translation."""

    def __init__(self) -> None:
        self.designer, self.writer, self.translator = TaskDesigner(), TaskWriter(domains={}), Translator()

    def __call__(self, request):
        if request.system_text.startswith(("You propose", "You design", "You review")):
            return self.designer(request)
        if request.user_text.startswith("Translate this"):
            return self.translator(request)
        return self.writer(request)


def answer_all(path: Path, skip: str) -> None:
    """An annotator accepts every row of her workbook but one."""
    import openpyxl

    book = openpyxl.load_workbook(path)
    for tab in ("description", "data_card", "domain"):
        sheet = book[tab]
        for row in range(2, sheet.max_row + 1):
            if sheet.cell(row, 1).value and sheet.cell(row, 1).value != skip:
                sheet.cell(row, 5).value = "YES and YES"
    book.save(path)


def test_synthesize_then_the_pipeline_then_publish(project: Path, llm_server, monkeypatch, tmp_path: Path):
    toml = project / "curate.toml"
    text = toml.read_text(encoding="utf-8").replace(
        'languages = ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"]',
        'languages = ["en", "ru"]').replace('competitions = "data/sample"', 'competitions = "data/competitions"')
    toml.write_text(text, encoding="utf-8")
    model = Model()
    llm_server.respond_with(model)
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)
    raw = [str(build(tmp_path / "raw")) for build in (houses, patients, loans, sales)]

    synthesized = runner.invoke(app, ["synthesize", *raw])
    assert synthesized.exit_code == 0, synthesized.output
    run = runner.invoke(app, ["run"], env={"COLUMNS": "200"})
    assert run.exit_code == 0, run.output
    assert "describe: 3 done, 0 failed" in run.output and "tag: 3 done, 0 failed" in run.output
    assert "translate:ru: 9 done, 0 failed" in run.output
    assert (project / "review" / "ru").is_dir()
    # describe read the baseline, headed by the design, in place of Kaggle notebooks
    describe_request = next(r for r in llm_server.requests if r.system_text.startswith("You write")
                            and "House prices in a town" in r.user_text)
    assert "Task: predict price (regression)" in describe_request.user_text

    # reviewers: both rubric annotators score every description good; the Russian annotator accepts every
    # translation but one data card, which she leaves unanswered -- so the release is partial
    review = project / "review"
    for workbook in sorted((review / "en").glob("rubric-*.xlsx")):
        for slug in SYNTHESIZED:
            fill(workbook, "rubric", slug, score="2 - good")
    for workbook in sorted((review / "ru").glob("*.xlsx")):
        answer_all(workbook, skip="sales-daily-units/data_card/ru")
    assert runner.invoke(app, ["review", "pull"]).exit_code == 0
    assert runner.invoke(app, ["merge"]).exit_code == 0

    published = runner.invoke(app, ["publish", "--version", "1.0.0", "--to", "dist/ml2b", "--allow-partial"])
    assert published.exit_code == 0, published.output
    assert "held back: ru/sales-daily-units/data_card" in published.output
    release = project / "dist" / "ml2b"
    grading = json.loads((release / "competitions.json").read_text(encoding="utf-8"))
    assert sorted(grading) == SYNTHESIZED
    assert grading["sales-daily-units"]["metric"] == "mean_absolute_error"
    english = pd.read_csv(release / "tasks" / "English.csv")
    assert sorted(english["comp-id"]) == SYNTHESIZED and english["synthesized"].all()
    russian_tasks = pd.read_csv(release / "tasks" / "Russian.csv")
    assert sorted(russian_tasks["comp-id"]) == SYNTHESIZED[:2]
    loaded = load_release(str(release), ["en", "ru"], tmp_path / "hf-cache")
    rows = {row["competition"]: row for row in loaded["en"]["rows"]}
    assert sorted(rows) == SYNTHESIZED and all(row["synthesized"] for row in rows.values())
    assert [row["competition"] for row in loaded["ru"]["rows"]] == SYNTHESIZED[:2]
