"""Semantic release versions: 'X.Y.Z' (a leading 'v' is accepted), tagged as 'vX.Y.Z'."""

from __future__ import annotations

import re
from dataclasses import dataclass

_SEMVER = re.compile(r"^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")


class BadVersion(ValueError):
    """A version that is not X.Y.Z."""


@dataclass(frozen=True, order=True)
class Version:
    major: int
    minor: int
    patch: int

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}.{self.patch}"

    @property
    def tag(self) -> str:
        """The git / Hub tag a release carries."""
        return f"v{self}"


def parse_version(text: str) -> Version:
    """A Version from 'X.Y.Z' or 'vX.Y.Z'; anything else raises BadVersion with an example."""
    match = _SEMVER.match(text.strip())
    if not match:
        raise BadVersion(f"version {text!r} is not semantic; use MAJOR.MINOR.PATCH, e.g. 1.0.0")
    return Version(*(int(part) for part in match.groups()))


def versions_from_tags(tags: list[str]) -> list[Version]:
    """The release versions among a repository's tags, oldest first; other tags are ignored."""
    found = []
    for tag in tags:
        try:
            found.append(parse_version(tag))
        except BadVersion:
            continue
    return sorted(set(found))
