"""What every area of the store builds on: the clock its rows are stamped with, and the shared SQL helpers.

Each area's methods live in a mixin derived from `StoreMixin`; `curation.store.Store` puts them together with
the connection and `transaction()` they all use.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel

Record = TypeVar("Record", bound=BaseModel)


def now() -> str:
    """The current UTC time to the second, as rows are stamped with it."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class StoreMixin:
    """Base of the area mixins: the connection and transactions come from `Store`."""

    db: sqlite3.Connection

    if TYPE_CHECKING:
        def transaction(self) -> AbstractContextManager[sqlite3.Connection]: ...

    def _upsert_record(self, table: str, key: dict[str, object], record: BaseModel,
                       columns: dict[str, object] | None = None) -> None:
        """Write `record` as JSON under `key` in `table`, replacing the row there; `columns` are stored beside it.

        The tables that keep one current record per key (descriptions, domains, translations, final texts) all
        share this shape: key columns, `record`, any extra columns, `updated_at`.
        """
        values = {**key, "record": record.model_dump_json(), **(columns or {}), "updated_at": now()}
        updated = [name for name in values if name not in key]
        with self.transaction() as db:
            db.execute(
                f"INSERT INTO {table} ({', '.join(values)}) VALUES ({', '.join('?' * len(values))}) "
                f"ON CONFLICT({', '.join(key)}) DO UPDATE SET "
                + ", ".join(f"{name} = excluded.{name}" for name in updated),
                tuple(values.values()),
            )

    @staticmethod
    def _where(*conditions: str, **equal: object) -> tuple[str, tuple]:
        """A WHERE clause of `conditions` and `column = ?` for each filter given (None: not filtered), with its values.

        Reads that run once per item build their query for the filters given: `(?1 IS NULL OR column = ?1)` reads the
        same but makes SQLite scan the whole table (and sort it), which grows with the project."""
        given = {column: value for column, value in equal.items() if value is not None}
        terms = [*conditions, *(f"{column} = ?" for column in given)]
        return (" WHERE " + " AND ".join(terms) if terms else ""), tuple(given.values())

    @staticmethod
    def _record(model: type[Record], row: sqlite3.Row | None) -> Record | None:
        """The record a row's `record` column holds, or None when there is no row."""
        return model.model_validate_json(row["record"]) if row else None

    @staticmethod
    def _records(model: type[Record], rows: Iterable[sqlite3.Row]) -> list[Record]:
        """The records the rows' `record` columns hold, in row order."""
        return [model.model_validate_json(row["record"]) for row in rows]
