"""What the curator does next, read from the store (`curate run` ends with it): the failures and whether a rerun
repeats them, what the automatic stages still have to do, the texts that wait for the annotators, those pulled but
not merged, what merge sent back, and the release to publish under the next version the store has not seen.

Only what applies is said, in the order the work goes, and a language with nothing to do is not named at all.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from curation.config import Settings
from curation.excerpt import named, plural
from curation.release.version import BadVersion, Version, parse_version
from curation.review.decisions import decide_rubric
from curation.review.items import current_rubric_scores, rubric_items
from curation.review.statistics import read_review
from curation.status import build_status, failure_lines
from curation.store import Store

AUTOMATIC = ("describe", "tag")  # then translate, per language
DEFAULT_TARGET = "dist/ml2b"


@dataclass
class ReviewState:
    """Per language, the current texts by where they stand in the review (each text counted once)."""

    unpushed: Counter = field(default_factory=Counter)  # open, on no sheet in its current wording
    waiting: Counter = field(default_factory=Counter)  # on a sheet, no usable verdict yet
    judged: Counter = field(default_factory=Counter)  # the verdicts decide it; `curate merge` has not made it final
    merged: Counter = field(default_factory=Counter)


def next_steps(store: Store, settings: Settings, languages: list[str], needs_yes: bool = False,
               backend: str | None = None) -> list[str]:
    """The numbered steps for `languages` (the source language stands for the rubric of the descriptions);
    `needs_yes`: the run stopped at a redo that asks for --yes; `backend`: the review backend, when not the
    configured one."""
    report = build_status(store, settings, languages, detail=False)
    if not report.total:
        return ["1. Put competition folders where [paths] competitions points, then `curate run`."]
    steps = list(failure_lines(report.tallies, report.repeats))
    if needs_yes:
        # The texts the review steps would send are about to be redone: those steps come after it.
        steps.append("`curate run --yes`: the run stopped before redoing the texts it counted above, and sent "
                     "nothing; with --yes it redoes them and writes them to the review sheets.")
        return [f"{number}. {step}" for number, step in enumerate(steps, 1)]
    todo = _still_to_do(store, settings, languages)
    if todo:
        steps.append(f"`curate run`: still to do {', '.join(todo)} (left by a budget stop, an interruption or a "
                     "batch not answered yet).")
    review = _review_state(store, settings, languages)
    if review.unpushed:
        steps.append(f"`curate review push`: {_counted(review.unpushed, 'text')} on no sheet yet.")
    if review.waiting:
        workbooks = (backend or settings.review.backend) == "xlsx"
        send = (f"Send the workbooks under {settings.path('review_sheets')}/ to the annotators" if workbooks else
                "Share the Google Sheets with the annotators")
        steps.append(f"{send}: {_counted(review.waiting, 'text')} wait for a verdict. When they come back, "
                     f"{'put the workbooks back in place and run ' if workbooks else ''}"
                     "`curate review pull` (it names any row to fix).")
    if review.judged:
        steps.append(f"`curate merge`: {_counted(review.judged, 'text')} judged, not final yet.")
    sent_back = _sent_back(store)
    if sent_back:
        steps.append(f"`curate run` again: merge sent back {sent_back}; it redoes them and pushes them for review.")
    version, target = next_version(store)
    publish = f"`curate report`, then `curate publish --version {version} --to {target}`"
    if review.waiting or review.unpushed or review.judged:
        steps.append(f"Then `curate merge` and `curate run` again until merge leaves nothing open; then {publish}.")
    elif review.merged and not steps:
        steps.append(f"Everything is merged: {publish}.")
    elif not steps:
        steps.append("Nothing left to do here: no text to translate, review or merge.")
    return [f"{number}. {step}" for number, step in enumerate(steps, 1)]


def next_version(store: Store) -> tuple[str, str]:
    """(the next minor version after every release the store knows, the target of the latest one)."""
    releases = store.releases()
    known: list[Version] = []
    for release in releases:
        try:
            known.append(parse_version(release.version))
        except BadVersion:
            continue
    if not known:
        return "1.0.0", DEFAULT_TARGET
    latest = max(known)
    return str(Version(latest.major, latest.minor + 1, 0)), releases[-1].target


def _still_to_do(store: Store, settings: Settings, languages: list[str]) -> list[str]:
    """What describe, tag and translate would still do for competitions whose earlier stages are through (a
    competition held up by a failure is counted with the failures, not here): "describe 3", "translate 12 (kk, be)"."""
    source = settings.project.source_language
    targets = [code for code in languages if code != source]
    states = store.stage_states()
    slugs = set(store.competition_names()) | set(states)
    counts: Counter = Counter()
    by_language: Counter = Counter()
    for slug in slugs:
        known = states.get(slug, {})
        if known.get("ingest", {}).get("status") == "failed":
            continue
        blocked = False
        for stage in AUTOMATIC:
            state = known.get(stage, {}).get("status", "pending")
            if state in ("pending", "failed"):
                counts[stage] += state == "pending"
                blocked = True
                break
        if blocked:
            continue
        for code in targets:
            if known.get(f"translate:{code}", {}).get("status", "pending") == "pending":
                counts["translate"] += 1
                by_language[code] += 1
    parts = [f"{stage} {counts[stage]}" for stage in AUTOMATIC if counts[stage]]
    if counts["translate"]:
        parts.append(f"translate {counts['translate']} ({named(sorted(by_language))})")
    return parts


def _review_state(store: Store, settings: Settings, languages: list[str]) -> ReviewState:
    """Where each current text of `languages` stands in the review; the source language's are its descriptions."""
    state = ReviewState()
    source = settings.project.source_language
    for language in languages:
        pushed = {(row.item_id, row.translation_hash) for row in store.pushed_rows(language)}
        if language == source:
            _rubric_state(store, settings, pushed, state)
            continue
        review = read_review(store, language)
        finals = {(final.competition, final.field): final.text for final in review.finals}
        sent_back = {(asked["competition"], asked["field"]) for asked in store.open_requests("retranslate", language)}
        for item, decision in review.decided:
            if decision.kind == "retranslate":
                if (item.competition, item.field) not in sent_back:  # judged NO; merge has not sent it back yet
                    state.judged[language] += 1
                continue  # sent back: counted with merge's requests
            if decision.kind == "open":
                (state.waiting if (item.item_id, item.translation_hash) in pushed else state.unpushed)[language] += 1
                continue
            decided = decision.text if decision.kind == "fix" else item.text
            (state.merged if finals.get((item.competition, item.field)) == decided else state.judged)[language] += 1
    return state


def _rubric_state(store: Store, settings: Settings, pushed: set[tuple[str, str]], state: ReviewState) -> None:
    source = settings.project.source_language
    _, scores = current_rubric_scores(store)
    finals = store.rubric_final()
    for item in rubric_items(store):
        decision = decide_rubric(scores.get(item.competition, []), settings.review.rubric_annotators)
        if decision.score is None:
            (state.waiting if (item.item_id, item.translation_hash) in pushed else state.unpushed)[source] += 1
        else:
            (state.merged if finals.get(item.competition) == decision.score else state.judged)[source] += 1


def _sent_back(store: Store) -> str:
    """What merge sent back and no run has redone yet: "2 texts for retranslation (kk 2) and 1 description"."""
    retranslate = {code: count for code, count in store.open_request_counts("retranslate").items() if code}
    redescribe = sum(store.open_request_counts("redescribe").values())
    parts = []
    if retranslate:
        parts.append(f"{_counted(Counter(retranslate), 'text')} for retranslation")
    if redescribe:
        parts.append(f"{plural(redescribe, 'description')} to describe again")
    return " and ".join(parts)


def _counted(counts: Counter, noun: str) -> str:
    """'19 texts (kk 10, be 9)', the languages in the order counted."""
    return f"{plural(sum(counts.values()), noun)} ({', '.join(f'{code} {n}' for code, n in counts.items())})"
