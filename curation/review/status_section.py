"""The review section of `curate status`: per language, what was pushed, and each current text in one state.

A text (competition × field) counts once: open while its current wording has no usable verdict (or was sent back
for retranslation), judged once the verdicts decide it but `curate merge` has not made it final, merged when its
final text is the one the verdicts decide. A final text merged from an older wording does not make a retranslated
text merged as well: merge withdraws it on its next run.
"""

from __future__ import annotations

from collections import Counter

from curation.excerpt import plural
from curation.review.statistics import LanguageReview, read_review, rubric_statistics
from curation.status import Section, StatusContext, register_section, register_stage

register_stage("review", order=50, per_language=True)
register_stage("merge", order=60, per_language=True)

STATES = ("open", "judged", "merged")


def text_states(review: LanguageReview) -> Counter:
    """State -> number of current texts of a language in it (open, judged, merged); each text counts once."""
    finals = {(final.competition, final.field): final.text for final in review.finals}
    states: Counter = Counter(dict.fromkeys(STATES, 0))
    for item, decision in review.decided:
        if decision.kind in ("open", "retranslate"):
            states["open"] += 1
            continue
        decided = decision.text if decision.kind == "fix" else item.text
        states["merged" if finals.get((item.competition, item.field)) == decided else "judged"] += 1
    return states


@register_section
def _review(context: StatusContext) -> Section | None:
    store, settings = context.store, context.settings
    # Counted by aggregate queries; a language's verdicts and texts are read only once it has verdicts to decide.
    pushed, judged = store.pushed_counts(), store.verdict_languages()
    translated = {language: tally.translated for language, tally in store.translation_tallies().items()}
    rows: list[list[object]] = []
    for language in context.languages:
        if language == settings.project.source_language or not pushed.get(language):
            continue
        if language in judged:
            review = read_review(store, language)
            stats, states = review.statistics(), text_states(review)
            fixed, twice, kappa = stats.share_fixed, stats.agreement_items, stats.kappa
        else:  # no verdict yet: every current text is open, nothing was judged twice
            finals = store.final_texts(language)
            states = Counter(open=translated.get(language, 0), judged=0, merged=0)
            fixed = sum(f.provenance == "native_fix" for f in finals) / len(finals) if finals else 0.0
            twice, kappa = 0, None
        rows.append([language, pushed[language], *(states[state] for state in STATES), f"{fixed:.0%}", twice,
                     "-" if kappa is None else f"{kappa:.2f}"])
    note = ("each text counts once: open (no usable verdict on its current wording), judged (`curate merge` makes "
            "it final), merged") if rows else ""
    if pushed.get(settings.project.source_language):
        rubric = rubric_statistics(store, settings.review.rubric_annotators)
        note = "; ".join(filter(None, [note, (f"rubric: {plural(rubric.items, 'description')} scored, {len(store.rubric_final())} final, "
                                              f"{rubric.open_items} open")]))
    if not rows and not note:
        return None
    return Section("Review (curate review push / pull, curate merge)",
                   ["language", "pushed", *STATES, "fixed", "judged twice", "kappa"], rows, note=note)
