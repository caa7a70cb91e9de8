"""Review statistics per language: verdict shares, fixes, agreement (raw and Cohen's kappa), open items."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from curation.records import VERDICTS, FinalText, ReviewItem, RubricStats, ReviewStats, Verdict
from curation.review.decisions import Decision, decide, decide_rubric, latest_per_annotator
from curation.review.items import current_rubric_scores, review_items
from curation.store import Store


def cohen_kappa(pairs: Sequence[tuple[Hashable, Hashable]]) -> float | None:
    """Cohen's kappa of two raters' labels; None when undefined (no pairs, or chance agreement is certain)."""
    if not pairs:
        return None
    n = len(pairs)
    observed = sum(a == b for a, b in pairs) / n
    first, second = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    expected = sum(first[label] * second[label] for label in first) / (n * n)
    if expected == 1:
        return None
    return (observed - expected) / (1 - expected)


def judged_units(verdicts: list[Verdict]) -> dict[tuple[str, str], list[Verdict]]:
    """(item id, translation hash) -> each annotator's latest verdict on that text, in the order they answered."""
    units: dict[tuple[str, str], list[Verdict]] = defaultdict(list)
    for verdict in verdicts:
        units[(verdict.item_id, verdict.translation_hash)].append(verdict)
    return {key: latest_per_annotator(group) for key, group in units.items()}


def verdict_counts(verdicts: list[Verdict], field: str | None = None) -> Counter:
    """Verdict -> number of judged texts, counting per text the verdict merge acts on (a fix by the second annotator
    counts as that fix, not as the first annotator's YES)."""
    units = judged_units([v for v in verdicts if field is None or v.field == field])
    return Counter(decide(group).verdict for group in units.values())


def shares(counts: Counter, labels: Sequence) -> dict:
    total = sum(counts.values())
    return {label: counts[label] / total for label in labels} if total else {}


def agreement(groups: list[list], label=lambda v: v.verdict) -> tuple[int, float | None, float | None]:
    """(items judged twice, raw agreement, kappa) over the first two judgements of each doubly judged item."""
    pairs = [(label(group[0]), label(group[1])) for group in groups if len(group) >= 2]
    if not pairs:
        return 0, None, None
    return len(pairs), sum(a == b for a, b in pairs) / len(pairs), cohen_kappa(pairs)


@dataclass(frozen=True)
class LanguageReview:
    """One language's review read from the store once: each annotator's latest verdict per text, the decision on
    each current translation, and the final texts merge made. The statistics, the open items and `curate status`'s
    text states all come from this one pass."""

    language: str
    verdicts: list[Verdict]
    units: dict[tuple[str, str], list[Verdict]]
    decided: list[tuple[ReviewItem, Decision]]  # every current translation with what its verdicts decide
    finals: list[FinalText]

    def open_items(self) -> list[str]:
        """Item ids of the current translations that have no usable verdict yet (unjudged, or waiting for a
        retranslation)."""
        return [item.item_id for item, decision in self.decided if decision.kind in ("open", "retranslate")]

    def statistics(self) -> ReviewStats:
        """The review figures of the language, as the report and the dataset card show them."""
        count, raw, kappa = agreement(list(self.units.values()))
        return ReviewStats(
            language=self.language,
            items=len({item for item, _ in self.units}),
            verdict_shares=shares(verdict_counts(self.verdicts), VERDICTS),
            share_fixed=sum(f.provenance == "native_fix" for f in self.finals) / len(self.finals) if self.finals else 0.0,
            agreement_items=count,
            raw_agreement=raw,
            kappa=kappa,
            open_items=len(self.open_items()),
        )


def read_review(store: Store, language: str) -> LanguageReview:
    """A language's verdicts, their decisions on the current translations and its final texts, read once."""
    verdicts = store.verdicts(language)
    units = judged_units(verdicts)
    decided = [(item, decide(units.get((item.item_id, item.translation_hash), [])))
               for item in review_items(store, language)]
    return LanguageReview(language, verdicts, units, decided, store.final_texts(language))


def review_statistics(store: Store, language: str) -> ReviewStats:
    """The review figures of one language, as the report and the dataset card show them."""
    return read_review(store, language).statistics()


def rubric_statistics(store: Store, needed: int) -> RubricStats:
    """Rubric figures over the current English descriptions: final score shares, agreement, open descriptions."""
    current, by_competition = current_rubric_scores(store)
    groups = [list({s.annotator: s for s in scores}.values()) for scores in by_competition.values()]
    count, raw, kappa = agreement(groups, label=lambda s: s.score)
    finals = Counter()
    waiting = 0
    for slug in current:
        decision = decide_rubric(by_competition.get(slug, []), needed)
        if decision.score is None:
            waiting += 1
        else:
            finals[decision.score] += 1
    return RubricStats(items=len(by_competition), score_shares=shares(finals, (0, 1, 2)), agreement_items=count,
                       raw_agreement=raw, kappa=kappa, open_items=waiting)
