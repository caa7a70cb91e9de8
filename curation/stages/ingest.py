"""The ingest stage: records from a source reader into the store, one transaction per competition.

Unchanged input writes nothing (not even a status timestamp); changed input rewrites only that competition.
A competition a reader refused keeps whatever an earlier run stored — a broken edit never erases good work —
and its status says why it failed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from curation.project_paths import resolved_path, stored_path
from curation.records import IngestedCompetition, Problem, StageState
from curation.sources import RejectedCompetition, SourceItem
from curation.store import Store

STAGE = "ingest"


@dataclass
class IngestReport:
    """What one ingest run did, by slug."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)  # slug -> reason
    needs_human: dict[str, str] = field(default_factory=dict)  # slug -> what a person should do
    gone: list[str] = field(default_factory=list)  # stored earlier, no longer in the source (kept in the store)
    problems: list[Problem] = field(default_factory=list)
    notebooks: int = 0

    @property
    def seen(self) -> int:
        return len(self.added) + len(self.updated) + len(self.unchanged) + len(self.failed)


def ingested_status(item: IngestedCompetition) -> tuple[StageState, str]:
    """The status line of a competition that was read: done, or what a person still has to do."""
    competition, count = item.competition, len(item.notebooks)
    problems = len(item.problems)
    notes = [f"{count} notebook{'s' if count != 1 else ''}"]
    if problems:
        notes.append(f"{problems} problem{'s' if problems != 1 else ''} to look at")
    if competition.description:
        notes.append("description written by a person")
    if not competition.data_card:
        notes.append("no data card yet")
    if not count and not competition.description:
        return "needs_human", "no usable notebooks: add some under notebooks/, or set private: true and write description.md"
    return "done", "; ".join(notes)


def _set_status(store: Store, slug: str, status: StageState, detail: str, input_hash: str = "") -> None:
    current = store.status(slug, STAGE)
    if current and (current.status, current.detail, current.input_hash) == (status, detail, input_hash or current.input_hash):
        return
    store.set_status(slug, STAGE, status, detail, input_hash or (current.input_hash if current else ""))


def _record_problems(store: Store, problems: list[Problem]) -> None:
    key = lambda p: (p.path, p.message, p.competition)  # noqa: E731
    if sorted(map(key, store.problems(STAGE))) != sorted(map(key, problems)):
        store.replace_problems(STAGE, problems)


def problems_of_other_sources(store: Store, source: Path | str | None) -> list[Problem]:
    """Stored problems of competitions read from somewhere other than `source`: a run of one source keeps them.

    A curator may ingest a Meta Kaggle dump and a folder of hand-made competitions into one store; ingesting one
    must not make the other's problems disappear from `curate status` while they are still unfixed.
    """
    if source is None:
        return []
    root = Path(source).resolve()
    sources = store.competition_sources()
    return [problem for problem in store.problems(STAGE)
            if problem.competition and sources.get(problem.competition)
            and not resolved_path(sources[problem.competition], store.root).resolve().is_relative_to(root)]


def run_ingest(items: Iterable[SourceItem], store: Store, source: Path | str | None = None,
               source_problems: Iterable[Problem] = (), on_item: Callable[[str], None] | None = None) -> IngestReport:
    """Store every competition a reader yields; `source` (the folder read) lets competitions that left it be reported.

    `source_problems` is read after the last item, so a reader may keep adding to it while it is iterated.
    """
    report = IngestReport()
    seen: set[str] = set()
    for item in items:
        if isinstance(item, RejectedCompetition):
            slug = item.competition
            report.failed[slug] = item.reason
            report.problems.extend(item.problems)
            _set_status(store, slug, "failed", item.reason)
        else:
            slug = item.competition.competition
            if store.root is not None and item.competition.source:  # kept relative to the project root
                where = stored_path(item.competition.source, store.root)
                item = item.model_copy(update={"competition": item.competition.model_copy(update={"source": where})})
            status, detail = ingested_status(item)
            with store.transaction():  # the record, its notebooks and its status land together or not at all
                outcome = store.save_ingested(item)
                _set_status(store, slug, status, detail, item.input_hash)
            getattr(report, outcome).append(slug)
            if status == "needs_human":
                report.needs_human[slug] = detail
            report.notebooks += len(item.notebooks)
            report.problems.extend(item.problems)
        seen.add(slug)
        if on_item:
            on_item(slug)
    if source is not None:
        root = str(Path(source).resolve())
        for slug, where in store.competition_sources().items():
            if slug not in seen and where and str(resolved_path(where, store.root).resolve()).startswith(root):
                report.gone.append(slug)
                _set_status(store, slug, "failed", f"no longer in {source}; restore it, or ignore this line (the record is kept)")
    report.problems = list(source_problems) + report.problems
    _record_problems(store, problems_of_other_sources(store, source) + report.problems)
    return report
