"""The LLM call log (migration 10), which is also the answer cache. No keys or headers are ever written here."""

from __future__ import annotations

import sqlite3

from curation.records import CostLine, LLMCall
from curation.store.base import StoreMixin, now


class LLMCallsMixin(StoreMixin):
    """Every LLM call as a row; a successful, paid row answers any later request with the same hash."""

    # -- llm: the call log, which is also the answer cache -----------------------------------------

    def cached_llm_call(self, request_hash: str) -> LLMCall | None:
        """The latest successful, paid call with this request hash, or None."""
        row = self.db.execute(
            "SELECT * FROM llm_calls WHERE request_hash = ? AND error IS NULL AND cached = 0 ORDER BY id DESC LIMIT 1",
            (request_hash,)).fetchone()
        return self._row_to_llm_call(row) if row else None

    def log_llm_call(self, call: LLMCall) -> None:
        """Write one call row at once, so a killed run keeps every call that finished."""
        row = call.model_dump(exclude={"created_at"})
        row["created_at"] = call.created_at or now()
        columns = ", ".join(row)
        with self.transaction() as db:
            db.execute(f"INSERT INTO llm_calls ({columns}) VALUES ({', '.join('?' * len(row))})", tuple(row.values()))

    def llm_calls(self, stage: str | None = None) -> list[LLMCall]:
        """The call log in order, optionally for one stage."""
        where, values = self._where(stage=stage)
        rows = self.db.execute(f"SELECT * FROM llm_calls{where} ORDER BY id", values)
        return [self._row_to_llm_call(row) for row in rows]

    def llm_costs(self) -> list[CostLine]:
        """Spend, tokens and cache savings per (stage, role, provider:model)."""
        rows = self.db.execute(
            "SELECT stage, role, provider || ':' || model AS model, COUNT(*) AS calls, SUM(cached) AS cache_hits, "
            "SUM(error IS NOT NULL) AS call_errors, SUM(tokens_in) AS tokens_in, SUM(tokens_out) AS tokens_out, "
            "SUM(tokens_cached) AS tokens_cached, SUM(tokens_cache_write) AS tokens_cache_write, SUM(cost_usd) AS cost_usd, SUM(saved_usd) AS saved_usd "
            "FROM llm_calls GROUP BY stage, role, provider, model ORDER BY stage, role, model")
        return [CostLine(**dict(row)) for row in rows]

    def paid_calls_by_role(self) -> dict[str, tuple[int, int]]:
        """Per role: (items, answers paid for them) over the whole call log; retries make the second larger."""
        rows = self.db.execute("SELECT role, COUNT(DISTINCT item), COUNT(*) FROM llm_calls "
                               "WHERE cached = 0 AND error IS NULL GROUP BY role")
        return {role: (items, calls) for role, items, calls in rows}

    @staticmethod
    def _row_to_llm_call(row: sqlite3.Row) -> LLMCall:
        # keys() is needed: iterating a sqlite3.Row yields its values.
        return LLMCall(**{key: row[key] for key in row.keys() if key != "id"})
