"""A local release repository: each release is one git commit on the current branch plus an annotated tag.

The commit is built from the release folder with git plumbing (a private index, write-tree, commit-tree) and
the branch moves only once the commit exists, so a failure at any point leaves the previous release checked out.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

from curation.release.targets import PublishError
from curation.release.version import Version, versions_from_tags

# Used only when the machine has no git identity configured.
FALLBACK_IDENTITY = {"GIT_AUTHOR_NAME": "curation", "GIT_AUTHOR_EMAIL": "curation@localhost",
                     "GIT_COMMITTER_NAME": "curation", "GIT_COMMITTER_EMAIL": "curation@localhost"}


class LocalGitTarget:
    def __init__(self, name: str, path: Path):
        self.name = name
        self.path = path
        self.load_path = str(path)

    def _git(self, *args: str, env: dict | None = None, check: bool = True, cwd: Path | None = None) -> str:
        where = [] if cwd else ["-C", str(self.path)]
        try:
            result = subprocess.run(["git", *where, *args], capture_output=True, text=True, cwd=cwd,
                                    env={**os.environ, **(env or {})})
        except FileNotFoundError:
            raise PublishError(f"{self.path}: git is not installed; install git to publish to a folder, or "
                               "publish to hf:ORG/NAME") from None
        if check and result.returncode != 0:
            detail = (result.stderr or result.stdout).strip().splitlines()
            raise PublishError(f"{self.path}: git {args[0]} failed: {detail[-1] if detail else 'no output'}")
        return result.stdout.strip()

    def _is_repository(self) -> bool:
        return (self.path / ".git").exists()

    def versions(self) -> list[Version]:
        if not self._is_repository():
            return []
        return versions_from_tags(self._git("tag", "--list").splitlines())

    def read_manifest(self, version: Version) -> dict | None:
        if not self._is_repository():
            return None
        text = self._git("show", f"{version.tag}:manifest.json", check=False)
        try:
            return json.loads(text) if text else None
        except json.JSONDecodeError:
            return None

    def _prepare(self) -> None:
        if self.path.exists() and not self.path.is_dir():
            raise PublishError(f"{self.path}: is a file; give --to a folder for the release repository")
        if self.path.exists() and any(self.path.iterdir()) and not self._is_repository():
            raise PublishError(f"{self.path}: exists and is not a git repository; pick an empty or new folder")
        if not self._is_repository():
            self.path.mkdir(parents=True, exist_ok=True)
            self._git("init", "--quiet")
        if self._git("status", "--porcelain"):
            raise PublishError(f"{self.path}: has uncommitted changes; commit or remove them before publishing")

    def _identity(self) -> dict:
        configured = self._git("config", "user.email", check=False)
        return {} if configured else dict(FALLBACK_IDENTITY)

    def publish(self, folder: Path, version: Version, message: str) -> str:
        self._prepare()
        env = self._identity()
        parent = self._git("rev-parse", "--quiet", "--verify", "HEAD", check=False)
        with tempfile.TemporaryDirectory(prefix="curation-index-") as scratch:
            # A private index over the release folder: the repository's own index and files stay untouched.
            staging = {**env, "GIT_DIR": str((self.path / ".git").resolve()), "GIT_WORK_TREE": str(folder.resolve()),
                       "GIT_INDEX_FILE": str(Path(scratch) / "index")}
            self._git("add", "--all", env=staging, cwd=folder)
            tree = self._git("write-tree", env=staging, cwd=folder)
        commit = self._git("commit-tree", tree, *(["-p", parent] if parent else []), "-m", message, env=env)
        self._git("update-ref", "-m", f"publish {version.tag}", "HEAD", commit, *([parent] if parent else []))
        try:
            self._git("tag", "--annotate", version.tag, "--message", message, commit, env=env)
        except PublishError:
            # Without its tag the commit is not a release: move the branch back.
            if parent:
                self._git("update-ref", "HEAD", parent, commit)
            else:
                self._git("update-ref", "-d", "HEAD", commit)
            raise
        # Bring the checked-out files to the new release (files the release dropped are removed).
        self._git("read-tree", "--reset", "-u", "HEAD")
        return commit
