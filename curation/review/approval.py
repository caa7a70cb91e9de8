"""Which machine translations a person has approved or replaced: those are pinned against a changed prompt.

A translation is approved when the verdicts on exactly its text decide "keep" (every annotator said YES and YES)
or "fix" (an annotator wrote her own version): what merge makes a final text. A change
of the translate prompt or model makes such a text stale, but it stays final: it is listed as "reviewed under an
older prompt" and only `curate translate --redo-reviewed` translates it again.
"""

from __future__ import annotations

from curation.config import Settings
from curation.records import Translation
from curation.review.decisions import decide
from curation.review.items import item_id, text_hash
from curation.review.statistics import judged_units
from curation.status import Section, StatusContext, register_section
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


def stale_reviewed(store: Store, settings: Settings, language: str) -> list[Translation]:
    """Approved translations made under an older translate prompt or model, kept final (see the module's doc)."""
    from curation.prompts import PromptError
    from curation.stages.translate import TranslateStage

    try:
        stage = TranslateStage(settings, language)
    except PromptError:
        return []  # the prompt file is broken: `curate translate` says so; nothing can be called stale against it
    stage.pending(store, settings)
    return stage.pinned


@register_section
def _reviewed_under_an_older_prompt(context: StatusContext) -> Section | None:
    rows = []
    for language in context.languages:
        if language == context.settings.project.source_language:
            continue
        kept = stale_reviewed(context.store, context.settings, language)
        if kept:
            shown = ", ".join(f"{t.competition}/{t.field}" for t in kept[:5]) + (f" and {len(kept) - 5} more" if len(kept) > 5 else "")
            rows.append([language, len(kept), shown])
    if not rows:
        return None
    return Section("Reviewed under an older prompt", ["language", "texts", "which"], rows,
                   note="kept final: a person approved or wrote them under an older translate prompt or model; "
                        "`curate translate --redo-reviewed` translates them again (the old versions and their "
                        "verdicts stay in the history, the new ones go to review).")
