"""What a synthesized task is called: its slug (the competition's key and folder name) and its title.

Both come from the model's task idea: the brainstorm's name for it ("house price"), else the column it predicts
("predict price"). A name that is not one is never used: nothing but punctuation, or the describe rubric's
wording ("clear objective", a grading answer's words, seen as a task's name). A slug is short enough to read in a
status table and type in a command: at most SLUG_LENGTH characters, cut between words, and not another task's.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from curation.records import CRITERIA
from curation.synthesis.records import TaskDesign, TaskIdea

SLUG_LENGTH = 40
TASK_LENGTH = 24  # the task's words take at most this much of the slug, so the dataset's name keeps some of it
RUBRIC_WORDING = frozenset(criterion.replace("_", " ") for criterion in CRITERIA)
_DANGLING = frozenset("a an and at by for from in of on or the to whether will with".split())


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def names_a_task(name: str) -> bool:
    """Whether `name` can name a task: a word at least, and not the rubric's wording."""
    words = _words(name)
    return bool(words) and " ".join(words) not in RUBRIC_WORDING


def task_name(idea: TaskIdea) -> str:
    """The idea's name in lowercase words, or "predict <the column it predicts>" when its name names nothing."""
    if names_a_task(idea.name):
        return " ".join(_words(idea.name))
    return " ".join(["predict", *_words(idea.target)])


def task_title(title: str, idea: TaskIdea) -> str:
    """The design's title when it names the task, else the idea's name ("House price", "Predict price")."""
    if names_a_task(title):
        return title.strip()
    return task_name(idea).capitalize()


def _joined(words: list[str], limit: int) -> str:
    """The first of `words` that fit in `limit` characters joined by hyphens, not ending on a word like "of" that
    needs the ones cut off (at least one word, itself cut if it alone does not fit)."""
    kept: list[str] = []
    for word in words:
        if len("-".join([*kept, word])) > limit:
            break
        kept.append(word)
    while len(kept) > 1 and kept[-1] in _DANGLING:
        kept.pop()
    return "-".join(kept) if kept else words[0][:limit] if words and limit > 0 else ""


def task_slug(dataset: str, name: str, taken: Collection[str] = ()) -> str:
    """`<dataset>-<task name>` in lowercase words and hyphens, at most SLUG_LENGTH characters, cut between words
    (the task's words first, then as much of the dataset's name as fits), with `-2`, `-3` ... when in `taken`."""
    task = _joined(_words(name), TASK_LENGTH) or "task"
    number = 1
    while True:
        suffix = f"-{number}" if number > 1 else ""
        head = _joined(_words(dataset), SLUG_LENGTH - len(task) - len(suffix) - 1)
        slug = "-".join(part for part in (head, task) if part) + suffix
        if slug not in taken:
            return slug
        number += 1


def task_slugs(dataset: str, ideas: Iterable[TaskIdea], designs: Iterable[TaskDesign]) -> list[str]:
    """The slug of each of a dataset's ideas: the one its task (table and target) was designed under before, so a
    renamed idea or a rerun keeps its competition; else a new one that no stored design of any dataset has."""
    designs = list(designs)
    before = {(design.idea.table, design.idea.target): design.slug for design in designs if design.dataset == dataset}
    taken = {design.slug for design in designs}
    slugs: list[str] = []
    for idea in ideas:
        slug = before.get((idea.table, idea.target))
        if slug is None or slug in slugs:
            slug = task_slug(dataset, task_name(idea), taken)
        taken.add(slug)
        slugs.append(slug)
    return slugs
