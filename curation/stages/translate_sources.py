"""The English texts the translate stage works from, read from the store: per competition and field, the text to
translate (None until the stage that writes it has run), and the hash that says a source changed."""

from __future__ import annotations

import hashlib

from curation.records import Competition
from curation.store import Store


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def source_texts(store: Store, competition: Competition) -> dict[str, str | None]:
    """The English texts to translate per field; None where the stage that writes it has not run yet."""
    return english_texts(store, [competition])[competition.competition]


def english_texts(store: Store, competitions: list[Competition]) -> dict[str, dict[str, str | None]]:
    """Slug -> source_texts() of each competition, read with two queries for all of them (or two per competition
    when they are few): a look at every competition costs the same few statements at any project size."""
    if len(competitions) > 2:
        descriptions = {d.competition: d for d in store.descriptions()}
        domains = {d.competition: d for d in store.domains()}
    else:
        slugs = [c.competition for c in competitions]
        descriptions = {slug: d for slug in slugs if (d := store.description(slug)) is not None}
        domains = {slug: d for slug in slugs if (d := store.domain(slug)) is not None}
    texts = {}
    for competition in competitions:
        description, domain = descriptions.get(competition.competition), domains.get(competition.competition)
        texts[competition.competition] = {"description": description.text if description else None,
                                          "data_card": competition.data_card,
                                          "domain": domain.domain if domain else None}
    return texts
