"""Provider batches (migration 15): each batch and its requests, stored before submission and updated while it runs.

A request's row outlives the process that submitted it: a rerun finds it by custom_id and polls that batch, or
takes its stored result, instead of submitting the same request again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from curation.store.base import StoreMixin, now


@dataclass(frozen=True)
class BatchRow:
    """One provider batch as the store knows it."""

    id: int
    provider: str
    model: str
    remote_id: str | None
    state: str
    counts: dict[str, int]
    closed: bool
    requests: int
    created_at: str


@dataclass(frozen=True)
class BatchRequestRow:
    """One request of a batch, with its answer or error once the batch ended."""

    batch_id: int
    custom_id: str
    request_hash: str
    body: dict
    result: str | None
    error: str | None
    batch_closed: bool
    remote_id: str | None


class BatchesMixin(StoreMixin):
    """The batch tables. Every method is one transaction."""

    def add_batch(self, provider: str, model: str, requests: list[tuple[str, str, dict]]) -> int:
        """Record a batch about to be submitted with its (custom_id, request_hash, body) requests; its local id."""
        stamp = now()
        with self.transaction() as db:
            cursor = db.execute("INSERT INTO llm_batches (provider, model, state, created_at, updated_at) "
                                "VALUES (?, ?, 'submitting', ?, ?)", (provider, model, stamp, stamp))
            batch_id = cursor.lastrowid
            db.executemany("INSERT INTO llm_batch_requests (batch_id, custom_id, request_hash, body) VALUES (?, ?, ?, ?)",
                           [(batch_id, custom_id, request_hash, json.dumps(body, ensure_ascii=False))
                            for custom_id, request_hash, body in requests])
        return int(batch_id)

    def update_batch(self, batch_id: int, state: str, counts: dict[str, int] | None = None,
                     remote_id: str | None = None) -> None:
        """The provider's latest status of a batch (and its id, once it accepted the batch)."""
        with self.transaction() as db:
            db.execute("UPDATE llm_batches SET state = ?, counts = COALESCE(?, counts), "
                       "remote_id = COALESCE(?, remote_id), updated_at = ? WHERE id = ?",
                       (state, json.dumps(counts) if counts is not None else None, remote_id, now(), batch_id))

    def close_batch(self, batch_id: int, state: str, results: dict[str, tuple[str | None, str | None]],
                    missing: str) -> None:
        """Store a finished batch's (result, error) per custom_id; requests without a line get `missing` as error."""
        with self.transaction() as db:
            db.executemany("UPDATE llm_batch_requests SET result = ?, error = ? WHERE batch_id = ? AND custom_id = ?",
                           [(result, error, batch_id, custom_id) for custom_id, (result, error) in results.items()])
            db.execute("UPDATE llm_batch_requests SET error = ? WHERE batch_id = ? AND result IS NULL AND error IS NULL",
                       (missing, batch_id))
            db.execute("UPDATE llm_batches SET state = ?, closed = 1, updated_at = ? WHERE id = ?", (state, now(), batch_id))

    def drop_batch_result(self, batch_id: int, custom_id: str, error: str) -> None:
        """A stored answer that turned out not to be one (a body without the API's fields): `error` in its place, so
        the request is asked again instead of read back."""
        with self.transaction() as db:
            db.execute("UPDATE llm_batch_requests SET result = NULL, error = ? WHERE batch_id = ? AND custom_id = ?",
                       (error, batch_id, custom_id))

    def batch_request(self, custom_id: str) -> BatchRequestRow | None:
        """The latest request with this custom_id in any batch, or None."""
        row = self.db.execute(
            "SELECT r.*, b.closed AS batch_closed, b.remote_id FROM llm_batch_requests r JOIN llm_batches b "
            "ON b.id = r.batch_id WHERE r.custom_id = ? ORDER BY r.batch_id DESC LIMIT 1", (custom_id,)).fetchone()
        if row is None:
            return None
        return BatchRequestRow(batch_id=row["batch_id"], custom_id=row["custom_id"], request_hash=row["request_hash"],
                               body=json.loads(row["body"]), result=row["result"], error=row["error"],
                               batch_closed=bool(row["batch_closed"]), remote_id=row["remote_id"])

    def batches(self, open_only: bool = False) -> list[BatchRow]:
        """Batches oldest first, with how many requests each holds; `open_only` leaves out those with results."""
        rows = self.db.execute(f"{_BATCH_ROWS} WHERE (? = 0 OR b.closed = 0) ORDER BY b.id", (int(open_only),))
        return [_batch_row(row) for row in rows]

    def batch(self, batch_id: int) -> BatchRow | None:
        """One batch by local id."""
        row = self.db.execute(f"{_BATCH_ROWS} WHERE b.id = ?", (batch_id,)).fetchone()
        return _batch_row(row) if row is not None else None

    def batch_requests(self, batch_id: int) -> list[tuple[str, dict]]:
        """(custom_id, body) of a batch's requests, in the order they were added."""
        rows = self.db.execute("SELECT custom_id, body FROM llm_batch_requests WHERE batch_id = ? ORDER BY rowid",
                               (batch_id,))
        return [(row["custom_id"], json.loads(row["body"])) for row in rows]


# A batch with how many requests it holds: the one query behind batches() and batch().
_BATCH_ROWS = ("SELECT b.*, (SELECT COUNT(*) FROM llm_batch_requests r WHERE r.batch_id = b.id) AS requests "
               "FROM llm_batches b")


def _batch_row(row) -> BatchRow:
    return BatchRow(id=row["id"], provider=row["provider"], model=row["model"], remote_id=row["remote_id"],
                    state=row["state"], counts=json.loads(row["counts"]), closed=bool(row["closed"]),
                    requests=row["requests"], created_at=row["created_at"])
