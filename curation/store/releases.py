"""Publish (migration 50): every release written, with its manifest for the next release's diff."""

from __future__ import annotations

import json

from curation.records import Release
from curation.store.base import StoreMixin, now


class ReleasesMixin(StoreMixin):
    """Releases published to a target, each version recorded once per target."""

    # -- publish: releases written to a target ----------------------------------------------------

    def save_release(self, release: Release, manifest: dict) -> None:
        """Record a published release with its manifest; a version is recorded once per target."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO releases (target, version, record, manifest, created_at) VALUES (?, ?, ?, ?, ?)",
                (release.target, release.version, release.model_dump_json(),
                 json.dumps(manifest, ensure_ascii=False, sort_keys=True), now()),
            )

    def releases(self, target: str | None = None) -> list[Release]:
        """Recorded releases, oldest first (all targets, or one)."""
        where, values = self._where(target=target)
        rows = self.db.execute(f"SELECT record FROM releases{where} ORDER BY created_at, target, version", values)
        return self._records(Release, rows)

    def release_manifest(self, target: str, version: str) -> dict | None:
        """The manifest a recorded release was published with, or None."""
        row = self.db.execute("SELECT manifest FROM releases WHERE target = ? AND version = ?",
                              (target, version)).fetchone()
        return json.loads(row["manifest"]) if row else None
