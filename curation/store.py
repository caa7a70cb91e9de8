"""The SQLite working store (data/curation.sqlite). This module owns all SQL.

WAL mode, numbered migrations, and one transaction per finished item: a process killed at any point
leaves the store as it was after the last finished item.

Sections below group the SQL by the stage that owns the tables; each stage's migrations use their own
range of version numbers (core 1-9, llm 10-19, describe/tag 20-29, translate 30-39, review 40-49,
publish 50-59) so stages can land in any order.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

from curation.records import (
    Competition,
    Description,
    DescriptionRound,
    DomainTag,
    FinalText,
    IngestedCompetition,
    Notebook,
    Problem,
    StageState,
    StageStatus,
    Translation,
)
from curation.records import CostLine, LLMCall
from curation.records import Release
from curation.records import PushedRow, RubricScore, Verdict


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# (version, name, SQL). Append; never edit a migration that has shipped.
MIGRATIONS: list[tuple[int, str, str]] = [
    (1, "core", """
        CREATE TABLE competitions (
            slug TEXT PRIMARY KEY,
            record TEXT NOT NULL,           -- Competition as JSON
            input_hash TEXT NOT NULL,       -- hash of the record and its notebooks, for idempotent ingest
            updated_at TEXT NOT NULL
        );
        CREATE TABLE notebooks (
            competition TEXT NOT NULL REFERENCES competitions(slug) ON DELETE CASCADE,
            position INTEGER NOT NULL,      -- 0 = best
            name TEXT NOT NULL,
            record TEXT NOT NULL,           -- Notebook as JSON
            PRIMARY KEY (competition, name)
        );
        CREATE TABLE problems (
            id INTEGER PRIMARY KEY,
            stage TEXT NOT NULL,
            competition TEXT,
            path TEXT NOT NULL,
            message TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE INDEX problems_stage ON problems(stage);
        CREATE TABLE stage_status (
            competition TEXT NOT NULL,
            stage TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('done', 'pending', 'failed', 'needs_human')),
            detail TEXT NOT NULL DEFAULT '',
            input_hash TEXT NOT NULL DEFAULT '',
            updated_at TEXT NOT NULL,
            PRIMARY KEY (competition, stage)
        );
    """),
    (10, "llm_calls", """
        -- The LLM call log, which is also the answer cache: a successful, non-cached row answers any later
        -- request with the same request_hash. No keys or headers are ever written here.
        CREATE TABLE llm_calls (
            id INTEGER PRIMARY KEY,
            stage TEXT NOT NULL,
            role TEXT NOT NULL,
            item TEXT NOT NULL,
            provider TEXT NOT NULL,
            model TEXT NOT NULL,
            request_hash TEXT NOT NULL,
            response TEXT,                  -- the validated answer text; NULL when the call failed
            tokens_in INTEGER NOT NULL DEFAULT 0,
            tokens_out INTEGER NOT NULL DEFAULT 0,
            tokens_cached INTEGER NOT NULL DEFAULT 0,
            cost_usd REAL NOT NULL DEFAULT 0,
            saved_usd REAL NOT NULL DEFAULT 0, -- cache hits: what the original call cost
            latency_ms INTEGER NOT NULL DEFAULT 0,
            attempts INTEGER NOT NULL DEFAULT 0,
            cached INTEGER NOT NULL DEFAULT 0,
            error TEXT,
            created_at TEXT NOT NULL
        );
        CREATE INDEX llm_calls_answers ON llm_calls(request_hash) WHERE error IS NULL AND cached = 0;
    """),
    (20, "describe_tag", """
        CREATE TABLE descriptions (
            competition TEXT PRIMARY KEY,
            record TEXT NOT NULL,           -- Description as JSON
            updated_at TEXT NOT NULL
        );
        CREATE TABLE domains (
            competition TEXT PRIMARY KEY,
            record TEXT NOT NULL,           -- DomainTag as JSON
            updated_at TEXT NOT NULL
        );
    """),
    (21, "description_rounds", """
        -- Every round of the describe loop (generated or person-written text, grade, reasons, lint findings,
        -- model, prompt hash, tokens, cost). A run is one pass of the loop; later runs add, never overwrite.
        CREATE TABLE description_rounds (
            competition TEXT NOT NULL,
            run INTEGER NOT NULL,
            round INTEGER NOT NULL,
            record TEXT NOT NULL,           -- DescriptionRound as JSON
            created_at TEXT NOT NULL,
            PRIMARY KEY (competition, run, round)
        );
    """),
    (30, "translate", """
        CREATE TABLE translations (
            competition TEXT NOT NULL,
            field TEXT NOT NULL,
            language TEXT NOT NULL,
            record TEXT NOT NULL,           -- Translation as JSON
            flagged INTEGER NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (competition, field, language)
        );
    """),
    (40, "final_texts", """
        CREATE TABLE final_texts (
            competition TEXT NOT NULL,
            field TEXT NOT NULL,
            language TEXT NOT NULL,
            record TEXT NOT NULL,           -- FinalText as JSON
            updated_at TEXT NOT NULL,
            PRIMARY KEY (competition, field, language)
        );
        -- Work sent back by review: kind 'retranslate' (competition, field, language) or 'redescribe'.
        CREATE TABLE requests (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('retranslate', 'redescribe')),
            competition TEXT NOT NULL,
            field TEXT,
            language TEXT,
            feedback TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            resolved_at TEXT
        );
        CREATE TABLE rubric_final (
            competition TEXT PRIMARY KEY,
            score INTEGER NOT NULL CHECK (score IN (0, 1, 2)),
            detail TEXT NOT NULL DEFAULT '',
            updated_at TEXT NOT NULL
        );
    """),
    (41, "review", """
        -- What each annotator's sheet holds, row by row, as pushed: pull compares locked columns with it.
        CREATE TABLE review_pushed (
            language TEXT NOT NULL,
            annotator TEXT NOT NULL,
            key TEXT NOT NULL,              -- the id column's text
            item_id TEXT NOT NULL,
            sheet TEXT NOT NULL,
            tab TEXT NOT NULL,
            row INTEGER NOT NULL,
            translation_hash TEXT NOT NULL,
            record TEXT NOT NULL,           -- PushedRow as JSON
            pushed_at TEXT NOT NULL,
            PRIMARY KEY (language, annotator, key)
        );
        -- Verdicts and rubric scores are append-only: a changed answer is a new row, the latest one counts.
        CREATE TABLE review_verdicts (
            id INTEGER PRIMARY KEY,
            item_id TEXT NOT NULL,
            language TEXT NOT NULL,
            annotator TEXT NOT NULL,
            translation_hash TEXT NOT NULL,
            record TEXT NOT NULL,           -- Verdict as JSON
            pulled_at TEXT NOT NULL
        );
        CREATE INDEX review_verdicts_item ON review_verdicts(language, item_id, annotator);
        CREATE TABLE rubric_scores (
            id INTEGER PRIMARY KEY,
            competition TEXT NOT NULL,
            annotator TEXT NOT NULL,
            description_hash TEXT NOT NULL,
            record TEXT NOT NULL,           -- RubricScore as JSON
            pulled_at TEXT NOT NULL
        );
        CREATE INDEX rubric_scores_competition ON rubric_scores(competition, annotator);
    """),
]


# -- publish (versions 50-59): every release written, with its manifest for the next release's diff ----------
MIGRATIONS.append((50, "releases", """
        CREATE TABLE releases (
            target TEXT NOT NULL,           -- as given to --to
            version TEXT NOT NULL,          -- X.Y.Z
            record TEXT NOT NULL,           -- Release as JSON
            manifest TEXT NOT NULL,         -- the release's manifest.json
            created_at TEXT NOT NULL,
            PRIMARY KEY (target, version)
        );
    """))

class StoreError(Exception):
    """The store cannot be opened or migrated; the message says what to do."""


class Store:
    """The working store. Open with `Store(path)`; use `with store.transaction():` around one item's writes."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None, timeout=30, check_same_thread=False)
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: cannot open the store ({error}); move the file aside and re-run, "
                             "or rebuild reviews with `curate review import annotations/`") from None
        self._depth = 0

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Store":
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
        for version, name, sql in sorted(MIGRATIONS):
            if version in applied:
                continue
            # executescript commits on its own; wrap it so a failed migration leaves nothing half-applied.
            self.db.executescript(f"BEGIN IMMEDIATE;\n{sql}\nINSERT INTO schema_migrations VALUES ({version}, '{name}', '{now()}');\nCOMMIT;")

    @property
    def schema_version(self) -> int:
        return self.db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()[0]

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
        rows = self.db.execute("SELECT * FROM llm_calls WHERE (?1 IS NULL OR stage = ?1) ORDER BY id", (stage,))
        return [self._row_to_llm_call(row) for row in rows]

    def llm_costs(self) -> list[CostLine]:
        """Spend, tokens and cache savings per (stage, role, provider:model)."""
        rows = self.db.execute(
            "SELECT stage, role, provider || ':' || model AS model, COUNT(*) AS calls, SUM(cached) AS cache_hits, "
            "SUM(error IS NOT NULL) AS failed, SUM(tokens_in) AS tokens_in, SUM(tokens_out) AS tokens_out, "
            "SUM(tokens_cached) AS tokens_cached, SUM(cost_usd) AS cost_usd, SUM(saved_usd) AS saved_usd "
            "FROM llm_calls GROUP BY stage, role, provider, model ORDER BY stage, role, model")
        return [CostLine(**dict(row)) for row in rows]

    @staticmethod
    def _row_to_llm_call(row: sqlite3.Row) -> LLMCall:
        return LLMCall(**{key: row[key] for key in row.keys() if key != "id"})

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
        rows = self.db.execute("SELECT record FROM competitions ORDER BY slug")
        return [Competition.model_validate_json(row["record"]) for row in rows]

    def competition(self, slug: str) -> Competition | None:
        row = self.db.execute("SELECT record FROM competitions WHERE slug = ?", (slug,)).fetchone()
        return Competition.model_validate_json(row["record"]) if row else None

    def notebooks(self, slug: str) -> list[Notebook]:
        rows = self.db.execute("SELECT record FROM notebooks WHERE competition = ? ORDER BY position", (slug,))
        return [Notebook.model_validate_json(row["record"]) for row in rows]

    def notebook_counts(self) -> dict[str, int]:
        rows = self.db.execute("SELECT competition, COUNT(*) AS n FROM notebooks GROUP BY competition")
        return {row["competition"]: row["n"] for row in rows}

    def remove_competition(self, slug: str) -> None:
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
        sql = "SELECT stage, competition, path, message FROM problems"
        rows = self.db.execute(sql + (" WHERE stage = ? ORDER BY id" if stage else " ORDER BY id"), (stage,) if stage else ())
        return [Problem(**dict(row)) for row in rows]

    # -- stage status: what `curate status` shows --------------------------------------------------

    def set_status(self, competition: str, stage: str, status: StageState, detail: str = "", input_hash: str = "") -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO stage_status (competition, stage, status, detail, input_hash, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(competition, stage) DO UPDATE SET status = excluded.status, "
                "detail = excluded.detail, input_hash = excluded.input_hash, updated_at = excluded.updated_at",
                (competition, stage, status, detail, input_hash, now()),
            )

    def statuses(self) -> list[StageStatus]:
        rows = self.db.execute("SELECT * FROM stage_status ORDER BY competition, stage")
        return [StageStatus(**dict(row)) for row in rows]

    def status(self, competition: str, stage: str) -> StageStatus | None:
        """One competition's status in one stage, or None when the stage never touched it."""
        row = self.db.execute("SELECT * FROM stage_status WHERE competition = ? AND stage = ?", (competition, stage)).fetchone()
        return StageStatus(**dict(row)) if row else None

    def competition_sources(self) -> dict[str, str]:
        """Slug -> where each stored competition was read from (Competition.source)."""
        rows = self.db.execute("SELECT slug, json_extract(record, '$.source') AS source FROM competitions")
        return {row["slug"]: row["source"] or "" for row in rows}


    # -- describe / tag: the final English description and domain per competition ---------------

    def save_description(self, description: Description) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO descriptions (competition, record, updated_at) VALUES (?, ?, ?) ON CONFLICT(competition) "
                "DO UPDATE SET record = excluded.record, updated_at = excluded.updated_at",
                (description.competition, description.model_dump_json(), now()),
            )

    def description(self, slug: str) -> Description | None:
        row = self.db.execute("SELECT record FROM descriptions WHERE competition = ?", (slug,)).fetchone()
        return Description.model_validate_json(row["record"]) if row else None

    def descriptions(self) -> list[Description]:
        rows = self.db.execute("SELECT record FROM descriptions ORDER BY competition")
        return [Description.model_validate_json(row["record"]) for row in rows]

    def save_domain(self, tag: DomainTag) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO domains (competition, record, updated_at) VALUES (?, ?, ?) ON CONFLICT(competition) "
                "DO UPDATE SET record = excluded.record, updated_at = excluded.updated_at",
                (tag.competition, tag.model_dump_json(), now()),
            )

    def domain(self, slug: str) -> DomainTag | None:
        row = self.db.execute("SELECT record FROM domains WHERE competition = ?", (slug,)).fetchone()
        return DomainTag.model_validate_json(row["record"]) if row else None

    def domains(self) -> list[DomainTag]:
        rows = self.db.execute("SELECT record FROM domains ORDER BY competition")
        return [DomainTag.model_validate_json(row["record"]) for row in rows]

    # -- describe / tag: every round of the describe loop -------------------------------------------

    def save_description_rounds(self, competition: str, rounds: list[DescriptionRound]) -> int:
        """Keep the rounds of one describe run as a new run of that competition; returns the run number."""
        with self.transaction() as db:
            run = db.execute("SELECT COALESCE(MAX(run), 0) + 1 FROM description_rounds WHERE competition = ?",
                             (competition,)).fetchone()[0]
            db.executemany(
                "INSERT INTO description_rounds (competition, run, round, record, created_at) VALUES (?, ?, ?, ?, ?)",
                [(competition, run, r.round, r.model_dump_json(), now()) for r in rounds],
            )
            return run

    def description_rounds(self, competition: str, run: int | None = None) -> list[DescriptionRound]:
        """The rounds of one describe run of a competition (the latest run by default), in order."""
        rows = self.db.execute(
            "SELECT record FROM description_rounds WHERE competition = ?1 AND run = COALESCE(?2, "
            "(SELECT MAX(run) FROM description_rounds WHERE competition = ?1)) ORDER BY round",
            (competition, run),
        )
        return [DescriptionRound.model_validate_json(row["record"]) for row in rows]

    def latest_description_rounds(self) -> dict[str, list[DescriptionRound]]:
        """Slug -> the rounds of its latest describe run, for the report."""
        rows = self.db.execute(
            "SELECT r.competition, r.record FROM description_rounds r JOIN (SELECT competition, MAX(run) AS run "
            "FROM description_rounds GROUP BY competition) latest ON latest.competition = r.competition "
            "AND latest.run = r.run ORDER BY r.competition, r.round")
        rounds: dict[str, list[DescriptionRound]] = {}
        for row in rows:
            rounds.setdefault(row["competition"], []).append(DescriptionRound.model_validate_json(row["record"]))
        return rounds

    # -- translate: the current machine translation per (competition, field, language) ------------

    def save_translation(self, translation: Translation) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO translations (competition, field, language, record, flagged, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(competition, field, language) DO UPDATE SET "
                "record = excluded.record, flagged = excluded.flagged, updated_at = excluded.updated_at",
                (translation.competition, translation.field, translation.language, translation.model_dump_json(),
                 int(translation.flagged), now()),
            )

    def translation(self, competition: str, field: str, language: str) -> Translation | None:
        row = self.db.execute(
            "SELECT record FROM translations WHERE competition = ? AND field = ? AND language = ?",
            (competition, field, language),
        ).fetchone()
        return Translation.model_validate_json(row["record"]) if row else None

    def translations(self, language: str | None = None, competition: str | None = None) -> list[Translation]:
        rows = self.db.execute(
            "SELECT record FROM translations WHERE (?1 IS NULL OR language = ?1) AND (?2 IS NULL OR competition = ?2) "
            "ORDER BY language, competition, field",
            (language, competition),
        )
        return [Translation.model_validate_json(row["record"]) for row in rows]

    # -- merge: final texts and rubric scores that a release publishes ---------------------------

    def save_final_text(self, final: FinalText) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO final_texts (competition, field, language, record, updated_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(competition, field, language) DO UPDATE SET record = excluded.record, "
                "updated_at = excluded.updated_at",
                (final.competition, final.field, final.language, final.model_dump_json(), now()),
            )

    def final_texts(self, language: str | None = None) -> list[FinalText]:
        rows = self.db.execute(
            "SELECT record FROM final_texts WHERE (?1 IS NULL OR language = ?1) ORDER BY language, competition, field",
            (language,),
        )
        return [FinalText.model_validate_json(row["record"]) for row in rows]

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
        rows = self.db.execute(
            "SELECT id, competition, field, language, feedback FROM requests WHERE kind = ? AND resolved_at IS NULL "
            "AND (?2 IS NULL OR language = ?2) ORDER BY id", (kind, language))
        return [dict(row) for row in rows]

    def resolve_requests(self, kind: str, competition: str, field: str | None = None, language: str | None = None) -> None:
        """Close the open requests a finished redo answered; call inside the redo's own transaction."""
        with self.transaction() as db:
            db.execute(
                "UPDATE requests SET resolved_at = ? WHERE kind = ? AND competition = ? AND field IS ? AND language IS ? "
                "AND resolved_at IS NULL", (now(), kind, competition, field, language))

    def save_rubric_final(self, competition: str, score: int, detail: str = "") -> None:
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

    # -- review: pushed sheet rows, verdicts and rubric scores (append-only) ---------------------

    def save_pushed_rows(self, rows: Iterable[PushedRow]) -> None:
        """Remember what was written where, replacing an earlier push of the same row key."""
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO review_pushed (language, annotator, key, item_id, sheet, tab, row, translation_hash, record, "
                "pushed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(language, annotator, key) DO UPDATE SET "
                "item_id = excluded.item_id, sheet = excluded.sheet, tab = excluded.tab, row = excluded.row, "
                "translation_hash = excluded.translation_hash, record = excluded.record, pushed_at = excluded.pushed_at",
                [(r.language, r.annotator, r.key, r.item_id, r.sheet, r.tab, r.row, r.translation_hash,
                  r.model_copy(update={"pushed_at": r.pushed_at or now()}).model_dump_json(), r.pushed_at or now())
                 for r in rows],
            )

    def remove_final_text(self, competition: str, field: str, language: str) -> bool:
        """Withdraw a merged text whose translation changed or whose verdict turned; True when there was one."""
        with self.transaction() as db:
            cursor = db.execute("DELETE FROM final_texts WHERE competition = ? AND field = ? AND language = ?",
                                (competition, field, language))
            return cursor.rowcount > 0

    def remove_rubric_final(self, competition: str) -> bool:
        """Withdraw the final rubric score of a description that changed since it was scored."""
        with self.transaction() as db:
            return db.execute("DELETE FROM rubric_final WHERE competition = ?", (competition,)).rowcount > 0

    def pushed_rows(self, language: str | None = None, annotator: str | None = None) -> list[PushedRow]:
        """Rows pushed so far, by language and annotator, in sheet order."""
        rows = self.db.execute(
            "SELECT record FROM review_pushed WHERE (?1 IS NULL OR language = ?1) AND (?2 IS NULL OR annotator = ?2) "
            "ORDER BY language, annotator, tab, row", (language, annotator))
        return [PushedRow.model_validate_json(row["record"]) for row in rows]

    def add_verdict(self, verdict: Verdict) -> bool:
        """Append a verdict unless it repeats the annotator's latest one on the same text; True when added."""
        with self.transaction() as db:
            latest = db.execute(
                "SELECT record FROM review_verdicts WHERE language = ? AND item_id = ? AND annotator = ? "
                "AND translation_hash = ? ORDER BY id DESC LIMIT 1",
                (verdict.language, verdict.item_id, verdict.annotator, verdict.translation_hash)).fetchone()
            if latest and self._same_answer(Verdict.model_validate_json(latest["record"]), verdict):
                return False
            # The very same pull replayed (e.g. `review import` run twice) is not a changed mind.
            same_pull = db.execute(
                "SELECT record FROM review_verdicts WHERE language = ? AND item_id = ? AND annotator = ? "
                "AND translation_hash = ? AND pulled_at = ?",
                (verdict.language, verdict.item_id, verdict.annotator, verdict.translation_hash, verdict.pulled_at))
            if any(self._same_answer(Verdict.model_validate_json(row["record"]), verdict) for row in same_pull):
                return False
            stamped = verdict.model_copy(update={"pulled_at": verdict.pulled_at or now()})
            db.execute(
                "INSERT INTO review_verdicts (item_id, language, annotator, translation_hash, record, pulled_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (stamped.item_id, stamped.language, stamped.annotator, stamped.translation_hash,
                 stamped.model_dump_json(), stamped.pulled_at))
            return True

    def verdicts(self, language: str | None = None, latest: bool = True) -> list[Verdict]:
        """Verdicts in pull order; with latest, only each annotator's last answer per (item, translation)."""
        where = "WHERE (?1 IS NULL OR language = ?1)"
        if latest:
            where += (" AND id IN (SELECT MAX(id) FROM review_verdicts WHERE (?1 IS NULL OR language = ?1) "
                      "GROUP BY language, item_id, annotator, translation_hash)")
        rows = self.db.execute(f"SELECT record FROM review_verdicts {where} ORDER BY id", (language,))
        return [Verdict.model_validate_json(row["record"]) for row in rows]

    def add_rubric_score(self, score: RubricScore) -> bool:
        """Append a rubric score unless it repeats the annotator's latest one on the same description; True when added."""
        with self.transaction() as db:
            latest = db.execute(
                "SELECT record FROM rubric_scores WHERE competition = ? AND annotator = ? AND description_hash = ? "
                "ORDER BY id DESC LIMIT 1", (score.competition, score.annotator, score.description_hash)).fetchone()
            if latest:
                previous = RubricScore.model_validate_json(latest["record"])
                if (previous.score, previous.comment) == (score.score, score.comment):
                    return False
            same_pull = db.execute(
                "SELECT record FROM rubric_scores WHERE competition = ? AND annotator = ? AND description_hash = ? "
                "AND pulled_at = ?", (score.competition, score.annotator, score.description_hash, score.pulled_at))
            replayed = (RubricScore.model_validate_json(row["record"]) for row in same_pull)
            if any((previous.score, previous.comment) == (score.score, score.comment) for previous in replayed):
                return False
            stamped = score.model_copy(update={"pulled_at": score.pulled_at or now()})
            db.execute(
                "INSERT INTO rubric_scores (competition, annotator, description_hash, record, pulled_at) VALUES (?, ?, ?, ?, ?)",
                (stamped.competition, stamped.annotator, stamped.description_hash, stamped.model_dump_json(),
                 stamped.pulled_at))
            return True

    def rubric_scores(self, latest: bool = True) -> list[RubricScore]:
        """Rubric scores in pull order; with latest, only each annotator's last score per description text."""
        where = ("WHERE id IN (SELECT MAX(id) FROM rubric_scores GROUP BY competition, annotator, description_hash)"
                 if latest else "")
        rows = self.db.execute(f"SELECT record FROM rubric_scores {where} ORDER BY id")
        return [RubricScore.model_validate_json(row["record"]) for row in rows]


    @staticmethod
    def _same_answer(a: Verdict, b: Verdict) -> bool:
        return (a.verdict, a.own_version, a.comment) == (b.verdict, b.own_version, b.comment)

    # -- publish: releases written to a target ----------------------------------------------------

    def save_release(self, release: Release, manifest: dict) -> None:
        """Record a published release with its manifest; a version is recorded once per target."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO releases (target, version, record, manifest, created_at) VALUES (?, ?, ?, ?, ?)",
                (release.target, release.version, release.model_dump_json(),
                 json.dumps(manifest, ensure_ascii=False, sort_keys=True), now()),
            )

    def releases(self, target: str | None = None) -> list[Release]:
        """Recorded releases, oldest first (all targets, or one)."""
        rows = self.db.execute(
            "SELECT record FROM releases WHERE (?1 IS NULL OR target = ?1) ORDER BY created_at, target, version",
            (target,))
        return [Release.model_validate_json(row["record"]) for row in rows]

    def release_manifest(self, target: str, version: str) -> dict | None:
        """The manifest a recorded release was published with, or None."""
        row = self.db.execute("SELECT manifest FROM releases WHERE target = ? AND version = ?",
                              (target, version)).fetchone()
        return json.loads(row["manifest"]) if row else None
