"""Run folders as the grading harness leaves them (see harness.py): found under what a curator names, and read.

A path given to `curate results` may be one run folder, an agent's folder of run folders (the harness's logs_dir of
one agent run: the agent is the folder's name), or a folder of such agent folders. Anything else in them that is
not a run is named in one line, and the rest is read.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from curation.records import RunResult
from curation.results.harness import (CODE_FILE, MANUAL_CODE_FILE, MANUAL_RESULTS_FILE, RESULTS_FILE, RUN_NAME_FORM,
                                      BadResults, RunName, parse_run_name, read_results)
from curation.results.read_run import ReadRun, digest_of, evidence_text, log_tail
from curation.results.release_info import ReleaseInfo

NOT_A_RUN = f"not a run folder: the harness names a run {RUN_NAME_FORM}"


def _subfolders(path: Path) -> list[Path]:
    try:
        with os.scandir(path) as entries:
            return sorted(Path(entry.path) for entry in entries if not entry.name.startswith(".") and entry.is_dir())
    except OSError:
        return []


def find_runs(path: Path, agent: str | None) -> tuple[list[tuple[Path, RunName, str]], list[str]]:
    """(folder, its name taken apart, agent) of every run under `path`, and one line per folder that is no run."""
    name = parse_run_name(path.name)
    if name is not None:
        return [(path, name, agent or path.resolve().parent.name)], []
    children = [(child, parse_run_name(child.name)) for child in _subfolders(path)]
    if any(found for _, found in children):
        owner = agent or path.resolve().name
        return ([(child, found, owner) for child, found in children if found],
                [f"{child}: {NOT_A_RUN}; skipped" for child, found in children if not found])
    agents = [child for child, _ in children if any(parse_run_name(inner.name) for inner in _subfolders(child))]
    if not agents:
        return [], [f"{path}: holds no run folder (the harness names a run {RUN_NAME_FORM}); skipped"]
    if agent:
        return [], [f"{path}: holds the folders of {len(agents)} agents ({', '.join(a.name for a in agents[:4])}); "
                    "--agent names the agent of one folder: give their folders without --agent; skipped"]
    runs, problems = [], []
    for child, _ in children:
        if child in agents:
            found, missed = find_runs(child, None)
            runs += found
            problems += missed
        else:
            problems.append(f"{child}: holds no run folder (the harness names a run {RUN_NAME_FORM}); skipped")
    return runs, problems


def read_run_folder(folder: Path, name: RunName, agent: str, release: ReleaseInfo,
                    known_language: Callable[[str], bool]) -> ReadRun | str:
    """The run in `folder`, or one line saying why it cannot be read."""
    results_path = folder / (MANUAL_RESULTS_FILE if name.manual else RESULTS_FILE)
    code_path = folder / (MANUAL_CODE_FILE if name.manual else CODE_FILE)
    try:
        raw = _bytes(results_path)
    except OSError as error:
        return f"{results_path}: cannot be read ({error.strerror or error}); skipped"
    code_bytes = _bytes(code_path, quiet=True)
    if raw is None and code_bytes is None and not any((folder / part).is_dir() for part in ("logs", "submission")):
        return f"{folder}: not a run: it holds no {results_path.name}, submission/ or logs/; skipped"
    language = release.language_code(name.language)
    if language is None:
        what = ("is not in the release" if known_language(name.language)
                else "is not a language the harness names (English, Arab, Belarus, Ukranian, ...)")
        return f"{folder}: language {name.language!r} {what} {release.name}; skipped"
    if name.competition not in release.tasks:
        return f"{folder}: competition {name.competition!r} is not in {release.name}; skipped"
    code = code_bytes.decode("utf-8", "replace") if code_bytes is not None else None
    result = RunResult(run=folder.name, agent=agent, competition=name.competition, language=language,
                       source=str(folder), fold=name.fold, has_code=code is not None)
    if raw is not None:
        try:
            results = read_results(results_path, raw)
        except BadResults as error:
            return f"{results_path}: {error}; skipped"
        for said, named, what in ((results.competition, name.competition, "competition"),
                                  (results.language, name.language, "language")):
            if said and said != named:
                return f"{results_path}: says {what} {said!r}, but its folder is named for {named!r}; skipped"
        result.success = results.success
        result.score = results.score
        result.cv_scores = results.cv_scores
        result.evidence = evidence_text(results.errors, results.tracebacks)
    return ReadRun(result=result, digest=digest_of(raw, code_bytes, agent), code=code,
                   results_written=raw is not None, logs=lambda: log_tail(folder))


def _bytes(path: Path, quiet: bool = False) -> bytes | None:
    """The file's bytes, or None when there is no such file (or, `quiet`, when it cannot be read)."""
    try:
        return path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError:
        if quiet:
            return None
        raise
