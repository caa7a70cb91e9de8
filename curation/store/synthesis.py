"""The synthesize steps' outputs (migration 60): one row per step and key, replaced when its inputs change."""

from __future__ import annotations

from pydantic import BaseModel

from curation.store.base import Record, StoreMixin, now


class SynthesisMixin(StoreMixin):
    """What `curate synthesize` keeps between runs: profiles, task ideas, designs and verdicts."""

    def save_synthesis(self, step: str, key: str, dataset: str, record: BaseModel, input_hash: str) -> None:
        """Store one step's output for a key, replacing the earlier one."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO synthesis (step, key, dataset, record, input_hash, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(step, key) DO UPDATE SET dataset = excluded.dataset, record = excluded.record, "
                "input_hash = excluded.input_hash, updated_at = excluded.updated_at",
                (step, key, dataset, record.model_dump_json(), input_hash, now()))

    def synthesis(self, step: str, key: str, model: type[Record]) -> tuple[Record, str] | None:
        """(record, input hash) a step stored for a key, or None."""
        row = self.db.execute("SELECT record, input_hash FROM synthesis WHERE step = ? AND key = ?", (step, key)).fetchone()
        return (model.model_validate_json(row["record"]), row["input_hash"]) if row else None

    def synthesis_records(self, step: str, model: type[Record], dataset: str | None = None) -> list[Record]:
        """Every record a step stored (for one dataset, when given), by key."""
        sql = "SELECT record FROM synthesis WHERE step = ?" + (" AND dataset = ?" if dataset else "") + " ORDER BY key"
        return self._records(model, self.db.execute(sql, (step, dataset) if dataset else (step,)))
