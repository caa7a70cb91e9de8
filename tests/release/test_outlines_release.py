"""The `outlines` config of a release (issue 26): loaded with load_dataset(release, "outlines") offline, said in the
card and the manifest, while every file of the plain language configs stays byte for byte what it is without it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from curation.cli import app
from curation.records import JUDGE_CRITERIA, CandidateVerdict, JudgedCriterion, Outline, OutlineScore, OutlineSource
from curation.release.outlines import COLUMN_TYPES, outline_hash
from curation.store import Store
from tests.release.downstream import load_release
from tests.release.seeding import seed_store

SLUGS = ["house-prices", "spaceship", "titanic"]


def curate(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "300"})


def an_outline(slug: str, needs_human: bool = False) -> Outline:
    criteria = [JudgedCriterion(criterion=name, score=2, reason="met") for name in JUDGE_CRITERIA]
    return Outline(
        competition=slug, data_preparation=["Read the tables and fill missing values with the column median."],
        features=["Encode each categorical column as integer codes."], model=["Train gradient-boosted trees."],
        training_and_validation=["Check the model with five-fold cross-validation."],
        inference_and_submission=["Average the fold models' predictions and judge them by ROC AUC."],
        sources=[OutlineSource(notebook=f"{slug}-gbm.ipynb", rank=1), OutlineSource(notebook=f"{slug}-rf.py", rank=3)],
        chosen=2, candidates=[CandidateVerdict(candidate=number, score=7 + (number == 2), criteria=criteria)
                              for number in (1, 2, 3)],
        judge_reason="the clearest plan", writer="openai:gpt-5.5-2026-04-23", judge="anthropic:claude-sonnet-5-5",
        needs_human=needs_human, reasons=["judge scored faithful 0: invented a step"] if needs_human else [])


@pytest.fixture
def kazakh_project(project: Path, store: Store) -> Path:
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        'languages = ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"]',
        'languages = ["en", "kk"]'), encoding="utf-8")
    seed_store(store, ["en", "kk"], SLUGS)
    return project


def files(release: Path) -> dict[str, str]:
    """Relative path -> sha256 of every file of the release but the git folder."""
    return {path.relative_to(release).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(release.rglob("*")) if path.is_file() and ".git" not in path.relative_to(release).parts}


def test_outlines_load_as_their_own_config_and_leave_the_language_configs_unchanged(kazakh_project: Path, store: Store,
                                                                                    tmp_path: Path):
    plain = curate("publish", "--version", "1.0.0", "--to", "dist/plain")
    assert plain.exit_code == 0, plain.output
    store.save_outline(an_outline("titanic"))
    store.save_outline(an_outline("spaceship", needs_human=True))
    flagged = an_outline("house-prices")
    store.save_outline(flagged)
    for annotator in ("rev-1", "rev-2"):  # both rubric reviewers found the house-prices outline unusable
        store.add_outline_score(OutlineScore(competition="house-prices", annotator=annotator, score=0,
                                             outline_hash=outline_hash(flagged)))

    hinted = curate("publish", "--version", "1.0.0", "--to", "dist/hinted")

    assert hinted.exit_code == 0, hinted.output
    before, after = files(kazakh_project / "dist" / "plain"), files(kazakh_project / "dist" / "hinted")
    languages = {path: digest for path, digest in before.items() if path not in ("README.md", "manifest.json")}
    assert languages and all(after[path] == digest for path, digest in languages.items())  # byte for byte
    assert set(after) - set(before) == {"outlines/test-00000-of-00001.parquet"}

    release = kazakh_project / "dist" / "hinted"
    loaded = load_release(str(release), ["outlines", "en", "kk"], tmp_path / "hf-cache")
    assert loaded["outlines"]["columns"] == list(COLUMN_TYPES)
    rows = loaded["outlines"]["rows"]
    assert [(row["competition"], row["language"]) for row in rows] == [("titanic", "en")]
    titanic = rows[0]
    assert titanic["model"] == ["Train gradient-boosted trees."]
    assert titanic["sources"] == [{"notebook": "titanic-gbm.ipynb", "rank": 1}, {"notebook": "titanic-rf.py", "rank": 3}]
    assert (titanic["candidates"], titanic["chosen"], titanic["judge_score"], titanic["judge_max"]) == (3, 2, 8, 8)
    assert titanic["outline"].startswith("## Data preparation\n- Read the tables")
    assert "outline" not in loaded["en"]["columns"] and len(loaded["en"]["rows"]) == 3

    manifest = json.loads((release / "manifest.json").read_text(encoding="utf-8"))
    said = manifest["outlines"]
    assert said["competitions"] == ["titanic"] and said["languages"] == ["en"]
    assert said["written_by"] == {"openai:gpt-5.5-2026-04-23": 1} and said["judged_by"] == {"anthropic:claude-sonnet-5-5": 1}
    assert "top-ranked public notebooks" in said["source"]
    assert said["left_out"] == [
        "house-prices: the rubric reviewers scored the outline 0 (unusable)",
        "spaceship: the outline needs a person (judge scored faithful 0: invented a step) and no reviewer scored it 1 "
        "or 2"]
    card = (release / "README.md").read_text(encoding="utf-8")
    front = yaml.safe_load(card.split("---\n")[1])
    assert {"config_name": "outlines", "data_files": [{"split": "test", "path": "outlines/test-00000-of-00001.parquet"}]} \
        in front["configs"]
    assert "## Solution outlines (config `outlines`)" in card
    assert 'load_dataset("dist/hinted", "outlines", split="test")' in card or '"outlines", split="test")' in card
    assert "outlines" not in (kazakh_project / "dist" / "plain" / "README.md").read_text(encoding="utf-8")


def test_translated_outlines_are_rows_of_their_language_with_their_parts(kazakh_project: Path, store: Store,
                                                                        tmp_path: Path):
    from curation.records import CheckResult, Translation

    toml = kazakh_project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("translate = false", "translate = true", 1),
                    encoding="utf-8")
    outline = an_outline("titanic")
    store.save_outline(outline)
    kazakh = "\n\n".join(f"## Бөлім {number}\n- Қадам {number}." for number in range(1, 6))
    store.save_outline_translation(Translation(
        competition="titanic", field="outline", language="kk", source_text=outline.text(), source_hash="s",
        text=kazakh, checks=[CheckResult(name="language", passed=False, detail="too much English")], flagged=True))
    store.save_outline_translation(Translation(  # of an older outline: not published with this one
        competition="titanic", field="outline", language="ru", source_text="## Old\n- step", source_hash="o",
        text="## Старый\n- шаг"))

    published = curate("publish", "--version", "1.0.0", "--to", "dist/hinted")

    assert published.exit_code == 0, published.output
    rows = load_release(str(kazakh_project / "dist" / "hinted"), ["outlines"], tmp_path / "hf-cache")["outlines"]["rows"]
    assert [(row["language"], row["provenance"], row["flagged"]) for row in rows] == [
        ("en", "machine", False), ("kk", "machine translation", True)]
    assert rows[1]["outline"] == kazakh and rows[1]["model"] == ["Қадам 3."]
    assert rows[1]["sources"] == rows[0]["sources"] and rows[1]["review_score"] is None
