"""Translate (migrations 30-39): the current machine translation per (competition, field, language)."""

from __future__ import annotations

from curation.records import Translation, TranslationTally
from curation.store.base import StoreMixin, now

# In a translation's check_results: the qe model overruled a word-list check's finding (counted like a check).
QE_OVERRULED = "qe_overruled"


class TranslateMixin(StoreMixin):
    """Machine translations, one current record per (competition, field, language)."""

    # -- translate: the current machine translation per (competition, field, language) ------------

    def save_translation(self, translation: Translation) -> None:
        """Keep a translation; the one it replaces, when its text differs, goes to the history."""
        key = {"competition": translation.competition, "field": translation.field, "language": translation.language}
        with self.transaction() as db:
            previous = self.translation(translation.competition, translation.field, translation.language)
            if previous is not None and previous.text != translation.text:
                db.execute("INSERT INTO translation_history (competition, field, language, record, replaced_at) "
                           "VALUES (?, ?, ?, ?, ?)", (*key.values(), previous.model_dump_json(), now()))
            self._upsert_record("translations", key, translation, {
                "flagged": int(translation.flagged),
                "check_results": " ".join([f"{check.name}={int(check.passed)}" for check in translation.checks]
                                          + [f"{QE_OVERRULED}=1"] * any(c.overruled for c in translation.checks))})

    def translation_history(self, competition: str, field: str, language: str) -> list[Translation]:
        """Earlier translations of one text into one language, oldest first."""
        rows = self.db.execute("SELECT record FROM translation_history WHERE competition = ? AND field = ? AND "
                               "language = ? ORDER BY id", (competition, field, language))
        return self._records(Translation, rows)

    def translation(self, competition: str, field: str, language: str) -> Translation | None:
        """The current translation of one field of a competition into one language, or None."""
        row = self.db.execute(
            "SELECT record FROM translations WHERE competition = ? AND field = ? AND language = ?",
            (competition, field, language),
        ).fetchone()
        return self._record(Translation, row)

    def translations(self, language: str | None = None, competition: str | None = None) -> list[Translation]:
        """Current translations by language, competition and field, optionally of one language or competition."""
        where, values = self._where(language=language, competition=competition)
        rows = self.db.execute(f"SELECT record FROM translations{where} ORDER BY language, competition, field", values)
        return self._records(Translation, rows)

    def translation_tallies(self) -> dict[str, TranslationTally]:
        """Language -> how its stored translations fare in the checks, counted from an index (no record is read)."""
        tallies: dict[str, TranslationTally] = {}
        rows = self.db.execute("SELECT language, check_results, COUNT(*) AS n, SUM(flagged) AS flagged FROM translations "
                               "GROUP BY language, check_results")
        for row in rows:
            tally = tallies.setdefault(row["language"], TranslationTally(language=row["language"]))
            tally.translated += row["n"]
            tally.flagged += row["flagged"]
            for result in row["check_results"].split():
                name, _, passed = result.rpartition("=")
                counted = tally.checks.setdefault(name, [0, 0])
                counted[0] += row["n"] * int(passed)
                counted[1] += row["n"]
        return tallies
