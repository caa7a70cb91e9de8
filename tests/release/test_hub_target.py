"""Publishing to hf:ORG/NAME through huggingface_hub against the fake Hub API (tests/fakes/hub_api.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from curation.cli import app
from curation.config import load_settings
from curation.store import Store
from tests.release.seeding import seed_store

runner = CliRunner()
REPO = "ml2b-org/ml2b"


def curate(*args: str):
    return runner.invoke(app, list(args))


def drop_language(project: Path, code: str) -> None:
    """Edit curate.toml the way a curator would: take a language out of [project] languages."""
    config = project / "curate.toml"
    text = config.read_text(encoding="utf-8")
    edited = re.sub(rf'^(languages = \[.*?), "{code}"', r"\1", text, count=1, flags=re.M)
    assert edited != text
    config.write_text(edited, encoding="utf-8")


def test_hub_release_creates_the_repo_commits_once_deletes_dropped_files_and_tags(project: Path, fake_hub):
    settings = load_settings(project / "curate.toml")
    with Store(settings.path("store")) as store:
        seed_store(store, settings.project.languages, ["titanic", "spaceship"])

    first = curate("publish", "--version", "1.0.0", "--to", f"hf:{REPO}")
    assert first.exit_code == 0, first.output
    repo = fake_hub.repos[REPO]
    assert repo.repo_type == "dataset" and repo.private is True
    assert len(fake_hub.commit_payloads) == 1  # the whole release is one commit
    v1 = repo.head
    assert repo.tags["v1.0.0"][0] == v1.oid
    assert {"README.md", "manifest.json", "competitions.json", "tasks/Turkish.csv", "tr/test-00000-of-00001.parquet",
            "be/test-00000-of-00001.parquet"} <= set(v1.files)
    manifest = json.loads(v1.files["manifest.json"])
    assert manifest["version"] == "1.0.0" and set(manifest["files"]) | {"manifest.json", ".gitattributes"} == set(v1.files)
    assert b'load_dataset("ml2b-org/ml2b", "kk", split="test", revision="v1.0.0")' in v1.files["README.md"]

    drop_language(project, "tr")
    second = curate("publish", "--version", "1.1.0", "--to", f"hf:{REPO}")
    assert second.exit_code == 0, second.output
    assert len(fake_hub.commit_payloads) == 2
    deleted = {line["value"]["path"] for line in fake_hub.commit_payloads[1] if line["key"] == "deletedFile"}
    assert deleted == {"tr/test-00000-of-00001.parquet", "tasks/Turkish.csv"}
    assert "tasks/Turkish.csv" not in repo.head.files and ".gitattributes" in repo.head.files
    assert repo.tags["v1.1.0"][0] == repo.head.oid and repo.tags["v1.0.0"][0] == v1.oid
    changes = json.loads(repo.head.files["manifest.json"])["changes"]
    assert changes["previous_version"] == "1.0.0" and changes["languages_removed"] == ["tr"]

    again = curate("publish", "--version", "1.1.0", "--to", f"hf:{REPO}")
    assert again.exit_code == 1 and "version 1.1.0 is already published" in again.output
    assert len(fake_hub.commit_payloads) == 2
    assert "hf_fake_write_token" not in json.dumps({path: data.decode("utf-8", "replace")
                                                    for path, data in repo.head.files.items()})


def test_public_flag_and_a_refused_commit(project: Path, fake_hub):
    settings = load_settings(project / "curate.toml")
    with Store(settings.path("store")) as store:
        seed_store(store, settings.project.languages, ["titanic"])

    fake_hub.refuse("commit", 403)
    refused = curate("publish", "--version", "1.0.0", "--to", "hf:ml2b-org/open", "--public")
    assert refused.exit_code == 1
    assert "hf:ml2b-org/open: the Hub refused the release" in refused.output
    assert "nothing was published" in refused.output
    assert fake_hub.repos["ml2b-org/open"].tags == {}

    published = curate("publish", "--version", "1.0.0", "--to", "hf:ml2b-org/open", "--public")
    assert published.exit_code == 0, published.output
    assert fake_hub.repos["ml2b-org/open"].private is False
    assert "v1.0.0" in fake_hub.repos["ml2b-org/open"].tags


def test_without_a_token_the_hub_target_says_what_to_set(project: Path, settings, store: Store):
    seed_store(store, settings.project.languages, ["titanic"])
    result = curate("publish", "--version", "1.0.0", "--to", f"hf:{REPO}")
    assert result.exit_code == 1
    assert "HF_TOKEN is not set" in result.output
    bad = curate("publish", "--version", "1.0.0", "--to", "hf:not a repo")
    assert bad.exit_code == 1 and "a Hub target is hf:ORG/NAME" in bad.output


def test_a_refused_tag_is_added_by_running_the_command_again(project: Path, fake_hub):
    settings = load_settings(project / "curate.toml")
    with Store(settings.path("store")) as store:
        seed_store(store, settings.project.languages, ["titanic"])

    fake_hub.refuse("tag", 403)
    first = curate("publish", "--version", "1.0.0", "--to", f"hf:{REPO}")
    assert first.exit_code == 1
    assert "was committed" in first.output and "run the same command again to tag it" in first.output
    assert fake_hub.repos[REPO].tags == {}

    again = curate("publish", "--version", "1.0.0", "--to", f"hf:{REPO}")
    assert again.exit_code == 0, again.output
    repo = fake_hub.repos[REPO]
    assert len(fake_hub.commit_payloads) == 1  # nothing changed, so no second commit
    assert repo.tags["v1.0.0"][0] == repo.head.oid


def test_a_fresh_store_diffs_against_the_manifest_on_the_hub(project: Path, fake_hub):
    settings = load_settings(project / "curate.toml")
    with Store(settings.path("store")) as store:
        seed_store(store, settings.project.languages, ["titanic"])
    assert curate("publish", "--version", "1.0.0", "--to", f"hf:{REPO}").exit_code == 0

    # Another machine: a new store with the next round's texts and no record of v1.0.0.
    config = project / "curate.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('store = "data/curation.sqlite"',
                                                                 'store = "data/elsewhere.sqlite"'), encoding="utf-8")
    settings = load_settings(config)
    with Store(settings.path("store")) as store:
        seed_store(store, settings.project.languages, ["titanic", "spaceship"], version=2)
    second = curate("publish", "--version", "1.1.0", "--to", f"hf:{REPO}")
    assert second.exit_code == 0, second.output
    changes = json.loads(fake_hub.repos[REPO].head.files["manifest.json"])["changes"]
    assert changes["previous_version"] == "1.0.0" and changes["competitions_added"] == ["spaceship"]
    assert changes["languages"]["be"]["texts_changed"] == ["titanic/description", "titanic/data_card", "titanic/domain"]
