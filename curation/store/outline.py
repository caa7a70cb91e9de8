"""Outlines (migrations 70-79): the solution outline kept per competition, its translations, and the rubric scores
reviewers give it (append-only, the latest answer counts)."""

from __future__ import annotations

from curation.records import Outline, OutlineScore, Translation
from curation.store.base import StoreMixin, now

OUTLINE_MIGRATIONS = [
    (70, "outlines", """
        -- The outline the judge picked per competition, with every candidate's score and lint findings.
        CREATE TABLE outlines (
            competition TEXT PRIMARY KEY,
            record TEXT NOT NULL,           -- Outline as JSON
            updated_at TEXT NOT NULL
        );
        -- Outlines translated by the translate stage's machinery ([outline] translate = true).
        CREATE TABLE outline_translations (
            competition TEXT NOT NULL,
            language TEXT NOT NULL,
            record TEXT NOT NULL,           -- Translation (field "outline") as JSON
            flagged INTEGER NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (competition, language)
        );
        -- The rubric sheet's outline column: a score per annotator and outline text.
        CREATE TABLE outline_scores (
            id INTEGER PRIMARY KEY,
            competition TEXT NOT NULL,
            annotator TEXT NOT NULL,
            outline_hash TEXT NOT NULL,
            record TEXT NOT NULL,           -- OutlineScore as JSON
            pulled_at TEXT NOT NULL
        );
        CREATE INDEX outline_scores_competition ON outline_scores(competition, annotator);
    """),
]


class OutlineMixin(StoreMixin):
    """Outlines, their translations and their rubric scores."""

    def save_outline(self, outline: Outline) -> None:
        """Keep a competition's outline, replacing the previous one."""
        self._upsert_record("outlines", {"competition": outline.competition}, outline)

    def outline(self, slug: str) -> Outline | None:
        """A competition's outline, or None."""
        row = self.db.execute("SELECT record FROM outlines WHERE competition = ?", (slug,)).fetchone()
        return self._record(Outline, row)

    def outlines(self) -> list[Outline]:
        """Every outline, by competition."""
        return self._records(Outline, self.db.execute("SELECT record FROM outlines ORDER BY competition"))

    def save_outline_translation(self, translation: Translation) -> None:
        """Keep an outline's translation into one language, replacing the previous one."""
        self._upsert_record("outline_translations", {"competition": translation.competition,
                                                     "language": translation.language},
                            translation, {"flagged": int(translation.flagged)})

    def outline_translations(self, language: str | None = None, competition: str | None = None) -> list[Translation]:
        """Outline translations by language and competition, optionally of one language or competition."""
        where, values = self._where(language=language, competition=competition)
        rows = self.db.execute(f"SELECT record FROM outline_translations{where} ORDER BY language, competition", values)
        return self._records(Translation, rows)

    def add_outline_score(self, score: OutlineScore) -> bool:
        """Append a score unless it repeats the annotator's latest one on the same outline text; True when added."""
        with self.transaction() as db:
            rows = db.execute("SELECT record FROM outline_scores WHERE competition = ? AND annotator = ? AND "
                              "outline_hash = ? ORDER BY id DESC", (score.competition, score.annotator,
                                                                    score.outline_hash)).fetchall()
            earlier = [OutlineScore.model_validate_json(row["record"]) for row in rows]
            # The latest answer repeated, or the very same pull replayed (`review import` twice): nothing new.
            if earlier and (earlier[0].score, earlier[0].comment) == (score.score, score.comment):
                return False
            if any((e.score, e.comment, e.pulled_at) == (score.score, score.comment, score.pulled_at) for e in earlier):
                return False
            stamped = score.model_copy(update={"pulled_at": score.pulled_at or now()})
            db.execute("INSERT INTO outline_scores (competition, annotator, outline_hash, record, pulled_at) "
                       "VALUES (?, ?, ?, ?, ?)", (stamped.competition, stamped.annotator, stamped.outline_hash,
                                                  stamped.model_dump_json(), stamped.pulled_at))
            return True

    def outline_scores(self) -> list[OutlineScore]:
        """Each annotator's latest score per outline text, in pull order."""
        rows = self.db.execute("SELECT record FROM outline_scores WHERE id IN (SELECT MAX(id) FROM outline_scores "
                               "GROUP BY competition, annotator, outline_hash) ORDER BY id")
        return self._records(OutlineScore, rows)
