"""The runs are joined with the release `curate publish` published, found by its version: from a local release
repository (git, at the version's tag) or from the Hub; the harness's language names, "Ukranian" included."""

from __future__ import annotations

from pathlib import Path

from curation.config import load_settings
from curation.store import Store
from tests.release.seeding import seed_store
from tests.results.conftest import curate, json_lines
from tests.results.harness_runs import write_run

SLUGS = ["house-prices", "spaceship", "titanic"]
WITH_UKRAINIAN = 'languages = ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr", "uk"]'


def published(project: Path, to: str) -> None:
    """The sample project with Ukrainian added, seeded as merge leaves it and published as 1.0.0 to `to`."""
    config = project / "curate.toml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        'languages = ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"]', WITH_UKRAINIAN),
        encoding="utf-8")
    settings = load_settings(config)
    with Store(settings.path("store")) as store:
        seed_store(store, settings.project.languages, SLUGS)
    result = curate("publish", "--version", "1.0.0", "--to", to)
    assert result.exit_code == 0, result.output


def some_runs(logs: Path) -> None:
    for slug in SLUGS:
        for language in ("en", "uk", "be", "ar"):
            write_run(logs, slug, language, "success", seed=len(slug) + len(language))
    write_run(logs, "titanic", "uk", "runtime_error", fold=1)


def test_runs_join_the_release_published_to_a_folder_by_its_version(project):
    published(project, "dist/ml2b")
    some_runs(project / "logs" / "aide")
    # The release folder moves on after the tag (someone edits it): the join reads the tagged release.
    (project / "dist" / "ml2b" / "competitions.json").write_text("{}", encoding="utf-8")

    result = curate("results", "logs/aide", "--release", "v1.0.0", "--json")

    assert result.exit_code == 0, result.output
    runs, summary = json_lines(result)
    assert summary["release"] == "v1.0.0 (dist/ml2b)"
    assert {run["language"] for run in runs} == {"en", "uk", "be", "ar"}
    uk = {run["run"]: run["error_class"] for run in runs if run["language"] == "uk"}
    assert uk == {"house-prices-Ukranian-python-0": "success", "spaceship-Ukranian-python-0": "success",
                  "titanic-Ukranian-python-0": "success", "titanic-Ukranian-python-1": "runtime_error"}
    table = (project / "reports" / "results_runs.csv").read_text(encoding="utf-8")
    assert ",finance,tabular,Playground,roc_auc_score,maximize" in table


def test_without_release_the_newest_published_is_joined(project):
    published(project, "dist/ml2b")
    some_runs(project / "logs" / "aide")

    result = curate("results", "logs/aide", "--json")

    assert result.exit_code == 0, result.output
    assert json_lines(result)[1]["release"] == "v1.0.0 (dist/ml2b)"


def test_a_release_on_the_hub_is_read_at_its_tag(project, fake_hub):
    published(project, "hf:ml2b-org/ml2b")
    some_runs(project / "logs" / "react")

    result = curate("results", "logs/react", "--release", "1.0.0", "--json")

    assert result.exit_code == 0, result.output
    runs, summary = json_lines(result)
    assert summary["release"] == "v1.0.0 (hf:ml2b-org/ml2b)" and len(runs) == 13


def test_a_version_never_published_is_one_line(project):
    published(project, "dist/ml2b")

    result = curate("results", "logs", "--release", "2.0.0")

    assert result.exit_code == 2
    assert result.stderr.strip() == ("error: --release 2.0.0: this store published no such version (it published "
                                     "v1.0.0); `curate releases` lists them, or give --from PATH")


def test_with_no_release_at_all_it_says_what_to_do(project):
    (project / "logs").mkdir()

    result = curate("results", "logs")

    assert result.exit_code == 2
    assert result.stderr.strip().startswith("error: no release to join the runs with: this store has published none; "
                                            "publish one (`curate publish --version 1.0.0 --to dist/ml2b`) or give "
                                            "--from PATH")


def test_the_harness_own_competitions_folder_serves_as_a_release(project):
    """enaix/ml2b's competitions/: competitions.json and tasks/<Language>.csv, no manifest."""
    folder = project / "ml2b" / "competitions"
    (folder / "tasks").mkdir(parents=True)
    (folder / "competitions.json").write_text(
        '{"titanic": {"metric": "roc_auc_score", "target_col": "Survived", "direction": "maximize", "cv_folds": 3},'
        ' "ieor-242-nyc-taxi": {"metric": "root_mean_squared_error", "target_col": "duration", '
        '"direction": "minimize", "cv_folds": 3}}', encoding="utf-8")
    for name in ("English", "Belarus", "Ukranian"):
        (folder / "tasks" / f"{name}.csv").write_text(
            "comp_name,comp-id,description,domain,metric\nTitanic,titanic,…,transport,ROC AUC\n"
            "NYC taxi,ieor-242-nyc-taxi,…,urban planning,RMSE\n", encoding="utf-8")
    for language in ("en", "be", "uk"):
        write_run(project / "logs" / "aide", "titanic", language, "success", seed=len(language))

    result = curate("results", "logs/aide", "--from", str(folder), "--json")

    assert result.exit_code == 0, result.output
    runs, summary = json_lines(result)
    assert summary["release"] == str(folder) and {run["language"] for run in runs} == {"en", "be", "uk"}
