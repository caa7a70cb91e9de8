"""A fake of the Hugging Face Hub's write API, served to huggingface_hub through an httpx2 transport.

It keeps dataset repositories in memory (commits with their files, tags, visibility) and answers the endpoints
HfApi uses to publish (repos/create, validate-yaml, refs, revision, tree, preupload, commit, tag) and
resolve, to read a published file back. Every file is
uploaded "regular" (inline base64), so no LFS or Xet storage is involved. Requests without a bearer token are
refused, as the Hub does for writes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass, field

import httpx2
import yaml
from huggingface_hub.utils.sha import git_hash

_REPO_PATH = re.compile(r"^/api/(?P<kind>models|datasets|spaces)/(?P<repo>[^/]+/[^/]+)/(?P<action>refs|revision|tree|preupload|commit|tag)(?:/(?P<rest>.*))?$")

_RESOLVE_PATH = re.compile(r"^/datasets/(?P<repo>[^/]+/[^/]+)/resolve/(?P<revision>[^/]+)/(?P<file>.+)$")


@dataclass
class FakeCommit:
    oid: str
    message: str
    files: dict[str, bytes]


@dataclass
class FakeRepo:
    repo_id: str
    repo_type: str
    private: bool
    commits: list[FakeCommit] = field(default_factory=list)
    tags: dict[str, tuple[str, str]] = field(default_factory=dict)  # tag -> (commit oid, message)

    @property
    def head(self) -> FakeCommit:
        return self.commits[-1]

    def commit(self, oid: str) -> FakeCommit | None:
        return next((commit for commit in self.commits if commit.oid == oid), None)


@dataclass
class FakeHub:
    """In-memory Hub. `requests` records (method, path) of every call; `refuse` makes one endpoint answer an error."""

    token: str = "hf_fake_write_token"
    repos: dict[str, FakeRepo] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)
    commit_payloads: list[list[dict]] = field(default_factory=list)
    refusals: dict[str, int] = field(default_factory=dict)  # action -> status code to answer once

    def refuse(self, action: str, status: int = 403) -> None:
        """Make the next request to an endpoint ('commit', 'tag', 'create', ...) fail with `status`."""
        self.refusals[action] = status

    def transport(self) -> httpx2.MockTransport:
        return httpx2.MockTransport(self.handle)

    def handle(self, request: httpx2.Request) -> httpx2.Response:
        path = request.url.path
        self.requests.append((request.method, path))
        if request.headers.get("authorization") != f"Bearer {self.token}":
            return _error(401, "Invalid credentials in Authorization header")
        if path == "/api/whoami-v2" and request.method == "GET":  # `curate doctor` asks who the token belongs to
            return httpx2.Response(200, json={"type": "user", "name": "fake-curator",
                                              "auth": {"accessToken": {"role": "write"}}})
        if path == "/api/repos/create" and request.method == "POST":
            return self._refused("create") or self._create(json.loads(request.content))
        if path == "/api/validate-yaml" and request.method == "POST":
            return self._validate_yaml(json.loads(request.content))
        resolve = _RESOLVE_PATH.match(path)
        if resolve and request.method in ("GET", "HEAD"):
            return self._resolve(resolve["repo"], resolve["revision"], resolve["file"])
        match = _REPO_PATH.match(path)
        if not match:
            return _error(404, f"fake hub: no route for {request.method} {path}")
        repo = self.repos.get(match["repo"])
        if repo is None or repo.repo_type + "s" != match["kind"]:
            return _error(404, "Repository not found", code="RepoNotFound")
        action = match["action"]
        refused = self._refused(action)
        if refused:
            return refused
        if action == "refs":
            return self._refs(repo)
        if action == "revision":
            return self._revision(repo, match["rest"] or "main")
        if action == "tree":
            return self._tree(repo, (match["rest"] or "main").split("/", 1)[0])
        if action == "preupload":
            return self._preupload(repo, json.loads(request.content))
        if action == "commit":
            return self._commit(repo, request.content)
        return self._tag(repo, match["rest"] or "main", json.loads(request.content))

    # -- endpoints -------------------------------------------------------------------------------

    def _refused(self, action: str) -> httpx2.Response | None:
        status = self.refusals.pop(action, None)
        return _error(status, f"fake hub refuses {action}") if status else None

    def _create(self, payload: dict) -> httpx2.Response:
        repo_id = f"{payload['organization']}/{payload['name']}" if payload.get("organization") else payload["name"]
        url = f"https://huggingface.co/datasets/{repo_id}"
        if repo_id in self.repos:
            return httpx2.Response(409, json={"error": "You already created this dataset repo", "url": url})
        repo = FakeRepo(repo_id, payload.get("type", "model"), private=payload.get("visibility", "public") != "public")
        # The Hub starts every repository with a .gitattributes commit.
        repo.commits.append(FakeCommit(_oid("initial", repo_id), "initial commit", {".gitattributes": b"*.parquet filter=lfs\n"}))
        self.repos[repo_id] = repo
        return httpx2.Response(200, json={"url": url})

    def _validate_yaml(self, payload: dict) -> httpx2.Response:
        content = payload["content"]
        match = re.match(r"^---\n(.*?)\n---\n", content, flags=re.S)
        try:
            yaml.safe_load(match.group(1) if match else "")
        except yaml.YAMLError as error:
            return httpx2.Response(400, json={"errors": [{"message": str(error)}]})
        return httpx2.Response(200, json={"errors": [], "warnings": []})

    def _refs(self, repo: FakeRepo) -> httpx2.Response:
        return httpx2.Response(200, json={
            "branches": [{"name": "main", "ref": "refs/heads/main", "targetCommit": repo.head.oid}],
            "converts": [],
            "tags": [{"name": name, "ref": f"refs/tags/{name}", "targetCommit": oid} for name, (oid, _) in repo.tags.items()],
        })

    def _resolve(self, repo_id: str, revision: str, path: str) -> httpx2.Response:
        repo = self.repos.get(repo_id)
        if repo is None:
            return _error(404, "Repository not found", code="RepoNotFound")
        oid = repo.tags[revision][0] if revision in repo.tags else revision
        commit = repo.head if revision == "main" else repo.commit(oid)
        if commit is None:
            return _error(404, f"Invalid rev id: {revision}", code="RevisionNotFound")
        if path not in commit.files:
            return _error(404, f"{path} not found", code="EntryNotFound")
        data = commit.files[path]
        return httpx2.Response(200, content=data, headers={"X-Repo-Commit": commit.oid, "ETag": f'"{git_hash(data)}"'})

    def _revision(self, repo: FakeRepo, revision: str) -> httpx2.Response:
        commit = repo.head if revision == "main" else repo.commit(revision)
        if commit is None:
            return _error(404, f"Invalid rev id: {revision}", code="RevisionNotFound")
        return httpx2.Response(200, json={"id": repo.repo_id, "sha": commit.oid, "private": repo.private,
                                          "siblings": [{"rfilename": path} for path in sorted(commit.files)]})

    def _tree(self, repo: FakeRepo, revision: str) -> httpx2.Response:
        commit = repo.head if revision == "main" else repo.commit(revision)
        if commit is None:
            return _error(404, f"Invalid rev id: {revision}", code="RevisionNotFound")
        return httpx2.Response(200, json=[{"type": "file", "path": path, "size": len(data), "oid": git_hash(data)}
                                          for path, data in sorted(commit.files.items())])

    def _preupload(self, repo: FakeRepo, payload: dict) -> httpx2.Response:
        files = []
        for entry in payload["files"]:
            present = repo.head.files.get(entry["path"])
            files.append({"path": entry["path"], "uploadMode": "regular", "shouldIgnore": False,
                          "oid": git_hash(present) if present is not None else None})
        return httpx2.Response(200, json={"files": files})

    def _commit(self, repo: FakeRepo, body: bytes) -> httpx2.Response:
        lines = [json.loads(line) for line in body.decode("utf-8").splitlines() if line.strip()]
        self.commit_payloads.append(lines)
        files = dict(repo.head.files)
        message = ""
        for line in lines:
            value = line["value"]
            if line["key"] == "header":
                message = value["summary"]
            elif line["key"] == "file":
                files[value["path"]] = base64.b64decode(value["content"])
            elif line["key"] == "deletedFile":
                if value["path"] not in files:
                    return _error(400, f"cannot delete {value['path']}: no such file", code="EntryNotFound")
                del files[value["path"]]
            else:
                return _error(400, f"fake hub does not take {line['key']} operations")
        oid = _oid(repo.head.oid, body)
        repo.commits.append(FakeCommit(oid, message, files))
        return httpx2.Response(200, json={"commitUrl": f"https://huggingface.co/datasets/{repo.repo_id}/commit/{oid}",
                                          "commitOid": oid, "success": True})

    def _tag(self, repo: FakeRepo, revision: str, payload: dict) -> httpx2.Response:
        commit = repo.head if revision == "main" else repo.commit(revision)
        if commit is None:
            return _error(404, f"Invalid rev id: {revision}", code="RevisionNotFound")
        if payload["tag"] in repo.tags:
            return _error(409, f"Tag {payload['tag']} already exists")
        repo.tags[payload["tag"]] = (commit.oid, payload.get("message", ""))
        return httpx2.Response(200, json={})


def _oid(*parts: object) -> str:
    digest = hashlib.sha1()
    for part in parts:
        digest.update(part if isinstance(part, bytes) else str(part).encode())
    return digest.hexdigest()


def _error(status: int, message: str, code: str | None = None) -> httpx2.Response:
    headers = {"X-Error-Code": code} if code else {}
    return httpx2.Response(status, json={"error": message}, headers={**headers, "X-Error-Message": message})
