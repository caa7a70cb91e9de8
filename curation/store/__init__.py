"""The SQLite working store (data/curation.sqlite). This package owns all SQL.

WAL mode, numbered migrations, and one transaction per finished item: a process killed at any point
leaves the store as it was after the last finished item.

Each module below groups the SQL of one area by the stage that owns its tables (core, llm_calls, llm_claims,
batches, describe, translate, merge, review, releases, synthesis, outline, results) as a mixin that `Store` puts
together here. Each stage's migrations in `curation/store/migrations.py` use their own range of version numbers
(core 1-9, llm 10-19, describe/tag 20-29, translate 30-39, review 40-49, publish 50-59, synthesize 60-69, outline
70-79, results 80-89) so stages can land in any order.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from curation.store.base import now
from curation.store.batches import BatchesMixin, BatchRequestRow, BatchRow
from curation.store.core import CoreMixin
from curation.store.describe import DescribeMixin
from curation.store.llm_calls import LLMCallsMixin
from curation.store.llm_claims import LLMClaimsMixin, RequestClaim
from curation.store.merge import MergeMixin
from curation.store.migrations import MIGRATIONS
from curation.store.outline import OutlineMixin
from curation.store.releases import ReleasesMixin
from curation.store.results import ResultsMixin
from curation.store.review import ReviewMixin
from curation.store.synthesis import SynthesisMixin
from curation.store.translate import TranslateMixin

__all__ = ["MIGRATIONS", "BatchRow", "BatchRequestRow", "RequestClaim", "Store", "StoreError", "StoreWriteError",
           "cannot_write", "now"]

# What a write to the store raises when the store cannot take it (read-only, disk full, locked).
StoreWriteError = sqlite3.OperationalError


class StoreError(Exception):
    """The store cannot be opened or migrated; the message says what to do."""


def cannot_write(path: Path, error: Exception) -> str:
    """A failed write to the store as one line saying what to do: the store turned read-only, the disk is full,
    or another process holds it."""
    text = str(error)
    if "full" in text:
        todo = "free some disk space and rerun"
    elif "locked" in text or "busy" in text:
        todo = "another curate command is writing it; wait for it to finish and rerun"
    else:
        side = _unwritable_side_file(path)
        if side is not None:
            # SQLite's own files beside the store: the store itself may be writable, so name the one that is not.
            return (f"{side}: the store's {SIDE_FILES[side.name[len(path.name):]]} file cannot be written ({text}); make "
                    f"it writable by you (it belongs to {path.name}: do not delete it) and rerun; everything recorded "
                    "before is kept")
        todo = "make the file and its folder writable by you and rerun"
    return f"{path}: the store cannot be written ({text}); {todo}; everything recorded before is kept"


SIDE_FILES = {"-wal": "write-ahead log", "-shm": "shared-memory", "-journal": "rollback journal"}


def _unwritable_side_file(path: Path) -> Path | None:
    """The first of SQLite's files beside the store that exists and cannot be written, when the store file and its
    folder can be."""
    if str(path) == ":memory:" or not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return None
    return next((side for suffix in SIDE_FILES if (side := path.with_name(path.name + suffix)).exists()
                 and not os.access(side, os.W_OK)), None)


class Store(CoreMixin, LLMCallsMixin, LLMClaimsMixin, BatchesMixin, DescribeMixin, TranslateMixin, MergeMixin,
            ReviewMixin, ReleasesMixin, SynthesisMixin, OutlineMixin, ResultsMixin):
    """The working store. Open with `Store(path)`; use `with store.transaction():` around one item's writes."""

    def __init__(self, path: Path | str, root: Path | None = None):
        self.path = Path(path)
        self.root = root  # the project root: stored paths are relative to it (see curation/project_paths.py)
        if str(path) != ":memory:":
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StoreError(f"{self.path.parent}: cannot create the store's folder ({error.strerror or error}); "
                                 "set paths.store in curate.toml to a file in a folder you can write to") from None
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None, timeout=30, check_same_thread=False)
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.OperationalError as error:
            # Opening writes (migrations, recovering the log): a read-only, full or busy store is not a damaged one.
            raise StoreError(cannot_write(self.path, error)) from None
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: cannot open the store ({error}); move the file aside and re-run, "
                             "or rebuild reviews with `curate review import annotations/`") from None
        self._depth = 0

    def close(self) -> None:
        """Close the connection."""
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions and migrations -------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic unit of work; nested calls join the outer transaction."""
        if self._depth:
            self._depth += 1
            try:
                yield self.db
            finally:
                self._depth -= 1
            return
        self.db.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        else:
            self.db.execute("COMMIT")
        finally:
            self._depth = 0

    def _migrate(self) -> None:
        self.db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)")
        applied = {row[0] for row in self.db.execute("SELECT version FROM schema_migrations")}
        known = {version for version, _, _ in MIGRATIONS}
        if applied - known:
            raise StoreError(f"{self.path}: the store was written by a newer curation (schema {max(applied)}); upgrade curation")
        for version, name, sql in sorted(MIGRATIONS, key=lambda migration: migration[0]):
            if version in applied:
                continue
            if callable(sql):
                if self.root is None:
                    continue  # needs the project root: the next open by a command applies it
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    sql(self.db, self.root)
                    self.db.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)", (version, name, now()))
                except BaseException:
                    self.db.execute("ROLLBACK")
                    raise
                self.db.execute("COMMIT")
                continue
            # executescript commits on its own; wrap it so a failed migration leaves nothing half-applied.
            self.db.executescript(f"BEGIN IMMEDIATE;\n{sql}\nINSERT INTO schema_migrations VALUES ({version}, '{name}', '{now()}');\nCOMMIT;")

    def check_writable(self, needed_bytes: int = 0) -> None:
        """Raise StoreError unless an answer could be recorded now: the store takes a write, and its disk has
        `needed_bytes` free. Stages call this before paying for a call whose answer would otherwise be lost."""
        try:
            with self.transaction():  # a write that changes nothing, rolled back or committed alike
                self.db.execute("UPDATE schema_migrations SET name = name WHERE 0")
        except sqlite3.OperationalError as error:
            raise StoreError(cannot_write(self.path, error) + " (nothing was sent)") from None
        if str(self.path) == ":memory:":
            return
        free = shutil.disk_usage(self.path.parent).free
        if free < needed_bytes:
            raise StoreError(f"{self.path.parent}: {free / 1e6:.0f} MB free, but recording this run's answers needs "
                             f"about {needed_bytes / 1e6:.0f} MB; free some disk space and rerun (nothing was sent)")

    @property
    def schema_version(self) -> int:
        """The highest migration applied to this store."""
        return self.db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()[0]
