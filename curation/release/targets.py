"""Where a release goes: a local git repository (a path) or a Hugging Face dataset repository (hf:ORG/NAME)."""

from __future__ import annotations

import re
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

from curation.project_paths import stored_target
from curation.release.errors import PublishError
from curation.release.local_target import LocalGitTarget
from curation.release.version import Version

_REPO_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*$")


class Target(Protocol):
    name: str  # releases are recorded under it: hf:ORG/NAME, or the folder relative to the project root when inside it
    load_path: str  # what downstream users pass to load_dataset

    def versions(self) -> list[Version]:
        """Release versions already at the target, oldest first."""

    def read_manifest(self, version: Version) -> dict | None:
        """manifest.json of a published version, or None when the target cannot tell."""

    def read_file(self, version: Version, path: str) -> bytes | None:
        """A file of a published version (a path inside the release), or None when it has no such file."""

    def lock(self) -> AbstractContextManager[None]:
        """Hold the target for this command while it checks the versions and publishes; TargetBusy when another
        command holds it."""

    def publish(self, folder: Path, version: Version, message: str) -> str:
        """Make `folder` the target's new content as one commit tagged version.tag; return the commit id."""


def open_target(text: str, *, public: bool = False, token: str | None = None, root: Path | None = None) -> Target:
    """A target from --to: 'hf:ORG/NAME' for the Hub, anything else a local folder (recorded relative to the
    project `root` when inside it)."""
    if text.startswith("hf:"):
        # Imported here, not at the top: huggingface_hub takes a while to load and a folder target never needs it.
        from curation.release.hub_target import HubTarget

        repo_id = text.removeprefix("hf:")
        if not _REPO_ID.match(repo_id):
            raise PublishError(f"--to {text}: a Hub target is hf:ORG/NAME, e.g. hf:my-org/ml2b")
        return HubTarget(text, repo_id, public=public, token=token)
    return LocalGitTarget(stored_target(text, root) if root is not None else text, Path(text))
