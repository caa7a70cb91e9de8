"""Which machine texts a person has approved or replaced: those are pinned against a changed prompt.

A translation is approved when the verdicts on exactly its text decide "keep" (every annotator said YES and YES)
or "fix" (an annotator wrote her own version): what merge makes a final text. An English description is approved
when the rubric scores on exactly its text give a final score merge keeps (above 0 and at least
publish.min_rubric_score). A change of the prompt or model that wrote such a text makes it stale, but it stays
final: it is listed as "reviewed under an older prompt" (curation/stages/stale_reviewed.py) and only
`curate translate --redo-reviewed` (or `curate describe --redo-reviewed`) writes it again.
"""

from __future__ import annotations

from curation.config import Settings
from curation.records import Translation
from curation.review.decisions import decide, decide_rubric
from curation.review.items import current_rubric_scores, item_id, text_hash
from curation.review.statistics import judged_units
from curation.store import Store


def approved_translations(store: Store, language: str, translations: list[Translation] | None = None,
                          ) -> set[tuple[str, str]]:
    """(competition, field) of the current translations into `language` that a person approved or fixed;
    `translations`: those current translations, when the caller has read them already."""
    units = judged_units(store.verdicts(language))
    approved = set()
    for translation in store.translations(language=language) if translations is None else translations:
        key = (translation.competition, translation.field)
        if decide(units.get((item_id(*key, language), _hash(translation)), [])).kind in ("keep", "fix"):
            approved.add(key)
    return approved


def approved_descriptions(store: Store, settings: Settings) -> set[str]:
    """Competitions whose current English description the rubric annotators approved (a score merge keeps)."""
    _, scores = current_rubric_scores(store)
    minimum = max(1, settings.publish.min_rubric_score)
    return {slug for slug, given in scores.items()
            if (final := decide_rubric(given, settings.review.rubric_annotators).score) is not None and final >= minimum}


def _hash(translation: Translation) -> str:
    return text_hash(translation.text, translation.source_text, translation.round)
