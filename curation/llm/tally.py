"""A stage run's share of an LLM client that several runs share (translate's languages run at once on one client,
one budget, one rate limiter): the calls, cache hits and spend made by the tasks of one run.

A run starts a Tally in its task (`tally = Tally.start()`); the tasks it then creates inherit it through their
context, and the client adds each call to the tally of the context the call is made in. When one client serves
several stages (`curate run`'s pipeline), the tally also names the stage its calls are logged under.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass


@dataclass
class Tally:
    calls: int = 0  # answers returned, cached or not
    cache_hits: int = 0
    spent_usd: float = 0.0
    stage: str = ""  # the stage its calls are logged under; "": the client's own

    @classmethod
    def start(cls, stage: str = "") -> Tally:
        """A new tally for the calls made from now on in this task and the tasks it creates."""
        tally = cls(stage=stage)
        _current.set(tally)
        return tally


_current: ContextVar[Tally | None] = ContextVar("curation_llm_tally", default=None)


def add_answer(cached: bool) -> None:
    """Count one answer, from the cache or not, in the tally of the calling context (if it has one)."""
    tally = _current.get()
    if tally is not None:
        tally.calls += 1
        tally.cache_hits += cached


def add_cost(usd: float) -> None:
    """Count what a call cost in the tally of the calling context (if it has one)."""
    tally = _current.get()
    if tally is not None:
        tally.spent_usd += usd


def logged_stage(default: str) -> str:
    """The stage a call in the calling context is logged under: its tally's, else `default` (the client's)."""
    tally = _current.get()
    return tally.stage if tally is not None and tally.stage else default
