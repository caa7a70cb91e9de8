"""Approved translations and descriptions that a changed prompt or model made stale: kept final, listed in status
and counted in a release's manifest.

They live here, with the stages, because telling which texts are stale takes the stage's own staleness rule
(`TranslateStage.pending`, `DescribeStage.select`); curation/review/approval.py says which texts are approved.
"""

from __future__ import annotations

from curation.config import Settings
from curation.prompts import PromptError
from curation.records import Description, Translation
from curation.review.approval import approved_descriptions
from curation.stages.describe import DescribeStage
from curation.stages.translate import TranslateStage
from curation.status import Section, StatusContext, register_section
from curation.store import Store


def stale_reviewed(store: Store, settings: Settings, language: str) -> list[Translation]:
    """Approved translations made under an older translate prompt or model, kept final (see curation/review/approval.py)."""
    if language not in store.verdict_languages():
        return []  # no verdict, so nothing approved: the look at every text below would find nothing
    try:
        stage = TranslateStage(settings, language)
    except PromptError:
        return []  # the prompt file is broken: `curate translate` says so; nothing can be called stale against it
    stage.pending(store, settings)
    return stage.pinned


def stale_reviewed_descriptions(store: Store, settings: Settings) -> list[Description]:
    """Approved English descriptions written under an older describe, score or refine prompt or model, kept final."""
    if not approved_descriptions(store, settings):
        return []  # the look at every competition's notebooks below would find nothing
    try:
        stage = DescribeStage(settings)
    except PromptError:
        return []  # the prompt file is broken: `curate describe` says so
    stage.select(store)
    return stage.pinned


def reviewed_under_older_prompts(store: Store, settings: Settings, published: dict[str, set[str]]) -> dict[str, int]:
    """Language -> published texts a person approved or wrote under an older prompt or model (the source language:
    descriptions the rubric approved under an older describe, score or refine prompt or model), for the release's
    manifest."""
    counts = {}
    for language, slugs in sorted(published.items()):
        if language == settings.project.source_language:
            kept = [d for d in stale_reviewed_descriptions(store, settings) if d.competition in slugs]
        else:
            kept = [t for t in stale_reviewed(store, settings, language) if t.competition in slugs]
        if kept:
            counts[language] = len(kept)
    return counts


@register_section
def _reviewed_under_an_older_prompt(context: StatusContext) -> Section | None:
    rows = []
    source = context.settings.project.source_language
    for language in context.languages:
        if language == source:
            kept = [f"{d.competition}/description" for d in stale_reviewed_descriptions(context.store, context.settings)]
        else:
            kept = [f"{t.competition}/{t.field}" for t in stale_reviewed(context.store, context.settings, language)]
        if kept:
            shown = ", ".join(kept[:5]) + (f" and {len(kept) - 5} more" if len(kept) > 5 else "")
            rows.append([language, len(kept), shown])
    if not rows:
        return None
    return Section("Reviewed under an older prompt", ["language", "texts", "which"], rows,
                   note="kept final: a person approved or wrote them under an older prompt or model; "
                        "`curate translate --redo-reviewed` (for en: `curate describe --redo-reviewed`) writes them "
                        "again (the old versions and their verdicts stay in the history, the new ones go to review).")
