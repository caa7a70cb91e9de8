"""Merge: verdicts and fixes become the final text per (competition, field, language); rubric scores a final score.

YES and YES keeps the machine text (provenance machine, or retranslated when it was); a NO with the
annotator's own version takes that version (native_fix); a NO without one sends the item back to translate
with the comments as feedback, and the retranslation comes back for review. The rules for two annotators and
for the rubric are in curation/review/decisions.py. No LLM: merge is deterministic and cheap to rerun.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from curation.config import Settings
from curation.records import FIELDS, FinalText
from curation.review.authority import split_failures
from curation.review.decisions import decide, decide_rubric
from curation.review.items import current_rubric_scores, item_id, text_hash
from curation.review.statistics import judged_units
from curation.store import Store


@dataclass
class MergeSummary:
    """What one merge run decided for one language ("en" holds the rubric)."""

    language: str
    counts: Counter = field(default_factory=Counter)  # keep / fix / retranslate / open / withdrawn; rubric: final / open / redescribe
    open: list[str] = field(default_factory=list)  # item ids (or competitions) still waiting, with why

    def line(self) -> str:
        order = ("keep", "fix", "retranslate", "final", "redescribe", "open", "withdrawn", "overridden")
        figures = ", ".join(f"{self.counts[kind]} {kind}" for kind in order if self.counts[kind])
        return f"{self.language}: {figures or 'nothing to merge'}"


def merge_language(store: Store, language: str) -> MergeSummary:
    """Final texts of one target language from its verdicts; retranslation requests for NOs without a fix."""
    summary = MergeSummary(language)
    units = judged_units(store.verdicts(language))
    finished: dict[str, list[str]] = defaultdict(list)
    for translation in store.translations(language=language):
        key = item_id(translation.competition, translation.field, language)
        decision = decide(units.get((key, text_hash(translation.text, translation.source_text, translation.round)), []))
        summary.counts[decision.kind] += 1
        if decision.kind in ("keep", "fix"):
            fixed = decision.kind == "fix"
            # A fix passed the placeholder, language and script checks at pull. A kept text's own failed checks
            # are overridden by the reviewers' YES, except damaged protected identifiers or numbers.
            overridden, blocking = ([], []) if fixed else split_failures(translation)
            store.save_final_text(FinalText(
                competition=translation.competition, field=translation.field, language=language,
                text=decision.text if fixed else translation.text,
                provenance="native_fix" if fixed else translation.provenance, verdict=decision.verdict,
                checks_passed=not blocking, source_hash=translation.source_hash,
                overridden_checks=overridden, blocking_checks=blocking))
            if overridden:
                summary.counts["overridden"] += 1
            finished[translation.competition].append(translation.field)
            continue
        # A text merged earlier no longer stands: its translation changed since, or its verdict turned to a NO.
        if store.remove_final_text(translation.competition, translation.field, language):
            summary.counts["withdrawn"] += 1
        if decision.kind == "retranslate":
            store.add_request("retranslate", translation.competition, decision.feedback, field=translation.field,
                              language=language)
            summary.open.append(f"{key}: sent back for retranslation ({decision.verdict})")
        else:
            summary.open.append(f"{key}: not judged yet" if translation.round == 1 else
                                f"{key}: retranslation (round {translation.round}) not judged yet")
    translated: dict[str, set[str]] = defaultdict(set)
    for translation in store.translations(language=language):
        translated[translation.competition].add(translation.field)
    failed = {status.competition for status in store.statuses(f"translate:{language}") if status.status == "failed"}
    for competition, fields in translated.items():
        missing = [f for f in FIELDS if f not in finished[competition]]
        stage = f"merge:{language}"
        if missing:
            store.set_status(competition, stage, "pending", _waiting_for(missing, fields, competition in failed, language))
        else:
            store.set_status(competition, stage, "done", "all fields merged")
    return summary


def _waiting_for(missing: list[str], translated: set[str], failed: bool, language: str) -> str:
    """Why a competition's merge waits: review of the texts that have a translation; translate, for those that have
    none (a text with no translation has nothing to review)."""
    parts = []
    if judged := [name for name in missing if name in translated]:
        parts.append(f"waiting for review of {', '.join(judged)}")
    if untranslated := [name for name in missing if name not in translated]:
        parts.append(f"{', '.join(untranslated)}: no translation " + (
            f"(translate failed; why: `curate status --why --lang {language}`)" if failed else "yet (`curate translate`)"))
    return "; ".join(parts)


def merge_rubric(store: Store, settings: Settings) -> MergeSummary:
    """Final rubric scores of the English descriptions; one below publish.min_rubric_score sends the description
    back to describe."""
    summary = MergeSummary(settings.project.source_language)
    current, scores = current_rubric_scores(store)
    for competition in current:
        decision = decide_rubric(scores.get(competition, []), settings.review.rubric_annotators)
        if decision.score is None:
            summary.counts["open"] += 1
            summary.open.append(f"{competition}: rubric {decision.detail}")
            if store.remove_rubric_final(competition):  # scored on a description that has changed since
                summary.counts["withdrawn"] += 1
            continue
        summary.counts["final"] += 1
        store.save_rubric_final(competition, decision.score, "; ".join([decision.detail, *decision.comments]))
        minimum = settings.publish.min_rubric_score
        if decision.score == 0 or decision.score < minimum:
            # Below what publish accepts: back to describe with the annotators' comments for its prompt.
            summary.counts["redescribe"] += 1
            feedback = "\n".join(decision.comments) or f"Rubric reviewers scored the description {decision.score} of 2."
            store.add_request("redescribe", competition, feedback)
            summary.open.append(f"{competition}: scored {decision.score} (unusable, or below publish.min_rubric_score {minimum}), "
                                "sent back to describe")
    return summary


def merge(store: Store, settings: Settings, languages: list[str]) -> list[MergeSummary]:
    """Merge every given language; the source language stands for the rubric of the English descriptions."""
    return [merge_rubric(store, settings) if language == settings.project.source_language
            else merge_language(store, language) for language in languages]
