"""The review section of `curate status`: per language, what was pushed, judged, merged and is still open."""

from __future__ import annotations

from curation.review.statistics import review_statistics, rubric_statistics
from curation.status import Section, StatusContext, register_section, register_stage

register_stage("review", order=50, per_language=True)
register_stage("merge", order=60, per_language=True)


@register_section
def _review(context: StatusContext) -> Section | None:
    store, settings = context.store, context.settings
    rows: list[list[object]] = []
    for language in context.languages:
        if language == settings.project.source_language:
            continue
        pushed = store.pushed_rows(language)
        if not pushed:
            continue
        stats = review_statistics(store, language)
        rows.append([language, len({row.item_id for row in pushed}), stats.items, len(store.final_texts(language)),
                     f"{stats.share_fixed:.0%}", stats.agreement_items,
                     "-" if stats.kappa is None else f"{stats.kappa:.2f}", stats.open_items])
    rubric_pushed = store.pushed_rows(settings.project.source_language)
    note = ""
    if rubric_pushed:
        rubric = rubric_statistics(store, settings.review.rubric_annotators)
        note = (f"rubric: {rubric.items} descriptions scored, {len(store.rubric_final())} final, "
                f"{rubric.open_items} open")
    if not rows and not note:
        return None
    return Section("Review (curate review push / pull, curate merge)",
                   ["language", "pushed", "judged", "merged", "fixed", "judged twice", "kappa", "open"], rows, note=note)
