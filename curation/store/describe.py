"""Describe and tag (migrations 20-29): the final English description and domain per competition (with the ones
it replaced), and every round of the describe loop."""

from __future__ import annotations

from curation.records import Description, DescriptionRound, DomainTag
from curation.store.base import StoreMixin, now


class DescribeMixin(StoreMixin):
    """Descriptions, domain tags and the describe loop's rounds."""

    # -- describe / tag: the final English description and domain per competition ---------------

    def save_description(self, description: Description) -> None:
        """Keep a competition's final English description; the one it replaces, when its text differs, goes to the
        history."""
        with self.transaction() as db:
            previous = self.description(description.competition)
            if previous is not None and previous.text != description.text:
                db.execute("INSERT INTO description_history (competition, record, replaced_at) VALUES (?, ?, ?)",
                           (description.competition, previous.model_dump_json(), now()))
            self._upsert_record("descriptions", {"competition": description.competition}, description)

    def description_history(self, slug: str) -> list[Description]:
        """Earlier English descriptions of a competition, oldest first."""
        rows = self.db.execute("SELECT record FROM description_history WHERE competition = ? ORDER BY id", (slug,))
        return self._records(Description, rows)

    def description(self, slug: str) -> Description | None:
        """A competition's final English description, or None."""
        row = self.db.execute("SELECT record FROM descriptions WHERE competition = ?", (slug,)).fetchone()
        return self._record(Description, row)

    def descriptions(self) -> list[Description]:
        """Every final description, by competition."""
        return self._records(Description, self.db.execute("SELECT record FROM descriptions ORDER BY competition"))

    def save_domain(self, tag: DomainTag) -> None:
        """Keep a competition's domain tag, replacing the previous one."""
        self._upsert_record("domains", {"competition": tag.competition}, tag)

    def domain(self, slug: str) -> DomainTag | None:
        """A competition's domain tag, or None."""
        row = self.db.execute("SELECT record FROM domains WHERE competition = ?", (slug,)).fetchone()
        return self._record(DomainTag, row)

    def domains(self) -> list[DomainTag]:
        """Every domain tag, by competition."""
        return self._records(DomainTag, self.db.execute("SELECT record FROM domains ORDER BY competition"))

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
        return self._records(DescriptionRound, rows)

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
