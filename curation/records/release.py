"""The record of a published release."""

from __future__ import annotations

from pydantic import Field

from curation.records.base import Record

class Release(Record):
    """One published release: its version, where it went, the commit that holds it and its rows per language."""

    version: str  # X.Y.Z; the tag is vX.Y.Z
    target: str  # hf:ORG/NAME, or the folder: relative to the project root when inside it, else absolute
    date: str
    commit: str
    counts: dict[str, int] = Field(default_factory=dict)
    partial: bool = False  # published with --allow-partial and rows held back
