"""`curate status` for translate: its column per language, and how the stored translations fare in the automatic
checks (`curate status --lang X`)."""

from __future__ import annotations

from curation.status import Section, StatusContext, register_section, register_stage

register_stage("translate", order=40, per_language=True)


@register_section
def _translation_checks(context: StatusContext) -> Section | None:
    from curation.checks.translation import CHECKS

    source = context.settings.project.source_language
    rows = []
    for language in context.languages:
        if language == source:
            continue
        translations = context.store.translations(language=language)
        requests = context.store.open_requests("retranslate", language=language)
        if not translations and not requests:
            continue
        row: list[object] = [language, len(translations), sum(t.flagged for t in translations), len(requests)]
        for check in CHECKS:
            results = [c.passed for t in translations for c in t.checks if c.name == check]
            row.append(f"{sum(results) / len(results):.0%}" if results else "-")
        rows.append(row)
    if not rows:
        return None
    return Section("Translation checks (pass rate of the stored translations)",
                   ["language", "translated", "flagged", "retranslate requests", *CHECKS], rows,
                   note="flagged: a check still failed after translate.max_attempts; the review sheet marks the row.")
