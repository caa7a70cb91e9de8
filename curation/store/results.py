"""Results (migration 80): graded runs of agents, one row per agent and run, each as read and classified on its own."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from curation.records import RunResult
from curation.store.base import StoreMixin, now

RESULTS_MIGRATION = (80, "results", """
        CREATE TABLE results (
            agent TEXT NOT NULL,
            run TEXT NOT NULL,              -- the harness's run folder name, or <csv file name>:<line>
            competition TEXT NOT NULL,
            language TEXT NOT NULL,         -- ISO code
            error_class TEXT NOT NULL,      -- as classified on its own (rules or the triage role)
            record TEXT NOT NULL,           -- RunResult as JSON
            input_hash TEXT NOT NULL,       -- of what was read, so an unchanged run is told from a changed one
            updated_at TEXT NOT NULL,
            PRIMARY KEY (agent, run)
        );
        CREATE INDEX results_by_class ON results(error_class, language);
    """)


@dataclass(frozen=True)
class SavedRuns:
    """What saving a batch of runs did: rows added, rows replaced by a changed run, runs already stored as they are."""

    added: int
    changed: int
    unchanged: int


class ResultsMixin(StoreMixin):
    """Graded runs, keyed by agent and run: reading the same folders again adds nothing."""

    def save_runs(self, runs: Iterable[tuple[RunResult, str]]) -> SavedRuns:
        """Store (run, hash of what it was read from) pairs in one transaction; a run stored with the same hash is
        left as it is, one with another hash replaced."""
        runs = list(runs)
        agents = sorted({run.agent for run, _ in runs})
        known: dict[tuple[str, str], str] = {}
        for start in range(0, len(agents), 500):  # SQLite's limit on bound variables
            chunk = agents[start:start + 500]
            rows = self.db.execute(f"SELECT agent, run, input_hash FROM results WHERE agent IN "
                                   f"({', '.join('?' * len(chunk))})", chunk)
            known.update({(row["agent"], row["run"]): row["input_hash"] for row in rows})
        stamp = now()
        added = changed = 0
        values = []
        for run, digest in runs:
            before = known.get((run.agent, run.run))
            if before == digest:
                continue
            added += before is None
            changed += before is not None
            known[(run.agent, run.run)] = digest  # the same run twice in one batch is written once
            values.append((run.agent, run.run, run.competition, run.language, run.error_class,
                           run.model_dump_json(), digest, stamp))
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO results (agent, run, competition, language, error_class, record, input_hash, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(agent, run) DO UPDATE SET "
                "competition = excluded.competition, language = excluded.language, error_class = excluded.error_class, "
                "record = excluded.record, input_hash = excluded.input_hash, updated_at = excluded.updated_at", values)
        return SavedRuns(added=added, changed=changed, unchanged=len(runs) - added - changed)

    def stored_runs(self, agents: Iterable[str] | None = None) -> list[RunResult]:
        """Every stored run (of these agents, when given), by agent and run."""
        chosen = sorted(set(agents)) if agents is not None else None
        if chosen is None:
            rows = self.db.execute("SELECT record FROM results ORDER BY agent, run")
            return self._records(RunResult, rows)
        found: list[RunResult] = []
        for start in range(0, len(chosen), 500):
            chunk = chosen[start:start + 500]
            found += self._records(RunResult, self.db.execute(
                f"SELECT record FROM results WHERE agent IN ({', '.join('?' * len(chunk))}) ORDER BY agent, run",
                chunk))
        return sorted(found, key=lambda run: (run.agent, run.run))
