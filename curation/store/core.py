"""Core tables (migration 1): competitions and their notebooks, problems a stage reported, and stage status."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from curation.records import (
    Competition,
    IngestedCompetition,
    Notebook,
    Problem,
    StageState,
    StageStatus,
)
from curation.store.base import StoreMixin, now


class CoreMixin(StoreMixin):
    """What ingest writes and every stage reads: competitions, notebooks, problems and per-stage status."""

    # -- competitions and notebooks (ingest) -----------------------------------------------------

    def save_ingested(self, item: IngestedCompetition) -> Literal["added", "updated", "unchanged"]:
        """Store one competition with its notebooks in one transaction; unchanged input writes nothing."""
        slug = item.competition.competition
        digest = item.input_hash
        with self.transaction() as db:
            row = db.execute("SELECT input_hash FROM competitions WHERE slug = ?", (slug,)).fetchone()
            if row and row["input_hash"] == digest:
                return "unchanged"
            db.execute(
                "INSERT INTO competitions (slug, record, input_hash, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(slug) DO UPDATE SET record = excluded.record, input_hash = excluded.input_hash, "
                "updated_at = excluded.updated_at",
                (slug, item.competition.model_dump_json(), digest, now()),
            )
            db.execute("DELETE FROM notebooks WHERE competition = ?", (slug,))
            db.executemany(
                "INSERT INTO notebooks (competition, position, name, record) VALUES (?, ?, ?, ?)",
                [(slug, position, nb.name, nb.model_dump_json()) for position, nb in enumerate(item.notebooks)],
            )
            return "updated" if row else "added"

    def competitions(self) -> list[Competition]:
        """Every stored competition, by slug."""
        return self._records(Competition, self.db.execute("SELECT record FROM competitions ORDER BY slug"))

    def competition(self, slug: str) -> Competition | None:
        """One stored competition, or None."""
        row = self.db.execute("SELECT record FROM competitions WHERE slug = ?", (slug,)).fetchone()
        return self._record(Competition, row)

    def notebooks(self, slug: str) -> list[Notebook]:
        """A competition's notebooks, best first."""
        rows = self.db.execute("SELECT record FROM notebooks WHERE competition = ? ORDER BY position", (slug,))
        return self._records(Notebook, rows)

    def notebook_counts(self) -> dict[str, int]:
        """Slug -> how many notebooks are stored for it."""
        rows = self.db.execute("SELECT competition, COUNT(*) AS n FROM notebooks GROUP BY competition")
        return {row["competition"]: row["n"] for row in rows}

    def remove_competition(self, slug: str) -> None:
        """Forget a competition, its notebooks (by cascade) and its stage status."""
        with self.transaction() as db:
            db.execute("DELETE FROM competitions WHERE slug = ?", (slug,))
            db.execute("DELETE FROM stage_status WHERE competition = ?", (slug,))

    # -- problems: bad input a stage reported ----------------------------------------------------

    def replace_problems(self, stage: str, problems: Iterable[Problem]) -> None:
        """The problems of a stage's latest run replace those of its previous run."""
        with self.transaction() as db:
            db.execute("DELETE FROM problems WHERE stage = ?", (stage,))
            db.executemany(
                "INSERT INTO problems (stage, competition, path, message, created_at) VALUES (?, ?, ?, ?, ?)",
                [(p.stage, p.competition, p.path, p.message, now()) for p in problems],
            )

    def problems(self, stage: str | None = None) -> list[Problem]:
        """Reported problems in order, optionally of one stage."""
        sql = "SELECT stage, competition, path, message FROM problems"
        rows = self.db.execute(sql + (" WHERE stage = ? ORDER BY id" if stage else " ORDER BY id"), (stage,) if stage else ())
        return [Problem(**dict(row)) for row in rows]

    # -- stage status: what `curate status` shows --------------------------------------------------

    def set_status(self, competition: str, stage: str, status: StageState, detail: str = "", input_hash: str = "") -> None:
        """Set one competition's status in one stage, replacing the previous one."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO stage_status (competition, stage, status, detail, input_hash, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(competition, stage) DO UPDATE SET status = excluded.status, "
                "detail = excluded.detail, input_hash = excluded.input_hash, updated_at = excluded.updated_at",
                (competition, stage, status, detail, input_hash, now()),
            )

    def statuses(self, stage: str | None = None) -> list[StageStatus]:
        """Every (competition, stage) status, by competition and stage; only one stage's when given."""
        rows = self.db.execute("SELECT * FROM stage_status WHERE (?1 IS NULL OR stage = ?1) ORDER BY competition, stage",
                               (stage,))
        return [StageStatus(**dict(row)) for row in rows]

    def status(self, competition: str, stage: str) -> StageStatus | None:
        """One competition's status in one stage, or None when the stage never touched it."""
        row = self.db.execute("SELECT * FROM stage_status WHERE competition = ? AND stage = ?", (competition, stage)).fetchone()
        return StageStatus(**dict(row)) if row else None

    def competition_sources(self) -> dict[str, str]:
        """Slug -> where each stored competition was read from (Competition.source)."""
        rows = self.db.execute("SELECT slug, json_extract(record, '$.source') AS source FROM competitions")
        return {row["slug"]: row["source"] or "" for row in rows}
