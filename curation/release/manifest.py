"""manifest.json: what a release holds (counts, statistics, models, checksums) and what changed since the last one."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from curation.records import FIELDS

MANIFEST = "manifest.json"


def text_hash(text: str) -> str:
    """Short content hash of one published text; two releases' hashes tell whether the text changed."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def content_hashes(rows_by_language: dict[str, list[dict]]) -> dict[str, dict[str, dict[str, str]]]:
    """language -> competition -> field -> hash of the published text."""
    return {
        language: {row["competition"]: {name: text_hash(row[name] or "") for name in FIELDS} for row in rows}
        for language, rows in sorted(rows_by_language.items())
    }


def diff_releases(previous: dict | None, content: dict[str, dict[str, dict[str, str]]],
                  previous_version: str | None = None) -> dict:
    """What changed since the previous manifest: competitions and languages added/removed, per language texts changed.

    With a previous version whose manifest could not be read, the changes are marked unknown instead of guessed.
    """
    if previous is None and previous_version:
        return {"previous_version": previous_version, "unknown": True, "competitions_added": [],
                "competitions_removed": [], "languages_added": [], "languages_removed": [], "languages": {}}
    before = (previous or {}).get("content", {})
    slugs_now = {slug for rows in content.values() for slug in rows}
    slugs_before = {slug for rows in before.values() for slug in rows}
    changes: dict = {
        "previous_version": (previous or {}).get("version"),
        "competitions_added": sorted(slugs_now - slugs_before),
        "competitions_removed": sorted(slugs_before - slugs_now),
        "languages_added": sorted(set(content) - set(before)),
        "languages_removed": sorted(set(before) - set(content)),
        "languages": {},
    }
    for language in sorted(set(content) & set(before)):
        now_rows, old_rows = content[language], before[language]
        changed = [f"{slug}/{name}" for slug in sorted(set(now_rows) & set(old_rows)) for name in FIELDS
                   if now_rows[slug].get(name) != old_rows[slug].get(name)]
        entry = {"rows_added": sorted(set(now_rows) - set(old_rows)),
                 "rows_removed": sorted(set(old_rows) - set(now_rows)),
                 "texts_changed": changed}
        if any(entry.values()):
            changes["languages"][language] = entry
    return changes


def file_checksums(root: Path) -> dict[str, str]:
    """sha256 of every file under the release folder except the manifest itself, by relative path."""
    sums = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if path.is_file() and relative != MANIFEST:
            sums[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    return sums


def write_manifest(manifest: dict, root: Path) -> None:
    """manifest.json with sorted keys, so two builds of the same content give the same bytes but for the date."""
    (root / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=2, sort_keys=True) + "\n",
                                 encoding="utf-8")
