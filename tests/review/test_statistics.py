"""Review statistics: verdict shares, agreement and Cohen's kappa, open items."""

from __future__ import annotations

import pytest

from curation.records import Verdict
from curation.review.items import review_items
from curation.review.statistics import cohen_kappa, review_statistics


def test_kappa_on_a_textbook_table():
    # 50 items: both yes 20, yes/no 5, no/yes 10, both no 15 -> observed .70, expected .50, kappa .40
    pairs = [("y", "y")] * 20 + [("y", "n")] * 5 + [("n", "y")] * 10 + [("n", "n")] * 15
    assert cohen_kappa(pairs) == pytest.approx(0.4)


def test_kappa_is_undefined_when_everyone_says_the_same():
    assert cohen_kappa([("a", "a")] * 5) is None
    assert cohen_kappa([]) is None


def _verdict(item, annotator, answer, fix=""):
    competition, field, language = item.item_id.split("/")
    return Verdict(item_id=item.item_id, competition=competition, field=field, language=language, annotator=annotator,
                   verdict=answer, own_version=fix, translation=item.text, translation_hash=item.translation_hash)


def test_statistics_over_stored_verdicts(seeded):
    items = review_items(seeded, "kk")
    assert len(items) == 6
    answers = ["YES and YES", "YES and YES", "NO and YES", "YES and NO", "NO and NO"]
    for item, answer in zip(items, answers):
        seeded.add_verdict(_verdict(item, "aigerim", answer, fix="түзету" if answer == "NO and YES" else ""))
    # a second annotator on two items: agrees on one, disagrees on the other
    seeded.add_verdict(_verdict(items[0], "dana", "YES and YES"))
    seeded.add_verdict(_verdict(items[1], "dana", "NO and NO"))

    stats = review_statistics(seeded, "kk")

    assert stats.items == 5
    # per text, the verdict merge acts on: dana's NO on item 1 sends it back, so it counts as NO and NO
    assert stats.verdict_shares == {"YES and YES": 0.2, "NO and YES": 0.2, "YES and NO": 0.2, "NO and NO": 0.4}
    assert stats.agreement_items == 2
    assert stats.raw_agreement == 0.5
    assert stats.kappa == pytest.approx(0.0)  # rater one always said YES and YES: no agreement beyond chance
    # the sixth item is unjudged; item 1 (dana: NO without a fix), 3 and 4 (NO without a fix) wait for retranslation
    assert stats.open_items == 4
