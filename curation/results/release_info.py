"""What the runs are joined with: a release's tasks (domain, data type, competition type, metric, its direction and
baseline where known) and languages, read from a version `curate publish` recorded or from a release folder.

A release folder is a checkout of a published release (manifest.json, competitions.json, tasks/<Language>.csv), or
the grading harness's own competitions/ folder, which has the same competitions.json and tasks/ but no manifest.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from curation.config import Settings
from curation.languages import SUPPORTED
from curation.project_paths import resolved_path
from curation.release.manifest import MANIFEST
from curation.release.targets import open_target
from curation.release.version import BadVersion, Version, parse_version
from curation.results.metrics import direction_of
from curation.store import Store

GRADING_FILE = "competitions.json"


class ReleaseError(Exception):
    """The release cannot be found or read; the message names it and says what to do."""


@dataclass(frozen=True)
class TaskInfo:
    """One competition as the release publishes it, in English."""

    competition: str
    comp_name: str = ""
    domain: str = "unknown"
    data_type: str = "unknown"
    comp_type: str = "unknown"
    metric: str = ""  # the grading metric (an sklearn name), else the metric's name
    direction: str = "maximize"  # maximize | minimize
    baseline: float | None = None  # the grading block's baseline_score, where it has one


@dataclass
class ReleaseInfo:
    """A release's tasks by comp-id and languages by the names the harness gives them."""

    name: str  # how lines name it: "v1.2.0 (dist/ml2b)" or the folder
    tasks: dict[str, TaskInfo]
    languages: dict[str, str] = field(default_factory=dict)  # harness name -> ISO code, the release's languages

    def language_code(self, name: str) -> str | None:
        """The ISO code of a language as a run or a CSV names it (harness name, ISO code or English name), if the
        release has it."""
        if name in self.languages:
            return self.languages[name]
        wanted = name.strip().casefold()
        for harness, code in self.languages.items():
            if wanted in (harness.casefold(), code, SUPPORTED[code].english.casefold()):
                return code
        return None


def load_release(store: Store, settings: Settings, version: str | None, folder: Path | None) -> ReleaseInfo:
    """The release named by `--release` (a version this store published) or `--from` (a folder); with neither, the
    newest release this store published. ReleaseError when there is none or it cannot be read."""
    if folder is not None:
        if not folder.is_dir():
            raise ReleaseError(f"--from {folder}: no such folder; give a release folder (a checkout of a published "
                               "release) or the grading harness's competitions/ folder")
        version = _manifest_version(_file(folder / MANIFEST))
        return _read(f"v{version} ({folder})" if version else str(folder), lambda path: _file(folder / path),
                     lambda: _listed(folder), settings)
    recorded = store.releases()
    if not recorded:
        raise ReleaseError("no release to join the runs with: this store has published none; publish one (`curate "
                           "publish --version 1.0.0 --to dist/ml2b`) or give --from PATH (a release folder, or the "
                           "grading harness's competitions/ folder)")
    try:
        wanted = parse_version(version) if version else max(parse_version(release.version) for release in recorded)
    except BadVersion as error:
        raise ReleaseError(f"--release {version}: {error}") from None
    matching = [release for release in recorded if parse_version(release.version) == wanted]
    if not matching:
        known = ", ".join(sorted({f"v{release.version}" for release in recorded}, key=lambda tag: parse_version(tag)))
        raise ReleaseError(f"--release {version}: this store published no such version (it published {known}); "
                           "`curate releases` lists them, or give --from PATH")
    # A local folder first: it is read without the network.
    release = sorted(matching, key=lambda found: found.target.startswith("hf:"))[0]
    target = open_target(release.target if release.target.startswith("hf:")
                         else str(resolved_path(release.target, settings.root)), root=settings.root,
                         token=settings.secrets.hf_token.get_secret_value() if settings.secrets.hf_token else None)
    name = f"{wanted.tag} ({release.target})"
    manifest = store.release_manifest(release.target, release.version)

    def read(path: str) -> bytes | None:
        try:
            return target.read_file(wanted, path)
        except Exception as error:  # a Hub that cannot be reached: the files cannot be read, said below
            raise ReleaseError(f"{name}: cannot read {path} ({type(error).__name__}: {error})") from None

    def listed() -> list[str]:
        return [entry["harness_file"] for entry in (manifest or {}).get("languages", {}).values()]

    return _read(name, read, listed, settings, _tagged(wanted))


def _manifest_version(content: bytes | None) -> str | None:
    try:
        version = json.loads(content.decode("utf-8")).get("version") if content else None
    except (UnicodeDecodeError, json.JSONDecodeError, AttributeError):
        return None
    return str(version) if version else None


def _tagged(version: Version) -> str:
    return f"; is tag {version.tag} still there?"


def _file(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _listed(folder: Path) -> list[str]:
    return sorted(f"tasks/{path.name}" for path in (folder / "tasks").glob("*.csv"))


def _read(name: str, read: Callable[[str], bytes | None], task_files: Callable[[], list[str]], settings: Settings,
          hint: str = "") -> ReleaseInfo:
    grading_bytes = read(GRADING_FILE)
    if grading_bytes is None:
        raise ReleaseError(f"{name}: has no {GRADING_FILE}{hint}; give a release folder or the grading harness's "
                           "competitions/ folder")
    try:
        grading = json.loads(grading_bytes.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReleaseError(f"{name}: {GRADING_FILE} is not valid JSON ({error})") from None
    manifest_bytes = read(MANIFEST)
    try:
        manifest = json.loads(manifest_bytes.decode("utf-8")) if manifest_bytes else {}
    except (UnicodeDecodeError, json.JSONDecodeError):
        manifest = {}
    files = [entry["harness_file"] for entry in manifest.get("languages", {}).values()] or task_files()
    languages = _languages(files, settings)
    source = settings.language(settings.project.source_language).harness
    english = f"tasks/{source}.csv"
    rows = _rows(read(english)) if english in files else {}
    if not rows:
        for other in files:
            if rows := _rows(read(other)):
                break
    tasks = {}
    for comp_id in sorted(set(rows) | {key for key in grading if not key.startswith("_")}):
        block = grading.get(comp_id) if isinstance(grading.get(comp_id), dict) else {}
        row = rows.get(comp_id, {})
        metric = str(block.get("metric") or row.get("metric") or "")
        baseline = block.get("baseline_score", block.get("baseline"))
        tasks[comp_id] = TaskInfo(
            competition=comp_id, comp_name=row.get("comp_name") or comp_id,
            domain=(row.get("domain") or "unknown").strip() or "unknown",
            data_type=(row.get("data_type") or "unknown").strip() or "unknown",
            comp_type=(row.get("comp_type") or "unknown").strip() or "unknown",
            metric=metric, direction=direction_of(block.get("direction"), metric),
            baseline=float(baseline) if isinstance(baseline, (int, float)) and not isinstance(baseline, bool) else None)
    if not tasks:
        raise ReleaseError(f"{name}: holds no competition ({GRADING_FILE} and tasks/ are empty)")
    return ReleaseInfo(name=name, tasks=tasks, languages=languages)


def _languages(files: list[str], settings: Settings) -> dict[str, str]:
    """harness name -> ISO code for the release's tasks/<name>.csv files."""
    by_name = {settings.language(code).harness: code for code in SUPPORTED}
    found = {}
    for path in files:
        stem = Path(path).stem
        if stem in by_name:
            found[stem] = by_name[stem]
    return found


def _rows(content: bytes | None) -> dict[str, dict[str, str]]:
    """comp-id -> the row of a tasks/<Language>.csv file."""
    if not content:
        return {}
    try:
        reader = csv.DictReader(io.StringIO(content.decode("utf-8-sig")))
        rows = list(reader)
    except (UnicodeDecodeError, csv.Error):
        return {}
    found = {}
    for row in rows:
        comp_id = (row.get("comp-id") or row.get("competition") or "").strip()
        if comp_id:
            found[comp_id] = {key: (value or "") for key, value in row.items() if key}
    return found
