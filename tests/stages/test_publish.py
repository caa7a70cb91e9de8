"""curate publish / curate releases: two versions of a seeded store, read back the way downstream users read them."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from huggingface_hub import DatasetCard
from typer.testing import CliRunner

from curation.cli import app
from curation.languages import parse_language
from curation.records import FinalText
from curation.release.harness import HARNESS_COLUMNS
from curation.release.rows import COLUMNS
from curation.store import Store
from tests.release.downstream import load_release
from tests.release.seeding import NASTY, seed_store, translated

runner = CliRunner()
DIST = "dist/ml2b"


def curate(*args: str):
    return runner.invoke(app, list(args))


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def two_releases(project: Path, settings, store: Store) -> Path:
    """v1.0.0 with titanic and house-prices (no grading block); v1.1.0 drops house-prices, adds spaceship and
    changes titanic's texts."""
    languages = settings.project.languages
    seed_store(store, languages, ["titanic", "house-prices"], no_grading=("house-prices",))
    first = curate("publish", "--version", "1.0.0", "--to", DIST)
    assert first.exit_code == 0, first.output
    store.remove_competition("house-prices")
    seed_store(store, languages, ["titanic", "spaceship"], version=2)
    second = curate("publish", "--version", "1.1.0", "--to", DIST)
    assert second.exit_code == 0, second.output
    assert "since v1.0.0: 1 competition added, 1 removed" in second.output
    return project / DIST


def test_every_language_loads_offline_with_all_columns_and_rows(two_releases: Path, settings, tmp_path: Path):
    languages = settings.project.languages
    loaded = load_release(str(two_releases), languages, tmp_path / "hf-cache")

    for language in languages:
        config = loaded[language]
        assert config["columns"] == list(COLUMNS)
        rows = {row["competition"]: row for row in config["rows"]}
        assert sorted(rows) == ["spaceship", "titanic"]
        titanic = rows["titanic"]
        assert titanic["comp_name"] == 'Titanic, the "challenge"'
        assert titanic["rubric_score"] == 2 and titanic["private"] is False
        if language == "en":
            assert titanic["description"] == f"English task for titanic, v2.\n{NASTY}"
            assert titanic["description_provenance"] == "machine" and titanic["description_verdict"] is None
            assert titanic["data_card_provenance"] == "human"
        else:
            assert titanic["description"] == translated(language, "titanic", "description", 2)
            assert titanic["domain"] == translated(language, "titanic", "domain", 2)
            assert titanic["description_provenance"] == "native_fix"
            assert titanic["description_verdict"] == "NO and YES"
            assert titanic["data_card_verdict"] == "YES and YES"


def test_harness_files_read_back_with_pandas_and_match_competitions_json(two_releases: Path, settings):
    grading = json.loads((two_releases / "competitions.json").read_text(encoding="utf-8"))
    assert set(grading) == {"spaceship", "titanic"}
    assert grading["titanic"] == {"direction": "maximize", "metric": "roc_auc_score", "target_col": "target"}
    names = sorted(path.name for path in (two_releases / "tasks").iterdir())
    assert names == sorted(f"{parse_language(code).harness}.csv" for code in settings.project.languages)
    assert "Belarus.csv" in names and "Arab.csv" in names

    for code in settings.project.languages:
        frame = pd.read_csv(two_releases / "tasks" / f"{parse_language(code).harness}.csv")
        assert list(frame.columns[: len(HARNESS_COLUMNS)]) == list(HARNESS_COLUMNS)
        assert set(frame["comp-id"]) == set(grading)
        assert list(frame["comp-id"]) == list(frame["competition"])
        row = frame.set_index("comp-id").loc["titanic"]
        expected = f"English task for titanic, v2.\n{NASTY}" if code == "en" else translated(code, "titanic", "description", 2)
        assert row["description"] == expected
        card = 'train.csv: id, target\ntitanic rows, "quoted", commas'
        assert row["data_card"] == (card if code == "en" else translated(code, "titanic", "data_card", 2))
        assert row["comp_name"] == 'Titanic, the "challenge"'


def test_card_yaml_parses_and_names_configs_license_and_languages(two_releases: Path, settings):
    card = DatasetCard.load(two_releases / "README.md")
    data = card.data.to_dict()
    assert data["license"] == settings.publish.license
    assert data["pretty_name"] == settings.project.pretty_name
    assert data["language"] == settings.project.languages
    assert data["task_categories"] == settings.publish.task_categories
    assert {config["config_name"]: config["data_files"] for config in data["configs"]}["kk"] == [
        {"split": "test", "path": "kk/test-00000-of-00001.parquet"}]
    assert "| Belarusian (Беларуская) | `be` | `tasks/Belarus.csv` | 2 | 67% | 33% | 0% | 0% | 33% | 100% (kappa 1.00) over 6 items |" in card.text
    assert "Compared with v1.0.0" in card.text and "competitions removed: house-prices" in card.text
    assert "`openai:gpt-4o`" in card.text and "@misc{ml2b" in card.text
    first_card = git(two_releases, "show", "v1.0.0:README.md")
    assert "left out of `competitions.json`: house-prices" in first_card
    assert "This is the first release." in first_card


def test_manifest_names_what_changed_and_checksums_every_file(two_releases: Path, settings):
    manifest = json.loads((two_releases / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["version"] == "1.1.0" and manifest["tag"] == "v1.1.0"
    assert manifest["counts"] == {code: 2 for code in settings.project.languages}
    changes = manifest["changes"]
    assert changes["previous_version"] == "1.0.0"
    assert changes["competitions_added"] == ["spaceship"]
    assert changes["competitions_removed"] == ["house-prices"]
    assert changes["languages"]["kk"]["texts_changed"] == ["titanic/description", "titanic/data_card", "titanic/domain"]
    assert changes["languages"]["en"]["texts_changed"] == ["titanic/description"]
    assert manifest["statistics"]["be"]["agreement_items"] == 6  # titanic's 3 texts, judged twice in both rounds
    assert manifest["models"]["translate"] == {"openai:gpt-4o": 2 * 3 * (len(settings.project.languages) - 1)}
    files = {path.relative_to(two_releases).as_posix() for path in two_releases.rglob("*")
             if path.is_file() and ".git" not in path.parts and path.name != "manifest.json"}
    assert set(manifest["files"]) == files
    for relative, digest in manifest["files"].items():
        assert hashlib.sha256((two_releases / relative).read_bytes()).hexdigest() == digest


def test_each_release_is_a_commit_with_an_annotated_tag_and_is_listed(two_releases: Path):
    assert git(two_releases, "tag", "--list") == "v1.0.0\nv1.1.0"
    assert git(two_releases, "cat-file", "-t", "v1.0.0") == "tag"  # annotated, not lightweight
    assert git(two_releases, "rev-list", "--count", "HEAD") == "2"
    assert git(two_releases, "status", "--porcelain") == ""
    assert "house-prices" in git(two_releases, "show", "v1.0.0:tasks/Kazakh.csv")
    assert not any("house-prices" in line for line in (two_releases / "tasks" / "Kazakh.csv").read_text().splitlines())

    listed = curate("releases")
    assert listed.exit_code == 0
    lines = listed.output.strip().splitlines()
    assert lines[0].startswith("v1.0.0") and "dist/ml2b" in lines[0] and "kk 2" in lines[0]
    assert lines[1].startswith("v1.1.0")


def test_an_existing_version_is_refused(project: Path, settings, store: Store):
    seed_store(store, settings.project.languages, ["titanic"])
    assert curate("publish", "--version", "1.0.0", "--to", DIST).exit_code == 0
    again = curate("publish", "--version", "v1.0.0", "--to", DIST)
    assert again.exit_code == 1
    assert "version 1.0.0 is already published (tag v1.0.0)" in again.output
    assert git(project / DIST, "rev-list", "--count", "HEAD") == "1"
    shutil.rmtree(project / DIST)  # the folder is gone, but the version has been out there
    recreated = curate("publish", "--version", "1.0.0", "--to", DIST)
    assert recreated.exit_code == 1 and "version 1.0.0 was published there on" in recreated.output
    bad = curate("publish", "--version", "1.0", "--to", DIST)
    assert bad.exit_code == 1 and "not semantic" in bad.output


def _break_gates(store: Store, settings) -> None:
    seed_store(store, settings.project.languages, ["titanic", "house-prices"])
    targets_but_ja = [code for code in settings.project.languages if code != "ja"]
    seed_store(store, targets_but_ja, ["spaceship"])
    store.save_final_text(FinalText(competition="titanic", field="data_card", language="be", text="x",
                                    provenance="machine", verdict="YES and YES", checks_passed=False))
    store.add_request("retranslate", "titanic", "wrong term", field="domain", language="kk")
    store.save_rubric_final("house-prices", 0)


def test_gates_refuse_and_list_each_offender(project: Path, settings, store: Store):
    _break_gates(store, settings)
    short = curate("publish", "--version", "1.0.0", "--to", DIST)
    assert short.exit_code == 1 and "… 3 more — `-v` lists all" in short.output
    result = CliRunner().invoke(app, ["publish", "--version", "1.0.0", "--to", DIST, "-v"], env={"COLUMNS": "200"})
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert "be/titanic/data_card: the final text fails the translation checks" in result.output
    assert "kk/titanic/domain: a retranslation the reviewers asked for (a NO verdict) is still open" in result.output
    assert "house-prices/description: rubric score 0 is below publish.min_rubric_score 1" in result.output
    for field in ("description", "data_card", "domain"):
        assert any(line.startswith(f"ja/spaceship/{field}: no final text yet") for line in lines)
    assert lines[-1].startswith("refused: 6 problems")
    assert not (project / DIST).exists()


def test_allow_partial_publishes_the_rest_and_says_what_is_missing(project: Path, settings, store: Store,
                                                                   tmp_path: Path):
    _break_gates(store, settings)
    for slug in ("titanic", "spaceship"):  # Polish ends up with no publishable row at all
        store.add_request("retranslate", slug, "too literal", field="description", language="pl")
    result = curate("publish", "--version", "1.0.0", "--to", DIST, "--allow-partial")
    assert result.exit_code == 0, result.output
    assert "held back: ja/spaceship/description: no final text yet" in result.output
    release = project / DIST
    manifest = json.loads((release / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["partial"] is True
    assert {(m["language"], m["competition"], m["field"]) for m in manifest["missing"]} == {
        ("be", "titanic", "data_card"), ("kk", "titanic", "domain"), ("*", "house-prices", "description"),
        ("ja", "spaceship", "description"), ("ja", "spaceship", "data_card"), ("ja", "spaceship", "domain"),
        ("pl", "titanic", "description"), ("pl", "spaceship", "description")}
    assert manifest["counts"]["be"] == 1 and manifest["counts"]["ja"] == 1 and manifest["counts"]["fr"] == 2
    assert manifest["empty_languages"] == ["pl"] and "pl" not in manifest["counts"]
    assert not (release / "pl").exists() and not (release / "tasks" / "Polish.csv").exists()
    card = DatasetCard.load(release / "README.md")
    assert "pl" not in [config["config_name"] for config in card.data.to_dict()["configs"]]
    card = card.text
    assert "Partial release" in card and "## Not in this release" in card
    assert "none of their rows passed the publish gates: pl." in card
    assert "- house-prices/description: rubric score 0 is below publish.min_rubric_score 1" in card
    loaded = load_release(str(release), ["be", "ja", "fr"], tmp_path / "hf-cache")
    assert [row["competition"] for row in loaded["be"]["rows"]] == ["spaceship"]
    assert [row["competition"] for row in loaded["ja"]["rows"]] == ["titanic"]
    assert [row["competition"] for row in loaded["fr"]["rows"]] == ["spaceship", "titanic"]
    assert "(partial)" in curate("releases").output


def test_a_failure_mid_build_leaves_the_previous_release_intact(project: Path, settings, store: Store):
    seed_store(store, settings.project.languages, ["titanic"])
    assert curate("publish", "--version", "1.0.0", "--to", DIST).exit_code == 0
    release = project / DIST
    before = git(release, "rev-parse", "HEAD")
    manifest_before = (release / "manifest.json").read_text(encoding="utf-8")

    seed_store(store, settings.project.languages, ["titanic", "spaceship"], version=2)
    template = project / "cards" / "dataset_card.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\n{% for broken in %}\n", encoding="utf-8")
    result = curate("publish", "--version", "1.1.0", "--to", DIST)

    assert result.exit_code == 1
    assert "dataset_card.md.j2: line" in result.output and f"nothing was published; {DIST} is unchanged" in result.output
    assert git(release, "rev-parse", "HEAD") == before
    assert git(release, "tag", "--list") == "v1.0.0"
    assert git(release, "status", "--porcelain") == ""
    assert (release / "manifest.json").read_text(encoding="utf-8") == manifest_before
    assert [r.version for r in store.releases()] == ["1.0.0"]


def test_a_target_that_is_not_a_release_repository_is_refused(project: Path, settings, store: Store):
    seed_store(store, settings.project.languages, ["titanic"])
    (project / DIST).mkdir(parents=True)
    (project / DIST / "notes.txt").write_text("mine", encoding="utf-8")
    result = curate("publish", "--version", "1.0.0", "--to", DIST)
    assert result.exit_code == 1
    assert "exists and is not a git repository" in result.output
    assert (project / DIST / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_card_and_manifest_name_the_models_and_prompts_of_the_describe_rounds(project: Path, settings, store: Store):
    from curation.records import DescriptionRound

    seed_store(store, settings.project.languages, ["titanic", "spaceship"])
    kept = store.description("titanic").text
    refine_model = "anthropic:claude-3-5-sonnet-latest"
    store.save_description_rounds("titanic", [
        DescriptionRound(competition="titanic", round=1, step="describe", text="A draft naming XGBoost.", grade="A",
                         model="openai:gpt-4o", score_model="openai:gpt-4o", prompt_hash="d" * 64,
                         score_prompt_hash="5" * 64),
        DescriptionRound(competition="titanic", round=2, step="refine", text=kept, grade="D",
                         model=refine_model, score_model="openai:gpt-4o", prompt_hash="f" * 64,
                         score_prompt_hash="5" * 64),
    ])
    for slug in ("titanic", "spaceship"):  # the tag stage records its prompt's hash with each domain
        store.save_domain(store.domain(slug).model_copy(update={"prompt_hash": "7" * 64}))
    # spaceship's stored rounds wrote another text (it was edited since): they did not produce what is published
    store.save_description_rounds("spaceship", [
        DescriptionRound(competition="spaceship", round=1, step="describe", text="An older text.", grade="C",
                         model="openai:gpt-4o-mini", score_model="openai:gpt-4o-mini", prompt_hash="e" * 64)])

    result = curate("publish", "--version", "1.0.0", "--to", DIST)
    assert result.exit_code == 0, result.output

    manifest = json.loads((project / DIST / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["models"]["describe"] == {"openai:gpt-4o": 1}
    assert manifest["models"]["score"] == {"openai:gpt-4o": 1}
    assert manifest["models"]["refine"] == {refine_model: 1}
    assert manifest["models"]["tag"] == {"openai:gpt-4o-mini": 2}
    assert manifest["prompt_hashes"]["describe"] == {"d" * 64: 1}
    assert manifest["prompt_hashes"]["refine"] == {"f" * 64: 1}
    assert manifest["prompt_hashes"]["score"] == {"5" * 64: 1} and manifest["prompt_hashes"]["tag"] == {"7" * 64: 2}
    assert manifest["prompt_hashes"]["translate"] == {"a" * 64: 2 * 3 * (len(settings.project.languages) - 1)}
    card = (project / DIST / "README.md").read_text(encoding="utf-8")
    assert f"- refine: `{refine_model}` (1 text)" in card
    assert "- describe prompt hashes: `dddddddddddd` (1)" in card and "- refine prompt hashes: `ffffffffffff` (1)" in card
    assert "- score prompt hashes: `555555555555` (1)" in card and "- tag prompt hashes: `777777777777` (2)" in card
    assert "eeeeeeeeeeee" not in card


def test_one_language_and_one_competition_are_said_in_the_singular(project: Path):
    """The card and the console say "1 language", "1 competition", never "1 languages"."""
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        'languages = ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"]',
        'languages = ["en", "kk"]'), encoding="utf-8")
    with Store(project / "data" / "curation.sqlite") as store:
        seed_store(store, ["en", "kk"], ["titanic"])

    result = curate("publish", "--version", "1.0.0", "--to", DIST)

    assert result.exit_code == 0, result.output
    assert "(commit " in result.output and "): 2 rows in 2 languages" in result.output
    card = " ".join((project / DIST / "README.md").read_text(encoding="utf-8").split())
    assert "translated into 1 language besides English" in card
    assert "1 competition." in card and "1 competition has a grading configuration" in card
    assert not re.search(r"\b1 (languages|competitions|texts|items|calls|descriptions)\b", card), card
