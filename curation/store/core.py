"""Core tables (migration 1): competitions and their notebooks, problems a stage reported, and stage status."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterable
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

    def notebooks_by_competition(self, only: str | None = None) -> Callable[[str], list[Notebook]]:
        """A lookup of each competition's notebooks (best first), to be asked in slug order: one query streams them
        all (or `only`'s), holding one competition's notebooks at a time."""
        where, values = self._where(competition=only)
        rows = self.db.execute(f"SELECT competition, record FROM notebooks{where} ORDER BY competition, position", values)
        groups = itertools.groupby(rows, key=lambda row: row["competition"])
        ahead: list = [next(groups, None)]

        def notebooks(slug: str) -> list[Notebook]:
            while ahead[0] is not None and ahead[0][0] < slug:
                ahead[0] = next(groups, None)
            if ahead[0] is None or ahead[0][0] != slug:
                return []
            return self._records(Notebook, ahead[0][1])
        return notebooks

    def competition_names(self) -> dict[str, str]:
        """Slug -> comp_name of every stored competition, without reading the rest of each record."""
        rows = self.db.execute("SELECT slug, json_extract(record, '$.comp_name') FROM competitions")
        return {slug: name or "" for slug, name in rows}

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
        where, values = self._where(stage=stage)
        rows = self.db.execute(f"SELECT * FROM stage_status{where} ORDER BY competition, stage", values)
        return [StageStatus(**dict(row)) for row in rows]

    def status_tallies(self, besides: Collection[str] = ()) -> tuple[int, dict[str, dict[str, int]]]:
        """(competitions known: stored or with a status in a stage other than those `besides`, stage -> stored state
        -> competitions in it), counted by SQLite: what the overview of `curate status` shows, at the same cost for 5
        competitions or 5,000. (A task synthesize rejected has a status in synthesize alone: it is no competition.)"""
        marks = ", ".join("?" * len(besides))
        total = self.db.execute("SELECT COUNT(*) FROM (SELECT slug FROM competitions UNION "
                                f"SELECT competition FROM stage_status GROUP BY competition "
                                f"HAVING MAX(stage NOT IN ({marks})))",
                                tuple(besides)).fetchone()[0]
        tallies: dict[str, dict[str, int]] = {}
        for row in self.db.execute("SELECT stage, status, COUNT(*) AS n FROM stage_status GROUP BY stage, status"):
            tallies.setdefault(row["stage"], {})[row["status"]] = row["n"]
        return total, tallies

    def failures_from_answers(self) -> dict[str, int]:
        """Stage -> failed competitions whose failed item (the key its detail starts with) got an answer on its last
        logged call, or no call at all: a rerun is answered from the cache and fails the same way. One statement:
        the call log is read once for the failed items, whatever their number."""
        rows = self.db.execute(
            "WITH failed AS (SELECT stage, substr(stage, 1, instr(stage || ':', ':') - 1) AS family, "
            "substr(detail, 1, instr(detail, ': ') - 1) AS item FROM stage_status WHERE status = 'failed'), "
            "last AS (SELECT stage, item, MAX(id) AS id FROM llm_calls WHERE item IN (SELECT item FROM failed) "
            "GROUP BY stage, item) "
            "SELECT failed.stage AS stage, COUNT(*) AS n FROM failed "
            "LEFT JOIN last ON last.item = failed.item AND last.stage = failed.family "
            "LEFT JOIN llm_calls AS call ON call.id = last.id "
            "WHERE call.error IS NULL GROUP BY failed.stage")
        return {row["stage"]: row["n"] for row in rows}

    def stage_states(self) -> dict[str, dict[str, dict[str, str]]]:
        """Slug -> stage -> {"status", "detail"}: every stored state in one read, for the per-competition report."""
        states: dict[str, dict[str, dict[str, str]]] = {}
        for competition, stage, status, detail in self.db.execute(
                "SELECT competition, stage, status, detail FROM stage_status"):
            states.setdefault(competition, {})[stage] = {"status": status, "detail": detail}
        return states

    def status(self, competition: str, stage: str) -> StageStatus | None:
        """One competition's status in one stage, or None when the stage never touched it."""
        row = self.db.execute("SELECT * FROM stage_status WHERE competition = ? AND stage = ?", (competition, stage)).fetchone()
        return StageStatus(**dict(row)) if row else None

    def competition_sources(self) -> dict[str, str]:
        """Slug -> where each stored competition was read from (Competition.source)."""
        rows = self.db.execute("SELECT slug, json_extract(record, '$.source') AS source FROM competitions")
        return {row["slug"]: row["source"] or "" for row in rows}
