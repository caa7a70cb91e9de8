"""What `curate status` shows: per competition, each stage's state and why, plus sections stages contribute.

The command itself knows only ingest. Later stages extend it from their own modules, at import time, without
editing the command:

    from curation.status import Section, StatusContext, register_column, register_section, register_stage

    register_stage("describe", order=20)             # a column of done / pending / failed per competition

    @register_column("grade")                        # an extra per-competition column
    def _grade(context: StatusContext, slug: str) -> str:
        return context.store.description(slug).grade or ""

    @register_section                                # a table below the main one (None: nothing to show)
    def _translations(context: StatusContext) -> Section | None:
        return Section("Translations", ["language", "done", "flagged"], rows=[...])

`build_status` imports every module under `curation.stages` and `curation.review` first, so a stage's
registrations are in place whenever its module exists. `--json` gives the same report as one JSON object.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from curation.config import Settings
from curation.records import Problem
from curation.store import Store

EXTENSION_PACKAGES = ("curation.stages", "curation.review")
STATE_STYLES = {"done": "green", "pending": "dim", "failed": "red", "needs_human": "yellow"}


@dataclass(frozen=True)
class StatusContext:
    """What a column or section gets to compute its figures: the store, the settings, the languages asked for."""

    store: Store
    settings: Settings
    languages: list[str]


@dataclass
class Section:
    """A small table a stage adds below the per-competition table."""

    title: str
    columns: list[str]
    rows: list[list[Any]] = field(default_factory=list)
    note: str = ""


ColumnFn = Callable[[StatusContext, str], Any]
SectionFn = Callable[[StatusContext], "Section | None"]

_stages: dict[str, int] = {"ingest": 0}
_columns: dict[str, ColumnFn] = {}
_sections: list[SectionFn] = []


def register_stage(name: str, order: int = 50) -> None:
    """Show a stage as a column of states; `order` places it (ingest is 0, later stages larger)."""
    _stages[name] = order


def register_column(title: str) -> Callable[[ColumnFn], ColumnFn]:
    """Decorator: an extra per-competition column whose value the function returns for a slug."""
    def add(fn: ColumnFn) -> ColumnFn:
        _columns[title] = fn
        return fn
    return add


def register_section(fn: SectionFn) -> SectionFn:
    """Decorator: a section (a small table) shown after the per-competition table."""
    if fn not in _sections:
        _sections.append(fn)
    return fn


@dataclass
class CompetitionStatus:
    competition: str
    comp_name: str
    notebooks: int
    stages: dict[str, dict[str, str]]  # stage -> {"status": ..., "detail": ...}
    columns: dict[str, Any] = field(default_factory=dict)


@dataclass
class StatusReport:
    stages: list[str]
    competitions: list[CompetitionStatus]
    problems: list[Problem]
    sections: list[Section]
    warnings: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, dict[str, int]]:
        """Per stage, how many competitions are in each state."""
        result: dict[str, dict[str, int]] = {}
        for stage in self.stages:
            tally: dict[str, int] = {}
            for row in self.competitions:
                state = row.stages[stage]["status"]
                tally[state] = tally.get(state, 0) + 1
            result[stage] = tally
        return result

    def to_json(self) -> dict[str, Any]:
        """The report as plain JSON types, for scripts."""
        return {
            "stages": self.stages,
            "counts": self.counts(),
            "competitions": [asdict(row) for row in self.competitions],
            "problems": [problem.model_dump() for problem in self.problems],
            "sections": [asdict(section) for section in self.sections],
            "warnings": self.warnings,
        }


def _load_extensions() -> list[str]:
    warnings = []
    for package_name in EXTENSION_PACKAGES:
        try:
            package = importlib.import_module(package_name)
        except Exception as error:  # another stage's broken module must not take status down with it
            warnings.append(f"{package_name}: not loaded ({error})")
            continue
        for module in pkgutil.iter_modules(package.__path__, package_name + "."):
            try:
                importlib.import_module(module.name)
            except Exception as error:
                warnings.append(f"{module.name}: its status columns are missing ({type(error).__name__}: {error})")
    return warnings


def build_status(store: Store, settings: Settings, languages: list[str]) -> StatusReport:
    """Gather the report: every competition the store knows (stored or refused), every registered stage."""
    warnings = _load_extensions()
    context = StatusContext(store=store, settings=settings, languages=languages)
    statuses = store.statuses()
    statuses = [s for s in statuses if _asked_for(s.stage, languages)]
    stages = sorted(set(_stages) | {s.stage for s in statuses}, key=lambda name: (_stages.get(name, 1000), name))
    names = {c.competition: c.comp_name for c in store.competitions()}
    counts = store.notebook_counts()
    by_slug: dict[str, dict[str, dict[str, str]]] = {}
    for status in statuses:
        by_slug.setdefault(status.competition, {})[status.stage] = {"status": status.status, "detail": status.detail}
    rows = []
    for slug in sorted(set(names) | set(by_slug)):
        known = by_slug.get(slug, {})
        stage_states = {stage: known.get(stage, {"status": "pending", "detail": ""}) for stage in stages}
        columns = {}
        for title, fn in _columns.items():
            try:
                columns[title] = fn(context, slug)
            except Exception as error:
                columns[title] = "?"
                warnings.append(f"column {title!r} for {slug}: {type(error).__name__}: {error}")
        rows.append(CompetitionStatus(slug, names.get(slug, ""), counts.get(slug, 0), stage_states, columns))
    sections = []
    for fn in _sections:
        try:
            section = fn(context)
        except Exception as error:
            warnings.append(f"section {getattr(fn, '__name__', fn)}: {type(error).__name__}: {error}")
            continue
        if section is not None:
            sections.append(section)
    return StatusReport(stages=stages, competitions=rows, problems=store.problems(), sections=sections, warnings=warnings)


def _asked_for(stage: str, languages: list[str]) -> bool:
    """A per-language stage (`translate:kk`) shows only when its language was asked for (`--lang`)."""
    family, _, language = stage.partition(":")
    return not language or language in languages


def _stage_columns(stages: list[str]) -> dict[str, list[str]]:
    """Column title -> the stages it shows. A stage run per language gets one column for all its languages
    when there are more than two (`translate (12 lang.)`: "10 done, 2 pending"), so thirteen languages fit a terminal."""
    families: dict[str, list[str]] = {}
    for stage in stages:
        families.setdefault(stage.partition(":")[0], []).append(stage)
    columns: dict[str, list[str]] = {}
    for stage in stages:
        family = stage.partition(":")[0]
        if len(families[family]) > 2:
            columns[f"{family} ({len(families[family])} lang.)"] = families[family]
        else:
            columns[stage] = [stage]
    return columns


def _state_cell(states: list[str]) -> str:
    """One state, or how many stages are in each state when they differ."""
    tally: dict[str, int] = {}
    for state in states:
        tally[state] = tally.get(state, 0) + 1
    if len(tally) == 1:
        state = states[0]
        return f"[{STATE_STYLES.get(state, '')}]{state}[/]"
    return ", ".join(f"[{STATE_STYLES.get(state, '')}]{n} {state}[/]" for state, n in sorted(tally.items()))


def _summed(counts: dict[str, dict[str, int]], stages: list[str]) -> dict[str, int]:
    """The state counts of several stages added up."""
    total: dict[str, int] = {}
    for stage in stages:
        for state, n in counts[stage].items():
            total[state] = total.get(state, 0) + n
    return total


def render_status(report: StatusReport, console: Console) -> None:
    """Print the report as tables for a person."""
    if not console.is_terminal:
        # Piped output has no terminal width to fit; keep slugs and notes whole rather than cut at 80 columns.
        console = Console(file=console.file, width=max(console.width, 240), color_system=None, highlight=False)
    if not report.competitions:
        console.print("No competitions yet. Run [bold]curate ingest[/bold] first.")
    else:
        table = Table(title="Competitions", title_justify="left", show_lines=False)
        table.add_column("competition", no_wrap=True)
        table.add_column("notebooks", justify="right")
        stage_columns = _stage_columns(report.stages)
        for title in stage_columns:
            table.add_column(title)
        for title in _columns:
            table.add_column(title)
        table.add_column("why / notes", overflow="fold")
        for row in report.competitions:
            cells = [row.competition, str(row.notebooks)]
            cells.extend(_state_cell([row.stages[stage]["status"] for stage in shown])
                         for shown in stage_columns.values())
            # The same note in several languages of one stage is one line: "review:be,kk: waiting for ...".
            noted: dict[tuple[str, str], list[str]] = {}
            for stage in report.stages:
                state = row.stages[stage]
                if state["detail"] and (state["status"] != "done" or stage == "ingest"):
                    family, _, language = stage.partition(":")
                    noted.setdefault((family, state["detail"]), []).append(language)
            notes = [f"{family}{':' + ','.join(langs) if langs != [''] else ''}: {detail}"
                     if len(report.stages) > 1 else detail for (family, detail), langs in noted.items()]
            cells.extend(str(row.columns.get(title, "")) for title in _columns)
            cells.append("\n".join(notes))
            table.add_row(*cells)
        console.print(table)
        counts = report.counts()
        summary = ", ".join(f"{title}: " + " ".join(f"{n} {state}" for state, n in sorted(_summed(counts, shown).items()))
                            for title, shown in stage_columns.items())
        console.print(f"{len(report.competitions)} competitions — {summary}", highlight=False)
    if report.problems:
        console.print(f"\n[bold]Problems ({len(report.problems)})[/bold] — fix these and re-run the stage:")
        for problem in report.problems:
            console.print(f"  [{problem.stage}] {problem.line()}", markup=False, highlight=False, soft_wrap=True)
    for section in report.sections:
        table = Table(*section.columns, title=section.title, title_justify="left")
        for cells in section.rows:
            table.add_row(*(str(cell) for cell in cells))
        console.print()
        console.print(table)
        if section.note:
            console.print(section.note, highlight=False)
    for warning in report.warnings:
        console.print(f"[yellow]warning:[/yellow] {warning}", highlight=False)
