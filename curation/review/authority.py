"""Human authority: what a native speaker's approval overrides, and what it never does.

The automatic checks guess at what a native speaker knows: whether a text reads as the language (language,
script, mixed language), whether it is complete and faithful (length, adequacy, English left over). When every
annotator answers YES and YES — it sounds native and conveys the same meaning — that answer wins over the
guesses, and the text publishes. A protected identifier (a column, file or metric name) or a number that the
translation damaged or dropped is another matter: a reader of the text cannot see that `Age` had to stay `Age`,
so a YES never overrides it; the sheet names the problem, `curate status` and publish say why the text waits,
and only a corrected version (a NO answer with "Your version") moves it on.
"""

from __future__ import annotations

from curation.records import Translation
from curation.status import Section, StatusContext, register_section

# Checks about protected spans and numbers: no verdict overrides them (qa-checks may add more number checks).
PROTECTED_CHECKS = ("placeholders", "numbers")


def split_failures(translation: Translation) -> tuple[list[str], list[str]]:
    """(overridable, protected) failed checks of a machine translation, each as "name: detail"."""
    overridable, protected = [], []
    for check in translation.failed_checks:
        (protected if check.name in PROTECTED_CHECKS else overridable).append(check.line())
    return overridable, protected


@register_section
def _approved_but_blocked(context: StatusContext) -> Section | None:
    blocked: dict[str, list] = {}
    for final in context.store.blocked_final_texts():
        blocked.setdefault(final.language, []).append(final)
    rows = [[language, f"{final.competition}/{final.field}", "; ".join(final.blocking_checks)]
            for language in context.languages for final in blocked.get(language, [])]
    if not rows:
        return None
    return Section("Approved, but publish refuses (protected identifiers or numbers)", ["language", "text", "why"],
                   rows, note="a reviewer's YES overrides the language, length and adequacy checks, never a damaged "
                              "or missing protected identifier or number: answer NO with a corrected version in the "
                              "sheet, pull and merge")
