"""Merge (migration 40): the final texts and rubric scores a release publishes, and the work review sends back."""

from __future__ import annotations

from curation.records import FinalText
from curation.store.base import StoreMixin, now


class MergeMixin(StoreMixin):
    """Final texts, requests for retranslation or redescription, and final rubric scores."""

    # -- merge: final texts and rubric scores that a release publishes ---------------------------

    def save_final_text(self, final: FinalText) -> None:
        """Keep the merged text of one field in one language, replacing the previous one."""
        key = {"competition": final.competition, "field": final.field, "language": final.language}
        self._upsert_record("final_texts", key, final)

    def final_texts(self, language: str | None = None) -> list[FinalText]:
        """Merged texts by language, competition and field, optionally of one language."""
        where, values = self._where(language=language)
        rows = self.db.execute(f"SELECT record FROM final_texts{where} ORDER BY language, competition, field", values)
        return self._records(FinalText, rows)

    def blocked_final_texts(self) -> list[FinalText]:
        """Merged texts that carry a check no verdict overrides (blocking_checks), by language, competition and field.

        Only the records that do not say `"blocking_checks":[]` are read (every record written says it when it has
        none), so the look costs a text search, not a JSON parse of every final text."""
        rows = self.db.execute("SELECT record FROM final_texts WHERE instr(record, '\"blocking_checks\":[]') = 0 "
                               "ORDER BY language, competition, field")
        return [final for final in self._records(FinalText, rows) if final.blocking_checks]

    def remove_final_text(self, competition: str, field: str, language: str) -> bool:
        """Withdraw a merged text whose translation changed or whose verdict turned; True when there was one."""
        with self.transaction() as db:
            cursor = db.execute("DELETE FROM final_texts WHERE competition = ? AND field = ? AND language = ?",
                                (competition, field, language))
            return cursor.rowcount > 0

    def save_rubric_final(self, competition: str, score: int, detail: str = "") -> None:
        """Keep a competition's final rubric score, replacing the previous one."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO rubric_final (competition, score, detail, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(competition) DO UPDATE SET score = excluded.score, detail = excluded.detail, "
                "updated_at = excluded.updated_at",
                (competition, score, detail, now()),
            )

    def rubric_final(self) -> dict[str, int]:
        """Final rubric score per competition (0 unusable, 1 needs revision, 2 good)."""
        rows = self.db.execute("SELECT competition, score FROM rubric_final")
        return {row["competition"]: row["score"] for row in rows}

    def remove_rubric_final(self, competition: str) -> bool:
        """Withdraw the final rubric score of a description that changed since it was scored."""
        with self.transaction() as db:
            return db.execute("DELETE FROM rubric_final WHERE competition = ?", (competition,)).rowcount > 0

    # -- merge: work sent back by review ----------------------------------------------------------

    def add_request(self, kind: str, competition: str, feedback: str, field: str | None = None,
                    language: str | None = None) -> None:
        """Send work back: a retranslation (with field and language) or a new description, with feedback."""
        with self.transaction() as db:
            open_ = db.execute(
                "SELECT id FROM requests WHERE kind = ? AND competition = ? AND field IS ? AND language IS ? "
                "AND feedback = ? AND resolved_at IS NULL", (kind, competition, field, language, feedback)).fetchone()
            if not open_:
                db.execute(
                    "INSERT INTO requests (kind, competition, field, language, feedback, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (kind, competition, field, language, feedback, now()),
                )

    def open_requests(self, kind: str, language: str | None = None) -> list[dict]:
        """Unresolved requests of a kind: dicts with id, competition, field, language, feedback."""
        where, values = self._where("resolved_at IS NULL", kind=kind, language=language)
        rows = self.db.execute(f"SELECT id, competition, field, language, feedback FROM requests{where} ORDER BY id", values)
        return [dict(row) for row in rows]

    def open_request_counts(self, kind: str) -> dict[str | None, int]:
        """Language (None for a redescription) -> how many requests of a kind are open."""
        rows = self.db.execute("SELECT language, COUNT(*) AS n FROM requests WHERE kind = ? AND resolved_at IS NULL "
                               "GROUP BY language", (kind,))
        return {row["language"]: row["n"] for row in rows}

    def requests(self, kind: str) -> list[dict]:
        """Every request of a kind, answered or not: dicts with id, competition, field, language, feedback, resolved_at."""
        rows = self.db.execute("SELECT id, competition, field, language, feedback, resolved_at FROM requests "
                               "WHERE kind = ? ORDER BY id", (kind,))
        return [dict(row) for row in rows]

    def resolve_requests(self, kind: str, competition: str, field: str | None = None, language: str | None = None) -> None:
        """Close the open requests a finished redo answered; call inside the redo's own transaction."""
        with self.transaction() as db:
            db.execute(
                "UPDATE requests SET resolved_at = ? WHERE kind = ? AND competition = ? AND field IS ? AND language IS ? "
                "AND resolved_at IS NULL", (now(), kind, competition, field, language))
