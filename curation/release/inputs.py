"""Everything a release is made of, read from the store once: competitions, English sources, final texts, reviews."""

from __future__ import annotations

from dataclasses import dataclass, field

from curation.config import Settings
from curation.records import FIELDS, Competition, Description, DomainTag, FinalText
from curation.store import Store


@dataclass
class ReleaseInputs:
    """The store's view of the benchmark at publish time, keyed for quick lookups."""

    languages: list[str]  # every configured language, the source language included
    source_language: str
    competitions: list[Competition]
    descriptions: dict[str, Description]
    domains: dict[str, DomainTag]
    rubric: dict[str, int]
    finals: dict[tuple[str, str, str], FinalText]  # (language, competition, field) -> final text
    open_retranslations: list[dict] = field(default_factory=list)
    open_redescriptions: list[dict] = field(default_factory=list)

    @classmethod
    def from_store(cls, store: Store, settings: Settings) -> "ReleaseInputs":
        """Read the release's inputs from the working store."""
        return cls(
            languages=list(settings.project.languages),
            source_language=settings.project.source_language,
            competitions=store.competitions(),
            descriptions={d.competition: d for d in store.descriptions()},
            domains={d.competition: d for d in store.domains()},
            rubric=store.rubric_final(),
            finals={(f.language, f.competition, f.field): f for f in store.final_texts()},
            open_retranslations=store.open_requests("retranslate"),
            open_redescriptions=store.open_requests("redescribe"),
        )

    def source_text(self, competition: Competition, field_name: str) -> FinalText | None:
        """The English text of a field as a FinalText: a merged English final text wins over the raw sources."""
        merged = self.finals.get((self.source_language, competition.competition, field_name))
        if merged is not None:
            return merged
        slug = competition.competition
        if field_name == "description":
            description = self.descriptions.get(slug)
            if description is None or not description.text.strip():
                return None
            return FinalText(competition=slug, field="description", language=self.source_language,
                             text=description.text, provenance=description.provenance)
        if field_name == "data_card":
            if not competition.data_card.strip():
                return None
            # Data cards are written by the curator, never generated.
            return FinalText(competition=slug, field="data_card", language=self.source_language,
                             text=competition.data_card, provenance="human")
        tag = self.domains.get(slug)
        if tag is None or not tag.domain.strip():
            return None
        return FinalText(competition=slug, field="domain", language=self.source_language, text=tag.domain,
                         provenance="machine")

    def text(self, language: str, competition: Competition, field_name: str) -> FinalText | None:
        """The text a release publishes for one (language, competition, field), or None when there is none yet."""
        if language == self.source_language:
            return self.source_text(competition, field_name)
        return self.finals.get((language, competition.competition, field_name))

    def texts(self, language: str, competition: Competition) -> dict[str, FinalText | None]:
        """All translated fields of one competition in one language."""
        return {name: self.text(language, competition, name) for name in FIELDS}
