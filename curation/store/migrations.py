"""The store's schema: every migration, numbered, in the order the stages landed.

Each stage numbers its migrations in its own range (core 1-9, llm 10-19, describe/tag 20-29, translate 30-39,
review 40-49, publish 50-59, synthesize 60-69, outline 70-79 in curation/store/outline.py, results 80-89 in
curation/store/results.py) so stages can land in any order. A migration that has shipped is never edited; a change
to a table is a new migration in that stage's range.

A migration is SQL, or a function of the connection and the project root for a change SQL cannot express (paths
made relative to the root, curation/store/relative_paths.py). `Store` runs such a function only when it is opened with the root (every command
does); until then the rows keep working as they were.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from curation.store.outline import OUTLINE_MIGRATIONS
from curation.store.relative_paths import PATH_MIGRATIONS
from curation.store.results import RESULTS_MIGRATION

# (version, name, SQL). Append; never edit a migration that has shipped.
MIGRATIONS: list[tuple[int, str, str | Callable[[sqlite3.Connection, Path], None]]] = [
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
    (31, "translation_history", """
        -- Translations replaced by a newer one (a changed source, prompt or model, a retranslation, or
        -- `curate translate --redo-reviewed`): the old text stays readable next to the verdicts given on it.
        CREATE TABLE translation_history (
            id INTEGER PRIMARY KEY,
            competition TEXT NOT NULL,
            field TEXT NOT NULL,
            language TEXT NOT NULL,
            record TEXT NOT NULL,           -- the replaced Translation as JSON
            replaced_at TEXT NOT NULL
        );
        CREATE INDEX translation_history_item ON translation_history(competition, field, language);
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
# -- llm: prompt-cache writes (Anthropic bills them above the input price), next to the cached reads ----------------
MIGRATIONS.append((11, "llm_cache_writes", """
        ALTER TABLE llm_calls ADD COLUMN tokens_cache_write INTEGER NOT NULL DEFAULT 0;
    """))


# -- llm: claims on requests being sent (version 12), so that two processes never pay for the same request ----------
MIGRATIONS.append((12, "llm_claims", """
        -- One row per request being sent right now. Another process wanting the same answer waits until the row is
        -- gone, then reads the answer from llm_calls; a row whose process died or whose lease ran out is taken over.
        CREATE TABLE llm_claims (
            request_hash TEXT PRIMARY KEY,  -- the cache key of the request
            owner TEXT NOT NULL,            -- the LLM client holding it (a random token per client)
            pid INTEGER NOT NULL,           -- its process
            machine TEXT NOT NULL,          -- where that pid can be looked up (boot id and pid namespace, or host name)
            started TEXT NOT NULL,          -- the process's start time ('' when unknown): a reused pid is not the holder
            expires_at REAL NOT NULL,       -- unix time; renewed by the holder while the call is under way
            claimed_at TEXT NOT NULL
        );
    """))


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


# -- describe: descriptions replaced by a newer text, e.g. `curate describe --redo-reviewed` (version 22) ---------
MIGRATIONS.append((22, "description_history", """
        -- The old text stays readable next to the rubric scores given on it.
        CREATE TABLE description_history (
            id INTEGER PRIMARY KEY,
            competition TEXT NOT NULL,
            record TEXT NOT NULL,           -- the replaced Description as JSON
            replaced_at TEXT NOT NULL
        );
        CREATE INDEX description_history_competition ON description_history(competition);
    """))

# -- synthesize (versions 60-69): each step's output per dataset, idea or task, with the hash of its inputs ------
MIGRATIONS.append((60, "synthesis", """
        CREATE TABLE synthesis (
            step TEXT NOT NULL,             -- profile | brainstorm | design | verify
            key TEXT NOT NULL,              -- the dataset slug, or dataset/idea, or the task slug
            dataset TEXT NOT NULL,
            record TEXT NOT NULL,           -- the step's record as JSON
            input_hash TEXT NOT NULL,       -- a rerun redoes the step only when this changes
            updated_at TEXT NOT NULL,
            PRIMARY KEY (step, key)
        );
    """))


# -- llm batches (version 15, in the llm range): provider batches and the requests in them, written before the
# batch is submitted, so a killed curate resumes polling the same batch instead of paying for a second one ---------
MIGRATIONS.append((15, "llm_batches", """
        CREATE TABLE llm_batches (
            id INTEGER PRIMARY KEY,
            provider TEXT NOT NULL,         -- the [providers] name
            model TEXT NOT NULL,
            remote_id TEXT,                 -- the provider's batch id; NULL while it is being submitted
            state TEXT NOT NULL,            -- submitting, then the provider's status (in_progress, ended, ...)
            counts TEXT NOT NULL DEFAULT '{}', -- the provider's request counts as JSON
            closed INTEGER NOT NULL DEFAULT 0, -- 1 once its results are stored (or it was given up)
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );
        CREATE TABLE llm_batch_requests (
            batch_id INTEGER NOT NULL REFERENCES llm_batches(id) ON DELETE CASCADE,
            custom_id TEXT NOT NULL,        -- what the provider echoes with the result
            request_hash TEXT NOT NULL,     -- the cache key of the LLM call the answer belongs to
            body TEXT NOT NULL,             -- the request body as sent (JSON; never a key)
            result TEXT,                    -- the provider's answer body (JSON) once the batch ended
            error TEXT,                     -- why there is no answer (per-request error, expired, cancelled)
            PRIMARY KEY (batch_id, custom_id)
        );
        CREATE INDEX llm_batch_requests_custom_id ON llm_batch_requests(custom_id);
    """))

# -- review (version 43): what each pushed sheet was known to hold, so a push with nothing new need not read it ----
MIGRATIONS.append((43, "review_sheet_stamps", """
        CREATE TABLE review_sheet_stamps (
            language TEXT NOT NULL,
            annotator TEXT NOT NULL,
            sheet TEXT NOT NULL,            -- workbook path or spreadsheet id, as in review_pushed
            stamp TEXT NOT NULL,            -- the backend's fingerprint of the sheet's content (xlsx: SHA-256 of the file)
            rows TEXT NOT NULL,             -- fingerprint of the pushed rows known to be in that content
            saved_at TEXT NOT NULL,
            PRIMARY KEY (language, annotator)
        );
    """))

# -- lookups a stage makes once per item, and the reads `curate status` makes once per language or stage, each by an
# index (versions 2, 32, 44): without one SQLite scans and sorts the whole table, and a run's time grows with the
# square of the project's size -------------------------------------------------------------------------------------
MIGRATIONS.append((2, "stage_status_by_stage", """
        CREATE INDEX stage_status_by_stage ON stage_status(stage, competition);
    """))
MIGRATIONS.append((32, "translations_by_language", """
        -- translate's status after each item reads its competition's translations into the language.
        CREATE INDEX translations_by_language ON translations(language, competition, field);
        -- Each check's outcome beside the record ("placeholders=1 length=0 ..."), so status counts pass rates from
        -- this index instead of parsing every record's JSON.
        ALTER TABLE translations ADD COLUMN check_results TEXT NOT NULL DEFAULT '';
        UPDATE translations SET check_results = COALESCE((SELECT group_concat(json_extract(value, '$.name') || '=' ||
            json_extract(value, '$.passed'), ' ') FROM json_each(record, '$.checks')), '');
        CREATE INDEX translations_checks ON translations(language, check_results, flagged);
    """))
MIGRATIONS.append((44, "merge_lookups", """
        CREATE INDEX final_texts_by_language ON final_texts(language, competition, field);
        -- translate and describe close the request an item answered; merge looks for an open one before adding it.
        CREATE INDEX requests_open ON requests(kind, competition, field, language) WHERE resolved_at IS NULL;
    """))
MIGRATIONS += PATH_MIGRATIONS  # paths made relative to the root (42, 51, 61), functions rather than SQL
MIGRATIONS += OUTLINE_MIGRATIONS  # outline (versions 70-79), kept beside the outline tables' SQL
MIGRATIONS.append(RESULTS_MIGRATION)  # results (versions 80-89), kept beside the results table's SQL
