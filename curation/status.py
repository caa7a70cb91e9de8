"""What `curate status` shows: per competition, each stage's state and why, plus sections stages contribute.

The command itself knows only ingest. Later stages extend it from their own modules, at import time, without
editing the command:

    from curation.status import Section, StatusContext, register_column, register_section, register_stage

    register_stage("describe", order=20)             # a column of done / pending / failed per competition

    @register_column("grade")                        # an extra per-competition column
    def _grade(context: StatusContext, slug: str) -> str:
        grades = context.once(lambda store: {d.competition: d.grade for d in store.descriptions()})
        return grades.get(slug) or ""                  # (one query for all rows: `once` keeps the answer)

    @register_section                                # a table below the main one (None: nothing to show)
    def _translations(context: StatusContext) -> Section | None:
        return Section("Translations", ["language", "done", "flagged"], rows=[...])

`build_status` imports every module under `curation.stages` and `curation.review` first, so a stage's
registrations are in place whenever its module exists. `--json` gives the same report as one JSON object.

Size: the overview (plain `curate status`) is counted by a few aggregate queries and runs no column or section;
the per-competition report reads each table it shows once. A column or section reads whole tables through
`context.once`, never a row per competition or per text, so the statements a report runs do not grow with the
project (tests/test_status_scale.py counts them).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from curation.config import Settings
from curation.records import Problem
from curation.store import Store

EXTENSION_PACKAGES = ("curation.stages", "curation.review", "curation.synthesis")
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
    "outline": "curate outline",
}
AFTER_COMMANDS = {"curate review push": ", then `curate review pull` once the sheets come back"}
# A failed item whose model answered is answered from the cache on a rerun and fails the same way, at no cost
# (`--force` reuses cached answers too): what makes the stage ask anew instead.
ASK_ANEW = {
    "describe": "write the description by hand (description.md in its folder), or change prompts/describe.md or "
                "the describe models under [models]",
    "tag": "add the domain to [tag] vocabulary, or change prompts/tag.md or [models] tag",
    "translate": "change prompts/translate.md or [models] translate (another model, or its temperature), or raise "
                 "[translate] max_attempts",
    "outline": "change prompts/outline.md or prompts/outline_judge.md, or [models] outline or outline_judge",
}


T = TypeVar("T")


@dataclass(frozen=True)
class StatusContext:
    """What a column or section gets to compute its figures: the store, the settings, the languages asked for."""

    store: Store
    settings: Settings
    languages: list[str]
    _reads: dict = field(default_factory=dict, compare=False, repr=False)

    def once(self, read: Callable[[Store], T]) -> T:
        """`read(store)`, done once for the whole report: a column is called once per competition, so it takes what
        it shows from a whole table read here rather than querying the store for each competition."""
        if read not in self._reads:
            self._reads[read] = read(self.store)
        return self._reads[read]


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
_partial: set[str] = set()  # stages that concern only the competitions they stored a state for
_columns: dict[str, ColumnFn] = {}
_sections: list[SectionFn] = []


def register_stage(name: str, order: int = 50, per_language: bool = False, every_competition: bool = True) -> None:
    """Show a stage as a column of states; `order` places it (ingest is 0, later stages larger). A per-language
    stage (`translate` stored as `translate:kk`) only gets its place: its columns come from the stored states.
    A stage that is not for `every_competition` (synthesize makes some of them) counts only the competitions it
    stored a state for: the others are not open there, and its column shows once it has stored one."""
    (_families if per_language else _stages)[name] = order
    if not every_competition:
        _partial.add(name)


def _is_partial(stage: str) -> bool:
    """A stage for some competitions only, or one of its languages (`outline:kk` as `outline`)."""
    return stage in _partial or stage.partition(":")[0] in _partial


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
    competitions: list[CompetitionStatus]  # one row each; empty in the overview, which counts them instead
    problems: list[Problem]
    sections: list[Section]
    warnings: list[str] = field(default_factory=list)
    languages: list[str] = field(default_factory=list)  # the languages asked for
    source_language: str = "en"
    spend_usd: float = 0.0
    calls: int = 0  # calls sent to a provider (each may have taken several HTTP attempts)
    cache_hits: int = 0  # calls answered from the call log at no cost: not counted in `calls`
    total: int = 0  # competitions known: stored, or refused by ingest with a status saying why
    tallies: dict[str, dict[str, int]] = field(default_factory=dict)  # stage -> stored state -> competitions in it
    partial: set[str] = field(default_factory=set)  # stages that count only the competitions they stored a state for
    repeats: dict[str, int] = field(default_factory=dict)  # stage -> failed competitions a rerun fails again from cache

    def counts(self) -> dict[str, dict[str, int]]:
        """Per stage, how many competitions are in each state (pending: no state stored yet)."""
        result: dict[str, dict[str, int]] = {}
        for stage in self.stages:
            tally = dict(self.tallies.get(stage, {}))
            missing = self.total - sum(tally.values())
            if missing and stage not in self.partial:
                tally["pending"] = tally.get("pending", 0) + missing
            result[stage] = tally
        return result

    @property
    def matrix(self) -> dict[str, dict[str, dict[str, int]]]:
        """Stage family -> language ('' for a stage run once) -> competitions per kind (done, flagged, open, failed)."""
        result: dict[str, dict[str, dict[str, int]]] = {}
        for stage, tally in self.counts().items():
            family, _, language = stage.partition(":")
            kinds = result.setdefault(family, {}).setdefault(language, dict.fromkeys(KINDS, 0))
            for state, count in tally.items():
                kinds[KIND_OF_STATE.get(state, "open")] += count
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
            "fail_again": self.repeats,
            # Plain dicts, not asdict(): its deep copy of every row's stage states was a tenth of a second at 500.
            "competitions": [{"competition": row.competition, "comp_name": row.comp_name, "notebooks": row.notebooks,
                              "stages": row.stages, "columns": row.columns} for row in self.competitions],
            "problems": [problem.model_dump() for problem in self.problems],
            "sections": [asdict(section) for section in self.sections],
            "warnings": self.warnings,
        }

    def json_text(self) -> str:
        """to_json() as text: the top level indented, each competition, problem and section on a line of its own.
        As readable as an indented dump, and written by json's C encoder: `indent=` switches to the Python one, which
        at 500 competitions took longer than building the report."""
        def dumped(value: Any) -> str:
            return json.dumps(value, ensure_ascii=False, default=str)

        lines = [f"  {dumped(key)}: " + (("[\n" + ",\n".join(f"    {dumped(item)}" for item in value) + "\n  ]")
                                         if isinstance(value, list) and value else dumped(value))
                 for key, value in self.to_json().items()]
        return "{\n" + ",\n".join(lines) + "\n}"


# A module that registers with status imports it; the others (the Sheets backend's gspread, the SDKs, the Hub
# client) are not imported for a report: loading all of them took half a second before the first query.
REGISTERS = re.compile(r"^\s*(from curation\.status import|from curation import status|import curation\.status)", re.M)


def _load_extensions() -> list[str]:
    warnings = []
    for package_name in EXTENSION_PACKAGES:
        try:
            package = importlib.import_module(package_name)
        except Exception as error:  # another stage's broken module must not take status down with it
            warnings.append(f"{package_name}: not loaded ({error})")
            continue
        for module in pkgutil.iter_modules(package.__path__, package_name + "."):
            if module.name not in sys.modules and not _registers(module):
                continue
            try:
                importlib.import_module(module.name)
            except Exception as error:
                warnings.append(f"{module.name}: its status columns are missing ({type(error).__name__}: {error})")
    return warnings


def _registers(module: pkgutil.ModuleInfo) -> bool:
    """Whether a module's source imports curation.status (a module whose source cannot be read is imported)."""
    spec = module.module_finder.find_spec(module.name.rpartition(".")[2])  # type: ignore[call-arg]
    try:
        return bool(REGISTERS.search(Path(spec.origin).read_text(encoding="utf-8")))
    except (AttributeError, OSError, TypeError, ValueError):
        return True


def build_status(store: Store, settings: Settings, languages: list[str], detail: bool = True) -> StatusReport:
    """Gather the report: every competition the store knows (stored or refused), every registered stage.
    `detail=False` (the overview): only the counts, from aggregate queries; no rows, columns or sections."""
    warnings = _load_extensions()
    total, tallies = store.status_tallies(besides=_partial)
    tallies = {stage: tally for stage, tally in tallies.items() if _asked_for(stage, languages)}
    # A per-language stage nothing has reached yet is still a stage to go through: open in every target asked for.
    targets = [code for code in languages if code != settings.project.source_language]
    expected = {f"{family}:{code}" for family in _families for code in targets}
    stages = sorted((set(_stages) - _partial) | expected | set(tallies), key=_order)
    rows, sections = [], []
    if detail:
        context = StatusContext(store=store, settings=settings, languages=languages)
        rows = _rows(context, stages, warnings)
        sections = _sections_of(context, warnings)
    # Asked only when a stage that calls a model has failed: the overview stays at its few aggregate queries.
    failed = any(tally.get("failed") and stage.partition(":")[0] in ASK_ANEW for stage, tally in tallies.items())
    repeats = {stage: count for stage, count in store.failures_from_answers().items()
               if stage in tallies and stage.partition(":")[0] in ASK_ANEW} if failed else {}
    costs = store.llm_costs()
    return StatusReport(stages=stages, competitions=rows, problems=store.problems(), sections=sections, warnings=warnings,
                        languages=languages, source_language=settings.project.source_language, spend_usd=sum(line.cost_usd for line in costs),
                        calls=sum(line.calls - line.cache_hits for line in costs),
                        cache_hits=sum(line.cache_hits for line in costs), total=total, tallies=tallies,
                        partial=_partial | {stage for stage in stages if _is_partial(stage)}, repeats=repeats)


def _rows(context: StatusContext, stages: list[str], warnings: list[str]) -> list[CompetitionStatus]:
    """One row per competition: its state in each stage, and the registered columns."""
    store = context.store
    states = store.stage_states()
    names = store.competition_names()
    counts = store.notebook_counts()
    blank = {"status": "pending", "detail": ""}
    rows = []
    for slug in sorted(set(names) | set(states)):
        known = states.get(slug, {})
        # A task synthesize rejected is no competition: it has its own state there and none elsewhere.
        only_partial = slug not in names and all(_is_partial(stage) for stage in known)
        stage_states = {stage: known.get(stage, blank) for stage in stages
                        if stage in known or not (_is_partial(stage) or only_partial)}
        columns = {}
        for title, fn in _columns.items():
            try:
                columns[title] = fn(context, slug)
            except Exception as error:
                columns[title] = "?"
                warnings.append(f"column {title!r} for {slug}: {type(error).__name__}: {error}")
        rows.append(CompetitionStatus(slug, names.get(slug, ""), counts.get(slug, 0), stage_states, columns))
    return rows


def _sections_of(context: StatusContext, warnings: list[str]) -> list[Section]:
    sections = []
    for fn in _sections:
        try:
            section = fn(context)
        except Exception as error:
            warnings.append(f"section {getattr(fn, '__name__', fn)}: {type(error).__name__}: {error}")
            continue
        if section is not None:
            sections.append(section)
    return sections


def next_command(report: StatusReport) -> str:
    """The command that moves the project on: the first stage, in pipeline order, with open or failed items. When
    all a stage has left are failures a rerun would repeat from the cache, that is reading why they failed."""
    if not report.total:
        return "curate ingest"
    matrix = report.matrix
    # A stage for some competitions only (synthesize) does not hold the others up; a task it rejected is its verdict.
    for family in sorted((family for family in matrix if family not in report.partial), key=_order):
        waiting = sorted(language for language, tally in matrix[family].items() if tally["open"] or tally["failed"])
        if not waiting:
            continue
        if all(not matrix[family][language]["open"] and matrix[family][language]["failed"]
               <= report.repeats.get(f"{family}:{language}" if language else family, 0) for language in waiting):
            return "curate status --why"
        command = NEXT_COMMANDS.get(family, f"curate {family}")
        return command.replace("curate translate", f"curate translate --lang {','.join(waiting)}") \
            if family == "translate" and len(waiting) < len(matrix[family]) else command
    return "curate publish --version X.Y.Z --to dist/ml2b"


def failure_lines(tallies: dict[str, dict[str, int]], repeats: dict[str, int]) -> list[str]:
    """One line per stage family that calls a model and has failed competitions: how many and where, whether a rerun
    fails them again from the cache (and then what makes the stage ask anew) or sends them again, and where to
    read why. `tallies` and `repeats` as StatusReport holds them."""
    failed: dict[str, dict[str, int]] = {}
    for stage, tally in tallies.items():
        family, _, language = stage.partition(":")
        if tally.get("failed") and family in ASK_ANEW:
            failed.setdefault(family, {})[language] = tally["failed"]
    lines = []
    for family in sorted(failed, key=_order):
        counts = failed[family]
        total = sum(counts.values())
        again = sum(min(count, repeats.get(f"{family}:{code}" if code else family, 0)) for code, count in counts.items())
        where = "" if list(counts) == [""] else " (" + ", ".join(f"{code} {n}" for code, n in sorted(counts.items())) + ")"
        head = f"{family}: {total} competition{'' if total == 1 else 's'} failed{where}; "
        if not again:
            lines.append(head + "a rerun asks for them again (their calls got no answer); why: `curate status --why`")
            continue
        which = "a rerun fails them again" if again == total else f"a rerun fails {again} of them again"
        lines.append(head + f"{which} at no cost, from the cached answers (`--force` reuses them too): read why "
                            f"(`curate status --why`), then {ASK_ANEW[family]}")
    return lines


def _asked_for(stage: str, languages: list[str]) -> bool:
    """A per-language stage (`translate:kk`) shows only when its language was asked for (`--lang`)."""
    family, _, language = stage.partition(":")
    return not language or language in languages
