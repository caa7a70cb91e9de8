"""Review (migrations 41, 43): the sheet rows as pushed, what each sheet was known to hold, and the verdicts and rubric
scores pulled back (append-only)."""

from __future__ import annotations

from collections.abc import Iterable

from curation.records import PushedRow, RubricScore, Verdict
from curation.store.base import StoreMixin, now


class ReviewMixin(StoreMixin):
    """What each annotator's sheet holds, and every answer pulled from it; the latest answer counts."""

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

    def pushed_rows(self, language: str | None = None, annotator: str | None = None) -> list[PushedRow]:
        """Rows pushed so far, by language and annotator, in sheet order."""
        where, values = self._where(language=language, annotator=annotator)
        rows = self.db.execute(f"SELECT record FROM review_pushed{where} ORDER BY language, annotator, tab, row", values)
        return self._records(PushedRow, rows)

    def sheet_stamps(self, language: str) -> dict[str, tuple[str, str, str]]:
        """Annotator -> (sheet, stamp, rows) of a language: the content each sheet had when all its rows were known."""
        rows = self.db.execute("SELECT annotator, sheet, stamp, rows FROM review_sheet_stamps WHERE language = ?",
                               (language,))
        return {row["annotator"]: (row["sheet"], row["stamp"], row["rows"]) for row in rows}

    def save_sheet_stamp(self, language: str, annotator: str, sheet: str, stamp: str | None, rows: str) -> None:
        """Remember the content a sheet holds with every pushed row in it; None forgets it (the next push reads)."""
        with self.transaction() as db:
            if stamp is None:
                db.execute("DELETE FROM review_sheet_stamps WHERE language = ? AND annotator = ?", (language, annotator))
                return
            db.execute(
                "INSERT INTO review_sheet_stamps (language, annotator, sheet, stamp, rows, saved_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(language, annotator) DO UPDATE SET sheet = excluded.sheet, stamp = excluded.stamp, "
                "rows = excluded.rows, saved_at = excluded.saved_at", (language, annotator, sheet, stamp, rows, now()))

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
        where, values = self._where(language=language)
        if latest:
            where = (f"{where} {'AND' if where else 'WHERE'} id IN (SELECT MAX(id) FROM review_verdicts{where} "
                     "GROUP BY language, item_id, annotator, translation_hash)")
            values *= 2
        rows = self.db.execute(f"SELECT record FROM review_verdicts{where} ORDER BY id", values)
        return self._records(Verdict, rows)

    def verdict_languages(self) -> set[str]:
        """The languages with any verdict pulled."""
        return {row[0] for row in self.db.execute("SELECT DISTINCT language FROM review_verdicts")}

    def pushed_counts(self) -> dict[str, int]:
        """Language -> how many texts were pushed to its sheets (a text pushed to two annotators counts once)."""
        rows = self.db.execute("SELECT language, COUNT(DISTINCT item_id) AS n FROM review_pushed GROUP BY language")
        return {row["language"]: row["n"] for row in rows}

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
        return self._records(RubricScore, rows)

    @staticmethod
    def _same_answer(a: Verdict, b: Verdict) -> bool:
        return (a.verdict, a.own_version, a.comment) == (b.verdict, b.own_version, b.comment)
