"""The `review:<lang>` stage status per competition: pushed and waiting, or every field judged.

A new wording of a text that review had judged (a retranslation, a changed English source, --redo-reviewed)
opens review and merge of its competition again at once, so status never shows them done over a text nobody has
judged: `reopen_review`, called by translate as it stores the new wording.
"""

from __future__ import annotations

from collections import defaultdict

from curation.excerpt import plural
from curation.records import FIELDS, PushedRow, ReviewItem, Verdict
from curation.review.items import review_items
from curation.review.statistics import judged_units
from curation.store import Store


def update_review_status(store: Store, language: str, items: list[ReviewItem] | None = None,
                         pushed: list[PushedRow] | None = None, verdicts: list[Verdict] | None = None) -> None:
    """Set review:<lang> for every competition with pushed rows: done when each current text has a verdict.
    A caller that has read the language's items, pushed rows or verdicts already passes them in."""
    pushed_ids = {row.item_id for row in (store.pushed_rows(language) if pushed is None else pushed)}
    judged = set(judged_units(store.verdicts(language) if verdicts is None else verdicts))
    fields: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for item in review_items(store, language) if items is None else items:
        if item.item_id in pushed_ids:
            fields[item.competition].append((item.field, (item.item_id, item.translation_hash) in judged))
    stage = f"review:{language}"
    # One read of the statuses, and a write only where one changes: a push with nothing new writes none.
    before = {status.competition: (status.status, status.detail) for status in store.statuses(stage)}
    for competition, states in fields.items():
        waiting = sorted((field for field, done in states if not done), key=FIELDS.index)
        state = (("pending", f"waiting for a verdict on {', '.join(waiting)}") if waiting
                 else ("done", f"{plural(len(states), 'field')} judged"))
        if before.get(competition) != state:
            store.set_status(competition, stage, *state)


def reopen_review(store: Store, competition: str, field: str, language: str) -> None:
    """A new wording of `field` replaces one review had seen: review and merge of the competition wait again."""
    for stage, detail in ((f"review:{language}", f"waiting for a verdict on the new wording of {field}"),
                          (f"merge:{language}", f"waiting for review of {field}")):
        current = store.status(competition, stage)
        if current is not None and current.status == "done":
            store.set_status(competition, stage, "pending", detail)
