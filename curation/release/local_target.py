"""A local release repository: each release is one git commit on the current branch plus an annotated tag.

The commit is built from the release folder with git plumbing (a private index, write-tree, commit-tree); then
the branch moves, the checked-out files follow, and the tag is created last. A failure at any step after the
commit restores HEAD, the index and the files and deletes a tag this attempt made, so the previous release stays
checked out, and the error says exactly what state the folder was left in.

One command at a time: `lock()` holds an exclusive lock on the folder itself (flock on the directory, so no lock
file is left behind and a killed process releases it), and a second command is refused at once rather than
queued, since its release would have been built against the releases it saw before.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows has none: there a second command is not kept out
    fcntl = None  # type: ignore[assignment]

from curation.excerpt import plural
from curation.release.errors import PublishError, TargetBusy
from curation.release.manifest import MANIFEST
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
        text = self.read_file(version, MANIFEST)
        try:
            return json.loads(text) if text else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            return None

    def read_file(self, version: Version, path: str) -> bytes | None:
        if not self._is_repository():
            return None
        try:
            result = subprocess.run(["git", "-C", str(self.path), "show", f"{version.tag}:{path}"], capture_output=True)
        except FileNotFoundError:
            return None  # no git: nothing can be read from the repository
        return result.stdout if result.returncode == 0 else None

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Create the folder if needed and hold it for this command; TargetBusy when another command holds it."""
        try:
            if self.path.exists() and not self.path.is_dir():
                raise PublishError(f"{self.path}: is a file; give --to a folder for the release repository",
                                   exit_code=2)
            self.path.mkdir(parents=True, exist_ok=True)  # two commands may both create it: exist_ok
            handle = os.open(self.path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        except OSError as error:
            raise self._unusable(error) from None
        try:
            if fcntl is not None:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise TargetBusy(f"{self.path}: another `curate publish` is writing a release there right now, "
                                     "so this command published nothing; when it has finished, check `curate releases` "
                                     "and publish a version above the newest") from None
            yield
        finally:
            os.close(handle)  # releases the lock

    def _unusable(self, error: OSError) -> PublishError:
        return PublishError(f"{self.path}: cannot create or read the release folder ({error.strerror or error}); "
                            "give --to a folder you can write to", exit_code=2)

    def _prepare(self) -> None:
        try:
            if self.path.exists() and any(self.path.iterdir()) and not self._is_repository():
                raise PublishError(f"{self.path}: exists and is not a git repository; pick an empty or new folder")
            self._refuse_unwritable()
            if not self._is_repository():
                self.path.mkdir(parents=True, exist_ok=True)
                self._git("init", "--quiet")
        except OSError as error:
            raise self._unusable(error) from None
        if self._git("status", "--porcelain"):
            raise PublishError(f"{self.path}: has uncommitted changes; commit or remove them before publishing")

    def _refuse_unwritable(self) -> None:
        # Found before git writes anything, so a read-only or immutable folder is a setup error (exit 2), not a
        # failed git step halfway through a release.
        git = self.path / ".git"
        for folder in (self.path, git, git / "objects", git / "refs" / "heads", git / "refs" / "tags"):
            if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
                shown = "the release folder" if folder == self.path else f"its {folder.relative_to(self.path)}"
                raise PublishError(f"{self.path}: {shown} cannot be written (read-only or immutable); give --to a "
                                   "folder you can write to, or make it writable", exit_code=2)

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
        # Until here only objects were written, which nothing refers to. From here it is a transaction: HEAD moves,
        # the index and files follow, and the tag comes last, so a tag always names a release that was written
        # whole. Any failure puts HEAD, index and files back and deletes a tag this attempt made.
        try:
            # The expected old value ("" for none yet) makes git refuse to move a HEAD someone else moved meanwhile.
            self._git("update-ref", "-m", f"publish {version.tag}", "HEAD", commit, parent)
            # Bring the checked-out files to the new release (files the release dropped are removed).
            self._git("read-tree", "--reset", "-u", "HEAD")
            self._git("tag", "--annotate", version.tag, "--message", message, commit, env=env)
        except BaseException as error:
            state = self._roll_back(parent, commit, version)
            if isinstance(error, PublishError):
                raise PublishError(str(error), target_changed=True, state=state) from None
            raise
        return commit

    def _roll_back(self, parent: str, commit: str, version: Version) -> str:
        """Undo a publish that failed after its commit; return one line saying exactly what state the folder is in.

        Only what this attempt did is undone: a HEAD that is no longer this attempt's commit, or a tag on another
        commit, belongs to someone else and stays.
        """
        undone = []
        if self._rev(f"refs/tags/{version.tag}^{{commit}}") == commit:
            self._git("tag", "--delete", version.tag, check=False)  # made by this attempt: versions() had no such tag
        head = self._rev("HEAD")
        if head not in (commit, parent):
            return (f"{version.tag} was not published; {self.path} was changed by someone else meanwhile (HEAD is at "
                    f"{self._describe(head) if head else 'no commit'}), so it was left as it is; look at it with "
                    f"git -C {self.path} log --oneline --decorate -3")
        if head == commit and parent:
            # reset --hard rewrites every file that differs from the previous release, even one half-written.
            self._git("reset", "--quiet", "--hard", parent, check=False)
        elif head == commit:
            self._git("update-ref", "-d", "HEAD", commit, check=False)
            self._git("read-tree", "--empty", check=False)
        if head == commit:
            # The folder was clean before (_prepare) and is locked, so untracked files are files this attempt added.
            self._git("clean", "--quiet", "--force", "-d", check=False)
        head = self._rev("HEAD")
        if self._rev(f"refs/tags/{version.tag}^{{commit}}") == commit:
            undone.append(f"tag {version.tag} exists (delete it: git -C {self.path} tag -d {version.tag})")
        if head != parent:
            back = f"git -C {self.path} reset --hard {parent[:12]}" if parent else f"git -C {self.path} update-ref -d HEAD"
            undone.append(f"HEAD is at the unpublished commit {head[:12]} (move it back: {back})")
        dirty = self._git("status", "--porcelain", check=False).splitlines()
        if dirty:
            undone.append(f"{plural(len(dirty), 'file')} {'differs' if len(dirty) == 1 else 'differ'} from the previous release (first: {dirty[0][3:]}; "
                          f"restore them: git -C {self.path} reset --hard && git -C {self.path} clean -fd)")
        if undone:
            return f"{version.tag} was not published, but {self.path} could not be fully restored: " + "; ".join(undone)
        was = self._describe(parent) if parent else "an empty repository, as before"
        return (f"nothing was published; {self.path} is back as it was ({was}): no tag {version.tag}, HEAD, index "
                "and files restored")

    def _rev(self, name: str) -> str:
        """The commit a name points to, or '' when there is none."""
        return self._git("rev-parse", "--quiet", "--verify", name, check=False)

    def _describe(self, commit: str) -> str:
        """A commit as its release tag when it has one."""
        tag = self._git("describe", "--tags", "--exact-match", commit, check=False)
        return f"{tag}, commit {commit[:12]}" if tag else f"commit {commit[:12]}"
