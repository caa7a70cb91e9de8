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
from functools import cached_property
from typing import Any

from curation.config import Settings
from curation.records import Problem
from curation.store import Store

EXTENSION_PACKAGES = ("curation.stages", "curation.review")
# The four kinds the overview counts; a stored state maps to exactly one, so a text is never counted twice.
KINDS = ("done", "flagged", "open", "failed")
KIND_OF_STATE = {"done": "done", "needs_human": "flagged", "pending": "open", "failed": "failed"}
# What to run when a stage family still has open or failed items, in pipeline order.
NEXT_COMMANDS = {
    "ingest": "curate ingest",
    "describe": "curate describe",
    "tag": "curate tag",
    "translate": "curate translate",
    "review": "curate review push",
    "merge": "curate merge",
}
AFTER_COMMANDS = {"curate review push": ", then `curate review pull` once the sheets come back"}


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
_families: dict[str, int] = {}
_columns: dict[str, ColumnFn] = {}
_sections: list[SectionFn] = []


def register_stage(name: str, order: int = 50, per_language: bool = False) -> None:
    """Show a stage as a column of states; `order` places it (ingest is 0, later stages larger). A per-language
    stage (`translate` stored as `translate:kk`) only gets its place: its columns come from the stored states."""
    (_families if per_language else _stages)[name] = order


def _order(stage: str) -> tuple[int, str]:
    """Pipeline order of a stage or a stage family (`translate:kk` sorts with `translate`)."""
    family = stage.partition(":")[0]
    return _stages.get(stage, _families.get(family, _stages.get(family, 1000))), stage


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
    languages: list[str] = field(default_factory=list)  # the languages asked for
    source_language: str = "en"
    spend_usd: float = 0.0
    calls: int = 0  # calls sent to a provider (each may have taken several HTTP attempts)
    cache_hits: int = 0  # calls answered from the call log at no cost: not counted in `calls`

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

    @cached_property  # the overview, the next command and --json all read it: it is counted once per report
    def matrix(self) -> dict[str, dict[str, dict[str, int]]]:
        """Stage family -> language ('' for a stage run once) -> competitions per kind (done, flagged, open, failed)."""
        result: dict[str, dict[str, dict[str, int]]] = {}
        for stage in self.stages:
            family, _, language = stage.partition(":")
            tally = result.setdefault(family, {}).setdefault(language, dict.fromkeys(KINDS, 0))
            for row in self.competitions:
                tally[KIND_OF_STATE.get(row.stages[stage]["status"], "open")] += 1
        return result

    def to_json(self) -> dict[str, Any]:
        """The report as plain JSON types, for scripts."""
        return {
            "stages": self.stages,
            "counts": self.counts(),
            "matrix": self.matrix,
            "spend_usd": round(self.spend_usd, 6),
            "calls": self.calls,
            "cache_hits": self.cache_hits,
            "next": next_command(self),
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
    # A per-language stage nothing has reached yet is still a stage to go through: open in every target asked for.
    targets = [code for code in languages if code != settings.project.source_language]
    expected = {f"{family}:{code}" for family in _families for code in targets}
    stages = sorted(set(_stages) | expected | {s.stage for s in statuses}, key=_order)
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
    costs = store.llm_costs()
    return StatusReport(stages=stages, competitions=rows, problems=store.problems(), sections=sections, warnings=warnings,
                        languages=languages, source_language=settings.project.source_language, spend_usd=sum(line.cost_usd for line in costs),
                        calls=sum(line.calls - line.cache_hits for line in costs),
                        cache_hits=sum(line.cache_hits for line in costs))


def next_command(report: StatusReport) -> str:
    """The command that moves the project on: the first stage, in pipeline order, with open or failed items."""
    if not report.competitions:
        return "curate ingest"
    matrix = report.matrix
    for family in sorted(matrix, key=_order):
        waiting = sorted(language for language, tally in matrix[family].items() if tally["open"] or tally["failed"])
        if waiting:
            command = NEXT_COMMANDS.get(family, f"curate {family}")
            return command.replace("curate translate", f"curate translate --lang {','.join(waiting)}") \
                if family == "translate" and len(waiting) < len(matrix[family]) else command
    return "curate publish --version X.Y.Z --to dist/ml2b"


def _asked_for(stage: str, languages: list[str]) -> bool:
    """A per-language stage (`translate:kk`) shows only when its language was asked for (`--lang`)."""
    family, _, language = stage.partition(":")
    return not language or language in languages
