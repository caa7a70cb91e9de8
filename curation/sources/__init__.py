"""Readers of competitions and notebooks: competition folders and Meta Kaggle dumps.

Every reader yields, per competition, either an `IngestedCompetition` (the record, its selected notebooks and
the problems found along the way) or a `RejectedCompetition` (nothing usable, and why), so the ingest stage
treats both sources alike.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from curation.records import IngestedCompetition, Problem, Record


class RejectedCompetition(Record):
    """A competition a reader could not turn into a record; `reason` is the line `curate status` shows."""

    competition: str  # the slug it claims, or its folder name when even that is unreadable
    reason: str
    problems: list[Problem] = Field(default_factory=list)


SourceItem = IngestedCompetition | RejectedCompetition


class SourceError(Exception):
    """The source as a whole cannot be read (a missing file or column); `problems` hold one line each."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(problem.line() for problem in problems))


def shown_path(path: Path, base: Path | None = None) -> str:
    """A path as a person should see it in a problem line: relative to `base` (default: cwd) when under it."""
    base = (base or Path.cwd()).resolve()
    try:
        return str(path.resolve().relative_to(base))
    except ValueError:
        return str(path)
