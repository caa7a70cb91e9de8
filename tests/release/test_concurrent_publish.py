"""Two `curate publish` at once to one folder (issue 27): real processes, made to overlap at a chosen step rather
than by timing luck. One publishes; the other is refused in one line and exits 2; the folder is then a valid
release history (every tag on the branch, the branch at the newest, files as the manifest says) and the store lists
exactly what the folder holds. A version at or below the newest is refused, and a rollback never undoes what
someone else did to the folder meanwhile.

How a process is stopped at a step: a reference-transaction hook (given to that process alone through
GIT_CONFIG_*) or a `git` wrapper first on its PATH writes to one FIFO and waits on another until the test lets it
go, so the test knows the process is exactly there while the other command runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import select
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.release.version import parse_version
from curation.store import Store
from tests.release.seeding import seed_store

REPO = Path(__file__).resolve().parents[2]
DIST = "dist/ml2b"
BUSY = (f"{DIST}: another `curate publish` is writing a release there right now, so this command published nothing; "
        "when it has finished, check `curate releases` and publish a version above the newest")


def curate(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "300"})


def git(repo: Path, *args: str, check: bool = True) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=check).stdout.strip()


class Pause:
    """Stops one process at one step: it writes to `entered` and blocks reading `resume` until released."""

    def __init__(self, folder: Path):
        folder.mkdir(parents=True)
        self.folder = folder
        self.entered, self.resume = folder / "entered", folder / "resume"
        os.mkfifo(self.entered)
        os.mkfifo(self.resume)

    def shell(self) -> str:
        """Shell lines that stop here the first time they run."""
        return (f'if mkdir "{self.folder}/passed" 2>/dev/null; then echo in > "{self.entered}"; '
                f'cat "{self.resume}" > /dev/null; fi')

    def reached(self, process: subprocess.Popen) -> None:
        """Return once `process` is stopped here; fail if it ends first."""
        reader = os.open(self.entered, os.O_RDONLY | os.O_NONBLOCK)
        try:
            # A FIFO turns readable once the paused process has written to it; the short timeout only lets the
            # loop notice a process that ended without getting here.
            while not select.select([reader], [], [], 0.05)[0]:
                if process.poll() is not None:
                    out, err = process.communicate()
                    pytest.fail(f"the process ended before its pause (exit {process.returncode}): {out}{err}")
        finally:
            os.close(reader)

    def release(self) -> None:
        with open(self.resume, "w"):
            pass


def hook_pausing_at(pause: Pause, ref_pattern: str, folder: Path) -> dict[str, str]:
    """Environment that makes one process's git stop when it is about to change a ref matching `ref_pattern`."""
    folder.mkdir(parents=True)
    hook = folder / "reference-transaction"
    hook.write_text(f'#!/bin/sh\n[ "$1" = prepared ] || exit 0\nwhile read -r old new ref; do\n'
                    f'  case "$ref" in {ref_pattern}) {pause.shell()} ;; esac\ndone\nexit 0\n')
    hook.chmod(0o755)
    return {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.hooksPath", "GIT_CONFIG_VALUE_0": str(folder)}


def git_pausing_after_tag_list(pause: Pause, folder: Path) -> dict[str, str]:
    """Environment whose `git` answers the first `git -C <repo> tag --list` (the versions a publish starts from),
    then stops."""
    folder.mkdir(parents=True)
    real = shutil.which("git")
    wrapper = folder / "git"
    wrapper.write_text(f'#!/bin/sh\nif [ "$3" = tag ] && [ "$4" = --list ]; then\n  "{real}" "$@"; status=$?\n'
                       f'  {pause.shell()}\n  exit $status\nfi\nexec "{real}" "$@"\n')
    wrapper.chmod(0o755)
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


@pytest.fixture
def start(project: Path):
    """start(version, **env) -> a running `curate publish --version V --to dist/ml2b` process; all ended at teardown."""
    started: list[subprocess.Popen] = []

    def run(version: str, **env: str) -> subprocess.Popen:
        process = subprocess.Popen(
            [sys.executable, "-c", "from curation.cli import main; main()", "publish", "--version", version,
             "--to", DIST], cwd=project, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "300", **env})
        started.append(process)
        return process

    yield run
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait()


def finished(process: subprocess.Popen) -> tuple[int, list[str], list[str]]:
    out, err = process.communicate(timeout=300)
    return process.returncode, out.splitlines(), err.splitlines()


@pytest.fixture
def seeded(project: Path, store: Store) -> Path:
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        'languages = ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"]',
        'languages = ["en", "kk"]'), encoding="utf-8")
    seed_store(store, ["en", "kk"], ["titanic", "spaceship"])
    return project


def assert_one_valid_history(repo: Path, store: Store) -> list[str]:
    """Every release tag on the branch in version order, the branch at the newest, its files as its manifest says,
    and the store's list of releases the same as the folder's; returns the versions."""
    tags = {tag: git(repo, "rev-parse", f"{tag}^{{commit}}") for tag in git(repo, "tag", "--list").split()}
    versions = sorted(tags, key=parse_version)
    assert versions, "no release at all"
    assert git(repo, "rev-parse", "HEAD") == tags[versions[-1]]
    for older, newer in zip(versions, versions[1:]):
        assert git(repo, "merge-base", "--is-ancestor", tags[older], tags[newer], check=False) == ""
        assert git(repo, "rev-parse", f"{tags[newer]}^") == tags[older]  # one commit per release, none between
    assert git(repo, "rev-list", "--count", "HEAD") == str(len(versions))
    assert git(repo, "status", "--porcelain") == ""
    manifest = json.loads((repo / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["version"] == versions[-1].removeprefix("v")
    assert manifest["files"] == {relative: hashlib.sha256((repo / relative).read_bytes()).hexdigest()
                                 for relative in git(repo, "ls-files").splitlines() if relative != "manifest.json"}
    assert {f"v{release.version}": release.commit for release in store.releases()} == tags
    return [version.removeprefix("v") for version in versions]


PAIRS = {
    # name: (released before, the winner's version and the ref it is stopped at, the loser's version,
    #        what the loser's second try says once the winner is done)
    "the same version into an empty folder": ([], "1.0.0", "refs/heads/*", "1.0.0", "is already published"),
    "two versions into an empty folder": ([], "1.0.0", "refs/tags/*", "1.1.0", "published v1.1.0"),
    "two newer versions over v1.0.0": (["1.0.0"], "1.1.0", "refs/heads/*", "1.2.0", "published v1.2.0"),
    "a newer and an older version over v1.0.0": (["1.0.0"], "1.2.0", "refs/tags/*", "1.1.0",
                                                 "version 1.1.0 is below the newest release there, v1.2.0"),
}


@pytest.mark.parametrize("name", PAIRS)
def test_a_publish_that_starts_while_another_writes_is_refused_in_one_line(name, seeded, store, start, tmp_path):
    before, winner_version, ref, loser_version, second_try = PAIRS[name]
    for version in before:
        assert curate("publish", "--version", version, "--to", DIST).exit_code == 0
    pause = Pause(tmp_path / "pause")
    winner = start(winner_version, **hook_pausing_at(pause, ref, tmp_path / "hooks"))
    pause.reached(winner)  # the winner holds the folder, stopped inside its git transaction

    loser = finished(start(loser_version))
    pause.release()
    winner = finished(winner)

    assert winner[0] == 0, winner
    assert loser == (2, [], [BUSY])
    assert assert_one_valid_history(seeded / DIST, store) == [*before, winner_version]
    again = curate("publish", "--version", loser_version, "--to", DIST)
    assert second_try in again.output, again.output
    assert assert_one_valid_history(seeded / DIST, store)[-1] == max([winner_version, loser_version], key=parse_version)


def test_a_release_published_while_another_was_being_built_refuses_the_other(seeded, store, start, tmp_path):
    assert curate("publish", "--version", "1.0.0", "--to", DIST).exit_code == 0
    pause = Pause(tmp_path / "pause")
    loser = start("1.2.0", **git_pausing_after_tag_list(pause, tmp_path / "bin"))
    pause.reached(loser)  # it has read the folder's versions (v1.0.0) and will build on them

    winner = finished(start("1.1.0"))
    pause.release()
    loser = finished(loser)

    assert winner[0] == 0, winner
    # Its card and manifest would say "since v1.0.0", and v1.1.0's changes would be missing from them.
    assert loser == (2, [], [f"{DIST}: v1.1.0 was published there while this release was being built, so this "
                             "command published nothing; check `curate releases` and publish again with a version "
                             "above 1.1.0"])
    assert assert_one_valid_history(seeded / DIST, store) == ["1.0.0", "1.1.0"]
    again = curate("publish", "--version", "1.2.0", "--to", DIST)
    assert again.exit_code == 0 and "since v1.1.0:" in again.output, again.output
    assert assert_one_valid_history(seeded / DIST, store) == ["1.0.0", "1.1.0", "1.2.0"]


def test_a_version_at_or_below_the_newest_is_refused_in_one_line(seeded, store):
    assert curate("publish", "--version", "1.1.0", "--to", DIST).exit_code == 0

    lower = curate("publish", "--version", "1.0.0", "--to", DIST)

    assert lower.exit_code == 1
    assert lower.output.strip().splitlines() == [
        f"{DIST}: version 1.0.0 is below the newest release there, v1.1.0; releases only move forward, publish a "
        "version above 1.1.0"]
    same = curate("publish", "--version", "1.1.0", "--to", DIST)
    assert same.exit_code == 1 and len(same.output.strip().splitlines()) == 1, same.output
    assert assert_one_valid_history(seeded / DIST, store) == ["1.1.0"]


def test_a_version_below_the_newest_on_the_hub_is_refused(seeded, fake_hub):
    assert curate("publish", "--version", "2.0.0", "--to", "hf:my-org/ml2b").exit_code == 0

    lower = curate("publish", "--version", "1.5.0", "--to", "hf:my-org/ml2b")

    assert lower.exit_code == 1
    assert lower.output.strip().splitlines() == [
        "hf:my-org/ml2b: version 1.5.0 is below the newest release there, v2.0.0; releases only move forward, "
        "publish a version above 2.0.0"]


def test_a_rollback_leaves_what_someone_else_did_meanwhile(seeded, store):
    assert curate("publish", "--version", "1.0.0", "--to", DIST).exit_code == 0
    repo = seeded / DIST
    first = git(repo, "rev-parse", "HEAD")
    # Someone else's commit (a hand edit, a tool that does not take the folder's lock) ...
    theirs = git(repo, "commit-tree", f"{first}^{{tree}}", "-p", first, "-m", "someone else's commit")
    # ... lands while this publish creates its tag, and the tag is refused: the rollback must not undo it.
    hook = repo / ".git" / "hooks" / "reference-transaction"
    hook.write_text(f'#!/bin/sh\n[ "$1" = prepared ] || exit 0\nwhile read -r old new ref; do\n'
                    f'  [ "$ref" = refs/tags/v1.1.0 ] && git update-ref HEAD {theirs} && exit 1\ndone\nexit 0\n')
    hook.chmod(0o755)

    result = curate("publish", "--version", "1.1.0", "--to", DIST)

    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines()[-1] == (
        f"v1.1.0 was not published; {DIST} was changed by someone else meanwhile (HEAD is at commit {theirs[:12]}), "
        f"so it was left as it is; look at it with git -C {DIST} log --oneline --decorate -3")
    assert git(repo, "rev-parse", "HEAD") == theirs
    assert git(repo, "tag", "--list") == "v1.0.0"
    assert [release.version for release in store.releases()] == ["1.0.0"]
