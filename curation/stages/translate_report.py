"""`curate status` for translate: its column per language, and how the stored translations fare in the automatic
checks (`curate status --lang X`)."""

from __future__ import annotations

from curation.status import Section, StatusContext, register_section, register_stage

register_stage("translate", order=40, per_language=True)


@register_section
def _translation_checks(context: StatusContext) -> Section | None:
    from curation.checks.translation import CHECKS
    from curation.store.translate import QE_OVERRULED

    source = context.settings.project.source_language
    # Two aggregate queries for every language: no translation record is read.
    tallies = context.store.translation_tallies()
    requests = context.store.open_request_counts("retranslate")
    overruled = any(tally.checks.get(QE_OVERRULED) for tally in tallies.values())
    rows = []
    for language in context.languages:
        if language == source:
            continue
        tally, asked = tallies.get(language), requests.get(language, 0)
        if tally is None and not asked:
            continue
        translated, flagged, checks = (tally.translated, tally.flagged, tally.checks) if tally else (0, 0, {})
        row: list[object] = [language, translated, flagged, asked]
        for check in CHECKS:
            passed, results = checks.get(check, (0, 0))
            row.append(f"{passed / results:.0%}" if results else "-")
        if overruled:
            row.append(checks.get(QE_OVERRULED, (0, 0))[0])
        rows.append(row)
    if not rows:
        return None
    return Section("Translation checks (pass rate of the stored translations)",
                   ["language", "translated", "flagged", "retranslate requests", *CHECKS,
                    *(["overruled by qe"] if overruled else [])], rows,
                   note="flagged: a check still failed after translate.max_attempts; the review sheet marks the row."
                   + (" overruled by qe: translations where the qe model did not confirm what a word-list check "
                      "(meaning, terms, roles) flagged." if overruled else ""))
