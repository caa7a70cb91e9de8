"""Live progress of an LLM stage: one display for the whole stage (every language), with the figures a curator
watches — done/total, requests per second, tokens, spend, failures and an ETA.

On a terminal it is one rich bar that redraws; otherwise (nohup, CI logs, a pipe) it is one plain line every
CURATE_PROGRESS_SECONDS seconds (30 by default) and one at the end, so a long run is never silent.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn

DEFAULT_SECONDS = 30.0


def interval_seconds() -> float:
    """Seconds between plain progress lines: CURATE_PROGRESS_SECONDS, else 30."""
    try:
        return max(0.0, float(os.environ.get("CURATE_PROGRESS_SECONDS", DEFAULT_SECONDS)))
    except ValueError:
        return DEFAULT_SECONDS


@dataclass
class StageProgress:
    """Called by the runner as (stage, finished, total, failed) for each stage run (`translate:kk`, `translate:be`,
    ...); shows their sum. `watch(llm)` gives it the client whose calls, tokens and spend it reports. "failed" counts
    items, as the stage's summary does: an item that failed after its retries, whatever failed in it.

    With `steps`, the runs come one after another and are told apart (synthesize's `synthesize brainstorm`,
    `synthesize design`, `synthesize verify`): the display is named after the run under way and counts its items;
    a log gets the last line of each run as the next one starts."""

    title: str
    console: Console
    every: float = field(default_factory=interval_seconds)
    started: float = field(default_factory=time.monotonic)
    steps: bool = False
    _runs: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    _counted_from: float = 0.0  # when the items counted now began: the stage's start, or its current step's
    _llm: Any = None
    _base: tuple[int, int, float, int] = (0, 0, 0.0, 0)
    _last_line: float = 0.0
    _bar: Progress | None = None
    _task: Any = None

    def watch(self, llm: Any) -> None:
        """Report the figures of this client from now on (what it did before is not this stage's)."""
        self._llm = llm
        self._base = self._figures_now()

    def __call__(self, stage: str, finished: int, total: int, failed: int = 0) -> None:
        if self.steps and stage not in self._runs:
            self._next_step(stage)
        self._runs[stage] = (finished, total, failed)
        if self._bar is not None:
            done, total_all = self.counts()
            self._bar.update(self._task, completed=done, total=max(total_all, 1), figures=self.figures())
        elif time.monotonic() - self._last_line >= self.every and any(run[1] for run in self._runs.values()):
            self._print_line()

    def _next_step(self, stage: str) -> None:
        if self._bar is None and any(run[1] for run in self._runs.values()):
            self._print_line()  # where the step before ended
        self._runs.clear()
        self.title, self._counted_from = stage, time.monotonic()
        if self._bar is not None:
            self._bar.update(self._task, description=stage)

    def counts(self) -> tuple[int, int]:
        """Items finished and items in all, over every run of the stage so far."""
        return sum(run[0] for run in self._runs.values()), sum(run[1] for run in self._runs.values())

    def _figures_now(self) -> tuple[int, int, float, int]:
        llm = self._llm
        if llm is None:
            return (0, 0, 0.0, 0)
        return (llm.calls, llm.cache_hits, llm.spent_usd, getattr(llm, "tokens", 0))

    def figures(self) -> str:
        """The figures after done/total: requests per second, tokens, spend, failures, ETA."""
        now = self._figures_now()
        calls, hits, spent, tokens = (a - b for a, b in zip(now, self._base))
        failures = sum(run[2] for run in self._runs.values())
        elapsed = max(time.monotonic() - self.started, 1e-6)
        done, total = self.counts()
        rate = (calls - hits) / elapsed  # requests that went out; cache hits cost no request
        counting = max(time.monotonic() - max(self._counted_from, self.started), 1e-6)
        eta = _clock((total - done) * counting / done) if done else "?"
        if getattr(self._llm, "batch_mode", False) and done < total:
            eta = "when the batch ends"  # the provider's pace, not ours: a rate from the last round says nothing
        return (f"{rate:.1f} req/s · {_tokens(tokens)} tokens · ${spent:.4f} · "
                f"{failures} failed · ETA {eta if done < total else '0:00'}")

    def line(self) -> str:
        """The plain progress line: what a log shows every `every` seconds."""
        done, total = self.counts()
        return f"{self.title}: {done}/{total} · {self.figures()} · {_clock(time.monotonic() - self.started)} elapsed"

    def _print_line(self) -> None:
        self._last_line = time.monotonic()
        self.console.print(self.line(), markup=False, highlight=False, soft_wrap=True)

    def __enter__(self) -> StageProgress:
        if self.console.is_terminal:
            self._bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                                 TextColumn("{task.fields[figures]}"), console=self.console, transient=True)
            self._task = self._bar.add_task(self.title, total=1, figures="")
            self._bar.__enter__()
        else:
            self._last_line = time.monotonic()  # the first line after `every` seconds, not at once
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)
        elif exc[0] is None and any(run[1] for run in self._runs.values()):
            self._print_line()  # the last figures, whatever the interval; a run that stopped says why instead


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def _tokens(count: int) -> str:
    return f"{count / 1e6:.1f}M" if count >= 1e6 else (f"{count / 1e3:.1f}k" if count >= 1e3 else str(count))
