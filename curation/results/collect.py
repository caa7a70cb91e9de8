"""`curate results`: read runs, join them with a release, classify, store, and report.

Read: each path given is a run folder, an agent's folder of them, a folder of agents' folders, or a CSV file; what
cannot be read is one line each and the rest goes on. Classify: each run by the rules (rules.py), then the `triage`
model for what they leave as `other` (when it is configured). Store: a row per agent and run, replaced when it
changed. Report: over the runs read now (with no path given, over every run in the store), where a score beyond all
the others of its competition becomes a `hallucination` (plausibility.py), and every score is normalized
(scores.py); reports/results.md with plots, and the per-run table.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from curation.config import Settings
from curation.languages import SUPPORTED
from curation.records import RunResult
from curation.results.csv_runs import read_csv_runs
from curation.results.plausibility import implausible
from curation.results.read_run import ReadRun, digest_of
from curation.results.release_info import ReleaseInfo, load_release
from curation.results.report import run_table, write_report
from curation.results.rules import classify
from curation.results.run_folders import find_runs, read_run_folder
from curation.results.scores import normalized_scores
from curation.results.statistics import Gap
from curation.store import Store
from curation.store.results import SavedRuns

Triage = Callable[[list[RunResult]], tuple[int, list[str]]]


@dataclass
class ResultsReport:
    """What `curate results` did, for the CLI to print: the runs as reported, and what could not be read."""

    release: ReleaseInfo
    runs: list[RunResult]  # as reported: the cross-run check applied
    normalized: list[float]
    problems: list[str] = field(default_factory=list)
    saved: SavedRuns | None = None  # None: the report was made from the store
    triaged: int = 0
    files: list[Path] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    left_out: int = 0  # stored runs of competitions or languages the release lacks


def read_paths(paths: list[Path], agent: str | None, release: ReleaseInfo,
               settings: Settings) -> tuple[list[ReadRun], list[str]]:
    """Every run under `paths`, and one line per folder, file or row that is not a readable run."""
    names = _language_names(settings)

    def known_language(name: str) -> bool:
        return name.strip().casefold() in names

    reads: list[ReadRun] = []
    problems: list[str] = []
    for path in paths:
        if path.is_file() and path.suffix.lower() == ".csv":
            found, missed = read_csv_runs(path, agent, release, known_language)
            reads += found
            problems += missed
        elif path.is_dir():
            folders, missed = find_runs(path, agent)
            problems += missed
            for folder, name, owner in folders:
                read = read_run_folder(folder, name, owner, release, known_language)
                (problems if isinstance(read, str) else reads).append(read)
        elif path.exists():
            problems.append(f"{path}: neither a run folder nor a CSV of results; skipped")
        else:
            problems.append(f"{path}: no such file or folder; skipped")
    seen: dict[tuple[str, str], str] = {}
    unique = []
    for read in reads:
        key = (read.result.agent, read.result.run)
        if key in seen:
            problems.append(f"{read.result.source}: run {read.result.run} of agent {read.result.agent} was read "
                            f"already from {seen[key]}; this copy skipped")
            continue
        seen[key] = read.result.source
        unique.append(read)
    return unique, problems


def _language_names(settings: Settings) -> set[str]:
    names = set()
    for code in SUPPORTED:
        language = settings.language(code)
        names |= {language.harness.casefold(), code, language.english.casefold()}
    return names


def collect_results(store: Store, settings: Settings, paths: list[Path], *, agent: str | None = None,
                    version: str | None = None, folder: Path | None = None,
                    triage: Triage | None = None) -> ResultsReport:
    """Read, classify, store and report; ReleaseError when the release cannot be read, FolderError when the report
    cannot be written."""
    release = load_release(store, settings, version, folder)
    held_out = [re.compile(pattern) for pattern in settings.results.held_out_paths]
    saved, problems, triaged, left_out = None, [], 0, 0
    if paths:
        reads, problems = read_paths(paths, agent, release, settings)
        runs = [classify(read, release.tasks[read.result.competition], held_out) for read in reads]
        if triage is not None and any(run.error_class == "other" for run in runs):
            triaged, failed = triage(runs)
            problems += failed
        # The digest covers the class too: a run read the same but classified anew (new rules, a triage answer) is
        # written again.
        saved = store.save_runs((run, digest_of(read.digest, run.error_class, run.reason, run.leak))
                                for read, run in zip(reads, runs))
    else:
        stored = store.stored_runs([agent] if agent else None)
        known = set(release.languages.values())
        runs = [run for run in stored if run.competition in release.tasks and run.language in known]
        left_out = len(stored) - len(runs)
    report = ResultsReport(release=release, runs=[], normalized=[], problems=problems, saved=saved, triaged=triaged,
                           left_out=left_out)
    if not runs:
        return report
    final = [run.model_copy() for run in runs]
    for index, reason in implausible(final, release.tasks, settings.results.implausible_fence).items():
        final[index].error_class = "hallucination"
        final[index].reason = reason
        final[index].error_type = ""
    report.runs = final
    report.normalized = normalized_scores(final, release.tasks)
    table = run_table(final, report.normalized, release.tasks)
    order = _language_order(settings, set(table["language"]))
    names = {code: f"{settings.language(code).english} ({code})" for code in order}
    report.files, report.gaps = write_report(
        settings.path("reports"), table, title=f"{settings.project.pretty_name} {release.name}", languages=order,
        names=names, resamples=settings.results.bootstrap_resamples, seed=settings.results.seed)
    return report


def _language_order(settings: Settings, present: set[str]) -> list[str]:
    """English first, then the project's languages in its order, then any other, by code."""
    order = ["en", *settings.project.languages]
    return [code for code in dict.fromkeys(order) if code in present] + sorted(present - set(order))
