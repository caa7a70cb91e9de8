"""Publish to a folder is a transaction across the files, the commit and the tag: a failure after the commit (a
git hook refusing the tag) or while writing the files (a file that cannot be replaced) leaves the folder exactly
as it was, says so, and the same version can be published once the cause is gone."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.store import Store
from tests.release.seeding import seed_store
from tests.unwritable import unwritable

DIST = "dist/ml2b"


def curate(*args: str):
    return CliRunner().invoke(app, list(args))


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout.strip()


def refuse_tag(repo: Path, tag: str) -> Path:
    """A reference-transaction hook that aborts the creation of `tag`, as a server-side policy or a full disk would."""
    hook = repo / ".git" / "hooks" / "reference-transaction"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text(f'#!/bin/sh\n[ "$1" = prepared ] || exit 0\n'
                    f'while read old new ref; do [ "$ref" = refs/tags/{tag} ] && exit 1; done\nexit 0\n')
    hook.chmod(0o755)
    return hook


def snapshot(repo: Path) -> dict:
    files = {str(path.relative_to(repo)): path.read_bytes() for path in repo.rglob("*")
             if path.is_file() and ".git" not in path.relative_to(repo).parts}
    return {"head": git(repo, "rev-parse", "HEAD"), "tags": git(repo, "tag", "--list"),
            "status": git(repo, "status", "--porcelain"), "files": files}


@pytest.fixture
def first_release(project: Path, settings, store: Store) -> Path:
    seed_store(store, settings.project.languages, ["titanic"])
    assert curate("publish", "--version", "1.0.0", "--to", DIST).exit_code == 0
    seed_store(store, settings.project.languages, ["titanic", "spaceship"], version=2)
    return project / DIST


def test_a_tag_refused_after_the_commit_restores_head_index_and_files(first_release: Path, store: Store):
    before = snapshot(first_release)
    hook = refuse_tag(first_release, "v1.1.0")

    result = curate("publish", "--version", "1.1.0", "--to", DIST)

    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert "git tag failed" in lines[-2]
    assert lines[-1] == (f"nothing was published; {DIST} is back as it was (v1.0.0, commit {before['head'][:12]}): "
                         "no tag v1.1.0, HEAD, index and files restored")
    assert snapshot(first_release) == before
    assert [release.version for release in store.releases()] == ["1.0.0"]

    hook.unlink()
    again = curate("publish", "--version", "1.1.0", "--to", DIST)
    assert again.exit_code == 0, again.output
    assert git(first_release, "tag", "--list") == "v1.0.0\nv1.1.0"
    assert git(first_release, "status", "--porcelain") == ""
    assert [release.version for release in store.releases()] == ["1.0.0", "1.1.0"]


def test_a_file_that_cannot_be_replaced_while_writing_restores_the_previous_release(first_release: Path, store: Store):
    before = snapshot(first_release)
    stuck = first_release / "manifest.json"  # every release rewrites it
    undo = unwritable(stuck)
    try:
        result = curate("publish", "--version", "1.1.0", "--to", DIST)
    finally:
        undo()

    assert result.exit_code == 1, result.output
    assert "git read-tree failed" in result.output
    assert result.output.strip().splitlines()[-1].startswith(f"nothing was published; {DIST} is back as it was (v1.0.0")
    assert snapshot(first_release) == before
    assert [release.version for release in store.releases()] == ["1.0.0"]
    assert curate("publish", "--version", "1.1.0", "--to", DIST).exit_code == 0


def test_a_first_release_that_fails_leaves_an_empty_repository(project: Path, settings, store: Store):
    seed_store(store, settings.project.languages, ["titanic"])
    repo = project / DIST
    repo.mkdir(parents=True)
    git(repo, "init", "--quiet")
    refuse_tag(repo, "v1.0.0")

    result = curate("publish", "--version", "1.0.0", "--to", DIST)

    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines()[-1] == (
        f"nothing was published; {DIST} is back as it was (an empty repository, as before): no tag v1.0.0, HEAD, "
        "index and files restored")
    assert sorted(path.name for path in repo.iterdir()) == [".git"]
    assert git(repo, "status", "--porcelain") == "" and git(repo, "tag", "--list") == ""

