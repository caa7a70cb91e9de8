"""Where a release goes: a local git repository (a path) or a Hugging Face dataset repository (hf:ORG/NAME)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Protocol

from curation.release.version import Version

_REPO_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*$")


class PublishError(Exception):
    """A release could not be written to its target; the message says where and what to do.

    target_changed: the target already holds part of the release (e.g. a Hub commit without its tag).
    state: when set, one line saying exactly what the target was left as (after a rollback, say).
    exit_code: what the command exits with.
    """

    def __init__(self, message: str, target_changed: bool = False, state: str | None = None, exit_code: int = 1):
        super().__init__(message)
        self.target_changed = target_changed
        self.state = state
        self.exit_code = exit_code  # 2: the target itself is unusable (a path that cannot be written)


class Target(Protocol):
    name: str  # as the curator wrote it; releases are recorded under it
    load_path: str  # what downstream users pass to load_dataset

    def versions(self) -> list[Version]:
        """Release versions already at the target, oldest first."""

    def read_manifest(self, version: Version) -> dict | None:
        """manifest.json of a published version, or None when the target cannot tell."""

    def publish(self, folder: Path, version: Version, message: str) -> str:
        """Make `folder` the target's new content as one commit tagged version.tag; return the commit id."""


def open_target(text: str, *, public: bool = False, token: str | None = None) -> Target:
    """A target from --to: 'hf:ORG/NAME' for the Hub, anything else a local folder."""
    if text.startswith("hf:"):
        from curation.release.hub_target import HubTarget

        repo_id = text.removeprefix("hf:")
        if not _REPO_ID.match(repo_id):
            raise PublishError(f"--to {text}: a Hub target is hf:ORG/NAME, e.g. hf:my-org/ml2b")
        return HubTarget(text, repo_id, public=public, token=token)
    from curation.release.local_target import LocalGitTarget

    return LocalGitTarget(text, Path(text))
