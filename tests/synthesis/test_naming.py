"""What a synthesized task is called (issue 24, item 12: a 60-character slug, and a task named "clear objective"):
slugs short, cut between words and unique; names from the model's task idea, never the rubric's wording."""

from __future__ import annotations

import re

from curation.synthesis.naming import SLUG_LENGTH, task_name, task_slug, task_slugs, task_title
from curation.synthesis.records import TaskDesign, TaskIdea

LONG_DATASET = "santander-customer-transaction-prediction"
LONG_NAME = "predict whether a customer will make a specific transaction in the future"


def idea(name: str, target: str = "price", table: str = "houses.csv") -> TaskIdea:
    return TaskIdea(name=name, table=table, target=target, task_type="regression", metric="mean_absolute_error",
                    direction="minimize", rationale="someone needs it")


def designed(slug: str, dataset: str, task: TaskIdea) -> TaskDesign:
    return TaskDesign(slug=slug, dataset=dataset, title="t", idea=task, split="random", metric=task.metric,
                      direction=task.direction)


def test_a_long_dataset_and_task_name_make_a_short_slug_cut_between_words():
    slug = task_slug(LONG_DATASET, LONG_NAME)
    assert slug == "santander-customer-transaction-predict"  # was 60 characters, cut mid-word
    assert len(slug) <= SLUG_LENGTH < 60
    words = set(re.findall(r"[a-z0-9]+", f"{LONG_DATASET} {LONG_NAME}"))
    assert set(slug.split("-")) <= words  # whole words only
    # the task's words come first; the dataset's name gets what is left, and no word like "of" is left hanging
    assert task_slug("houses", "price of a house in the north of town") == "houses-price-of-a-house"
    assert task_slug("houses", "house price") == "houses-house-price"


def test_a_slug_is_unique():
    assert task_slug("houses", "house price", taken={"houses-house-price"}) == "houses-house-price-2"
    assert task_slug("houses", "house price", taken={"houses-house-price", "houses-house-price-2"}) == "houses-house-price-3"
    long = task_slug(LONG_DATASET, LONG_NAME, taken={"santander-customer-transaction-predict"})
    assert long == "santander-customer-transaction-predict-2" and len(long) <= SLUG_LENGTH
    # two ideas of one dataset named alike, and a second dataset whose name is cut to the same words
    first, second = idea("price", target="price"), idea("price", target="price_per_m2")
    assert task_slugs("houses", [first, second], []) == ["houses-price", "houses-price-2"]
    stored = [designed("santander-customer-transaction-predict", LONG_DATASET, idea(LONG_NAME))]
    assert task_slugs(LONG_DATASET + "-2020", [idea(LONG_NAME)], stored) == ["santander-customer-transaction-predict-2"]


def test_a_task_keeps_the_slug_it_was_designed_under():
    # a rerun, a renamed idea, or a design stored under an older, longer slug: the competition stays the same
    old = designed("houses-the-price-a-house-was-sold-for-in-the-town-registry", "houses", idea("old name"))
    assert task_slugs("houses", [idea("house price")], [old]) == [old.slug]
    assert task_slugs("houses", [idea("house price", target="rooms")], [old]) == ["houses-house-price"]


def test_rubric_wording_never_names_a_task():
    for name in ("clear objective", "Clear_Objective", "no leakage", "", "!!!"):
        assert task_name(idea(name)) == "predict price", name
        assert task_slug("houses", task_name(idea(name))) == "houses-predict-price"
        assert task_title(name, idea(name)) == "Predict price"
    assert task_name(idea("House Price")) == "house price"
    assert task_title("Clear objective", idea("house price")) == "House price"
    assert task_title("House prices in a town", idea("clear objective")) == "House prices in a town"
