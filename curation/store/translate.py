"""Translate (migrations 30-39): the current machine translation per (competition, field, language)."""

from __future__ import annotations

from curation.records import Translation
from curation.store.base import StoreMixin


class TranslateMixin(StoreMixin):
    """Machine translations, one current record per (competition, field, language)."""

    # -- translate: the current machine translation per (competition, field, language) ------------

    def save_translation(self, translation: Translation) -> None:
        """Keep a translation, replacing the previous one of the same text and language."""
        key = {"competition": translation.competition, "field": translation.field, "language": translation.language}
        self._upsert_record("translations", key, translation, {"flagged": int(translation.flagged)})

    def translation(self, competition: str, field: str, language: str) -> Translation | None:
        """The current translation of one field of a competition into one language, or None."""
        row = self.db.execute(
            "SELECT record FROM translations WHERE competition = ? AND field = ? AND language = ?",
            (competition, field, language),
        ).fetchone()
        return self._record(Translation, row)

    def translations(self, language: str | None = None, competition: str | None = None) -> list[Translation]:
        """Current translations by language, competition and field, optionally of one language or competition."""
        rows = self.db.execute(
            "SELECT record FROM translations WHERE (?1 IS NULL OR language = ?1) AND (?2 IS NULL OR competition = ?2) "
            "ORDER BY language, competition, field",
            (language, competition),
        )
        return self._records(Translation, rows)
