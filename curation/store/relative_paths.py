"""The store's migrations that SQL cannot express: paths earlier versions wrote as absolute become relative to the
project root (versions 42, 51, 61), so a copied or moved project reads its own files. Each is a function of the
connection and the root; `Store` runs it when opened with the root (curation/store/migrations.py says more)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from curation.project_paths import relocated_path

# -- every path the store keeps is relative to the project root (version 42) ------------------------------------


def _relative_paths(db: sqlite3.Connection, root: Path) -> None:
    """Absolute paths written by earlier versions (pushed sheets, competition sources, problem files) become
    relative to the project root, so a copied or moved project reads its own files, not the original's."""
    for key, sheet, record in db.execute("SELECT rowid, sheet, record FROM review_pushed").fetchall():
        moved = relocated_path(sheet, root)
        if moved != sheet:
            data = json.loads(record)
            data["sheet"] = moved
            db.execute("UPDATE review_pushed SET sheet = ?, record = ? WHERE rowid = ?", (moved, json.dumps(data), key))
    for slug, record in db.execute("SELECT slug, record FROM competitions").fetchall():
        data = json.loads(record)
        source = data.get("source") or ""
        if source and (moved := relocated_path(source, root)) != source:
            data["source"] = moved
            db.execute("UPDATE competitions SET record = ? WHERE slug = ?", (json.dumps(data), slug))
    _relative_problem_paths(db, root)


def _relative_problem_paths(db: sqlite3.Connection, root: Path) -> None:
    """The files named by reported problems, relative to the project root."""
    for key, path in db.execute("SELECT id, path FROM problems").fetchall():
        if path and (moved := relocated_path(path, root)) != path:
            db.execute("UPDATE problems SET path = ? WHERE id = ?", (moved, key))


# -- publish: release targets inside the project are recorded relative to its root (version 51) ------------------


def _relative_release_targets(db: sqlite3.Connection, root: Path) -> None:
    """A release folder recorded by its absolute path (as typed to --to) becomes relative to the project root, so a
    moved or copied project knows the releases of its own folder."""
    rows = db.execute("SELECT rowid, target, version, record FROM releases WHERE target NOT LIKE 'hf:%'").fetchall()
    for key, target, version, record in rows:
        # Outside the root, only a tail that is a release repository under it counts (the project was moved with
        # its release folder); a folder that merely shares a name is not taken for it.
        moved = relocated_path(target, root, lambda found: (found / ".git").exists())
        taken = db.execute("SELECT 1 FROM releases WHERE target = ? AND version = ?", (moved, version)).fetchone()
        if moved != target and not taken:
            db.execute("UPDATE releases SET target = ?, record = ? WHERE rowid = ?",
                       (moved, json.dumps({**json.loads(record), "target": moved}), key))


# -- synthesize: the dataset folders, problem files and task folders it keeps are relative to the root (version 61) --


def _relative_synthesis_paths(db: sqlite3.Connection, root: Path) -> None:
    """Absolute paths in synthesize's records (a profile's dataset folder and problem files, a verdict's task folder)
    and in the problems it reported after version 42 become relative to the project root, so a copied or moved
    project profiles and verifies its own files."""
    rows = db.execute("SELECT step, key, record FROM synthesis WHERE step IN ('profile', 'verify')").fetchall()
    for step, key, record in rows:
        data = json.loads(record)
        # Outside the root only a folder that holds what the record names is taken for it (the dataset's tables, or
        # the marker every task folder synthesize writes has), never one that merely shares a name.
        if step == "profile":
            tables = [table["file"] for table in data.get("tables", [])]
            changed = {**data, "path": relocated_path(data["path"], root, lambda found: found.is_dir() and all(
                (found / file).is_file() for file in tables))}
        else:
            changed = {**data, "folder": relocated_path(data["folder"], root,
                                                        lambda found: (found / "private" / "design.json").is_file())}
        if "problems" in data:
            changed["problems"] = [{**problem, "path": relocated_path(problem["path"], root)} for problem in data["problems"]]
        if changed != data:
            db.execute("UPDATE synthesis SET record = ? WHERE step = ? AND key = ?", (json.dumps(changed), step, key))
    _relative_problem_paths(db, root)


PATH_MIGRATIONS = [(42, "relative_paths", _relative_paths),
                   (51, "relative_release_targets", _relative_release_targets),
                   (61, "relative_synthesis_paths", _relative_synthesis_paths)]
