"""Review items: which texts go to review, their stable ids, and which annotator judges which item."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable

from curation.fingerprint import fingerprint
from curation.records import FIELDS, ReviewItem, RubricScore
from curation.store import Store

RUBRIC_SUFFIX = "rubric"


def item_id(competition: str, field: str, language: str) -> str:
    """The stable id of one reviewed text, e.g. 'titanic/description/kk'."""
    return f"{competition}/{field}/{language}"


def parse_item_id(text: str) -> tuple[str, str, str] | None:
    """(competition, field, language) of an item id, or None when it is not one."""
    parts = text.strip().split("/")
    if len(parts) == 3 and parts[1] in FIELDS and all(parts):
        return parts[0], parts[1], parts[2]
    return None


def text_hash(text: str, original: str, round: int = 1) -> str:
    """A verdict holds for exactly one (translation, original) pair in one review round; this names it.

    The round is part of it: a retranslation that happens to come back word for word is still judged again.
    """
    return fingerprint([text, original] if round == 1 else [text, original, round])[:16]


def review_items(store: Store, language: str) -> list[ReviewItem]:
    """The current translations into a language, as items to judge."""
    return [
        ReviewItem(
            item_id=item_id(t.competition, t.field, t.language), competition=t.competition, field=t.field,
            language=t.language, text=t.text, original=t.source_text,
            translation_hash=text_hash(t.text, t.source_text, t.round),
            failed_checks=t.failed_checks,
            round=t.round, provenance=t.provenance,
        )
        for t in store.translations(language=language)
    ]


def rubric_items(store: Store) -> list[ReviewItem]:
    """The English descriptions, as items to score on the rubric, each with its competition's outline when it has one
    (scored in the same row)."""
    outlines = {outline.competition: outline.text() for outline in store.outlines()}
    return [
        ReviewItem(
            item_id=d.competition, competition=d.competition, field="description", language="en", text=d.text,
            original="", translation_hash=text_hash(d.text, ""), provenance=d.provenance,
            outline=outlines.get(d.competition, ""),
            outline_hash=text_hash(outlines[d.competition], "") if d.competition in outlines else "",
        )
        for d in store.descriptions()
    ]


def current_rubric_scores(store: Store) -> tuple[dict[str, str], dict[str, list[RubricScore]]]:
    """(competition -> hash of its current description, competition -> the latest scores given on exactly that text)."""
    current = {item.competition: item.translation_hash for item in rubric_items(store)}
    scores: dict[str, list[RubricScore]] = {}
    for score in store.rubric_scores():
        if current.get(score.competition) == score.description_hash:
            scores.setdefault(score.competition, []).append(score)
    return current, scores


def _rank(item: ReviewItem) -> str:
    # Depends on the id only, so the same items are chosen on every push, whatever else changed.
    return hashlib.sha256(item.item_id.encode("utf-8")).hexdigest()


def second_annotator_items(items: Iterable[ReviewItem], share: float) -> list[ReviewItem]:
    """The share of items (rounded up) that a second annotator also judges, chosen by a hash of the item id."""
    ranked = sorted(items, key=_rank)
    return ranked[: math.ceil(share * len(ranked))] if share > 0 else []


def assign(items: list[ReviewItem], annotators: list[str], share: float) -> dict[str, list[ReviewItem]]:
    """Annotator -> items: the first annotator judges all, the others share the doubly judged sample in turn."""
    if not annotators:
        return {}
    plan: dict[str, list[ReviewItem]] = {name: [] for name in annotators}
    plan[annotators[0]] = list(items)
    others = annotators[1:]
    if others:
        for position, item in enumerate(second_annotator_items(items, share)):
            plan[others[position % len(others)]].append(item)
    return plan
