"""A Hugging Face dataset repository: the release goes up as one commit (dropped files deleted) and one tag."""

from __future__ import annotations

import json
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi, get_session, hf_hub_url
from huggingface_hub.errors import HfHubHTTPError, RepositoryNotFoundError
from huggingface_hub.utils import build_hf_headers

from curation.release.errors import PublishError
from curation.release.manifest import MANIFEST
from curation.release.version import Version, versions_from_tags

# Files the Hub manages itself; a release never deletes them.
HUB_FILES = {".gitattributes"}


class HubTarget:
    def __init__(self, name: str, repo_id: str, *, public: bool = False, token: str | None = None):
        self.name = name
        self.repo_id = repo_id
        self.load_path = repo_id
        self.public = public
        self.token = token

    def _api(self) -> HfApi:
        if not self.token:
            raise PublishError(f"{self.name}: HF_TOKEN is not set; create a write token in your Hugging Face "
                               "settings and export HF_TOKEN")
        return HfApi(token=self.token)

    def versions(self) -> list[Version]:
        try:
            refs = self._api().list_repo_refs(self.repo_id, repo_type="dataset")
        except RepositoryNotFoundError:
            return []
        except HfHubHTTPError as error:
            raise PublishError(f"{self.name}: cannot list the repository's tags ({_first_line(error)})") from None
        return versions_from_tags([tag.name for tag in refs.tags])

    def read_manifest(self, version: Version) -> dict | None:
        # Only asked when this store has no record of the version (e.g. publishing from another machine).
        content = self.read_file(version, MANIFEST)
        try:
            return json.loads(content.decode("utf-8")) if content else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            return None

    def read_file(self, version: Version, path: str) -> bytes | None:
        # No token needed to read a public release; a private one answers 401/404 without it, as without access.
        endpoint = HfApi(token=self.token).endpoint
        url = hf_hub_url(self.repo_id, path, repo_type="dataset", revision=version.tag, endpoint=endpoint)
        response = get_session().get(url, headers=build_hf_headers(token=self.token))
        return response.content if response.status_code == 200 else None

    def lock(self) -> AbstractContextManager[None]:
        # The Hub offers no lock; publish re-reads the tags right before committing, which narrows the window only.
        return nullcontext()

    def publish(self, folder: Path, version: Version, message: str) -> str:
        api = self._api()
        try:
            api.create_repo(self.repo_id, repo_type="dataset", private=not self.public, exist_ok=True)
            present = set(api.list_repo_files(self.repo_id, repo_type="dataset"))
            files = {path.relative_to(folder).as_posix(): path for path in sorted(folder.rglob("*")) if path.is_file()}
            operations = [CommitOperationAdd(path_in_repo=relative, path_or_fileobj=str(path))
                          for relative, path in files.items()]
            operations += [CommitOperationDelete(path_in_repo=relative)
                           for relative in sorted(present - set(files) - HUB_FILES)]
            commit = api.create_commit(self.repo_id, operations=operations, commit_message=message,
                                       repo_type="dataset")
        except HfHubHTTPError as error:
            raise PublishError(f"{self.name}: the Hub refused the release ({_first_line(error)})") from None
        try:
            api.create_tag(self.repo_id, tag=version.tag, tag_message=message, revision=commit.oid,
                           repo_type="dataset")
        except HfHubHTTPError as error:
            # A rerun commits nothing new (every file is unchanged) and only adds the tag.
            raise PublishError(f"{self.name}: the release was committed ({commit.oid[:12]}) but the tag "
                               f"{version.tag} was refused ({_first_line(error)}); run the same command again "
                               "to tag it", target_changed=True) from None
        return commit.oid


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
