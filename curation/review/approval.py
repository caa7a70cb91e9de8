"""Which machine translations a person has approved or replaced: those are pinned against a changed prompt.

A translation is approved when the verdicts on exactly its text decide "keep" (every annotator said YES and YES)
or "fix" (an annotator wrote her own version): what merge makes a final text. A change
of the translate prompt or model makes such a text stale, but it stays final: it is listed as "reviewed under an
older prompt" (curation/stages/stale_reviewed.py) and only `curate translate --redo-reviewed` translates it again.
"""

from __future__ import annotations

from curation.records import Translation
from curation.review.decisions import decide
from curation.review.items import item_id, text_hash
from curation.review.statistics import judged_units
from curation.store import Store


def approved_translations(store: Store, language: str) -> set[tuple[str, str]]:
    """(competition, field) of the current translations into `language` that a person approved or fixed."""
    units = judged_units(store.verdicts(language))
    approved = set()
    for translation in store.translations(language=language):
        key = (translation.competition, translation.field)
        if decide(units.get((item_id(*key, language), _hash(translation)), [])).kind in ("keep", "fix"):
            approved.add(key)
    return approved


def _hash(translation: Translation) -> str:
    return text_hash(translation.text, translation.source_text, translation.round)
