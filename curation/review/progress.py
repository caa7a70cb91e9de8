"""The `review:<lang>` stage status per competition: pushed and waiting, or every field judged.

A new wording of a text that review had judged (a retranslation, a changed English source, --redo-reviewed)
opens review and merge of its competition again at once, so status never shows them done over a text nobody has
judged: `reopen_review`, called by translate as it stores the new wording.
"""

from __future__ import annotations

from collections import defaultdict

from curation.excerpt import plural
from curation.records import FIELDS
from curation.review.items import review_items
from curation.review.statistics import judged_units
from curation.store import Store


def update_review_status(store: Store, language: str) -> None:
    """Set review:<lang> for every competition with pushed rows: done when each current text has a verdict."""
    pushed = {row.item_id for row in store.pushed_rows(language)}
    judged = set(judged_units(store.verdicts(language)))
    fields: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for item in review_items(store, language):
        if item.item_id in pushed:
            fields[item.competition].append((item.field, (item.item_id, item.translation_hash) in judged))
    for competition, states in fields.items():
        waiting = sorted((field for field, done in states if not done), key=FIELDS.index)
        if waiting:
            store.set_status(competition, f"review:{language}", "pending", f"waiting for a verdict on {', '.join(waiting)}")
        else:
            store.set_status(competition, f"review:{language}", "done", f"{plural(len(states), 'field')} judged")


def reopen_review(store: Store, competition: str, field: str, language: str) -> None:
    """A new wording of `field` replaces one review had seen: review and merge of the competition wait again."""
    for stage, detail in ((f"review:{language}", f"waiting for a verdict on the new wording of {field}"),
                          (f"merge:{language}", f"waiting for review of {field}")):
        current = store.status(competition, stage)
        if current is not None and current.status == "done":
            store.set_status(competition, stage, "pending", detail)
