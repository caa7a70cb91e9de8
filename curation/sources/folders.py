"""Reader of competition folders: `<competitions>/<slug>/` with competition.yaml, data_card.md, an optional
description.md, and notebooks/ (.ipynb, .py) ordered by an optional notebooks.csv.

Decisions worth knowing:
- The slug is the `competition` field of competition.yaml, not the folder name, so a folder can be renamed.
  Two folders claiming one slug are both refused (one problem line each) until one of them is fixed: picking
  either would silently drop a curator's work.
- A competition.yaml problem refuses the competition; a bad notebook only skips that notebook, and the next
  one in order takes its place among the top N.
- A missing data_card.md is a problem line, but the competition is still ingested: describing it needs only
  its notebooks, and the card can be written later.
"""

from __future__ import annotations

import csv
import difflib
import io
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from curation.config import IngestSettings
from curation.plain_text import metadata_problems
from curation.records import DATA_TYPES, Competition, IngestedCompetition, Notebook, Problem
from curation.sources import RejectedCompetition, SourceItem, shown_path
from curation.sources.notebooks import NOTEBOOK_SUFFIXES, SCRIPT_SUFFIXES, NotebookError, extract

COMPETITION_FILE = "competition.yaml"
REQUIRED_FIELDS = ("competition", "comp_name", "comp_type", "data_type", "metric")
OPTIONAL_FIELDS = ("competition_link", "metric_type", "private", "grading", "source", "license", "origin")
SYNTHESIZED = "synthesized"  # the only `source` a competition.yaml may state: made by `curate synthesize`
REJECTED_FOLDER = "rejected"  # where `curate synthesize` puts the tasks it rejected, next to the accepted ones
# Texts that come from their own files, so a curator edits prose in Markdown rather than in YAML.
FIELDS_FROM_FILES = {"data_card": "data_card.md", "description": "description.md"}
MEDALS = {"gold": 1, "silver": 2, "bronze": 3, "1": 1, "2": 2, "3": 3}
MINIMIZE = ("minimize", "min", "lower", "lower is better")


@dataclass
class _Folder:
    """One competition folder after reading its competition.yaml."""

    path: Path
    slug: str
    fields: dict[str, Any] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


class CompetitionFolders:
    """Iterate over the competitions under a folder; `len()` is known before the (slower) notebook reading."""

    def __init__(self, root: Path, settings: IngestSettings, top_notebooks: int | None = None, base: Path | None = None):
        self.root = Path(root)
        self.settings = settings
        self.top = top_notebooks or settings.top_notebooks
        self.base = base
        self.problems: list[Problem] = []  # found outside any competition (folders without competition.yaml)
        self._folders = self._scan()

    def __len__(self) -> int:
        return len(self._by_slug)

    def __iter__(self) -> Iterator[SourceItem]:
        for slug, folders in self._by_slug.items():
            if len(folders) > 1:
                yield self._duplicate(slug, folders)
            else:
                yield self._read(folders[0])

    # -- competition.yaml ----------------------------------------------------------------------------

    def _shown(self, path: Path) -> str:
        return shown_path(path, self.base)

    def _scan(self) -> list[_Folder]:
        if (self.root / COMPETITION_FILE).exists():  # the source is one competition's folder
            candidates = [self.root]
        else:
            candidates = sorted(p for p in self.root.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
        folders = []
        for path in candidates:
            if path.name == REJECTED_FOLDER and not (path / COMPETITION_FILE).exists():
                continue  # curate synthesize's rejected drafts, each with REJECTED.md: never competitions
            if not (path / COMPETITION_FILE).exists():
                self.problems.append(Problem(stage="ingest", path=self._shown(path),
                                             message=f"no {COMPETITION_FILE}; add one, or move the folder out of the competitions folder"))
                continue
            folders.append(self._read_yaml(path))
        self._by_slug: dict[str, list[_Folder]] = defaultdict(list)
        for folder in folders:
            self._by_slug[folder.slug].append(folder)
        return folders

    def _problem(self, folder: _Folder, path: Path, message: str) -> None:
        folder.problems.append(Problem(stage="ingest", path=self._shown(path), message=message, competition=folder.slug))

    def _read_yaml(self, path: Path) -> _Folder:
        file = path / COMPETITION_FILE
        folder = _Folder(path=path, slug=path.name)
        try:
            data = yaml.safe_load(file.read_text(encoding="utf-8"))
        except (yaml.YAMLError, UnicodeDecodeError) as error:
            mark = getattr(error, "problem_mark", None)
            where = f" (line {mark.line + 1})" if mark else ""
            self._problem(folder, file, f"not valid YAML{where}; fix the syntax")
            return folder
        if not isinstance(data, dict):
            self._problem(folder, file, "must be a mapping of fields (competition: ..., comp_name: ...)")
            return folder
        if isinstance(data.get("competition"), str) and data["competition"].strip():
            folder.slug = data["competition"].strip()
        known = REQUIRED_FIELDS + OPTIONAL_FIELDS
        for key in data:
            if key in FIELDS_FROM_FILES:
                self._problem(folder, file, f"field '{key}' belongs in {FIELDS_FROM_FILES[key]} next to it, not in the YAML")
            elif key not in known:
                close = difflib.get_close_matches(str(key), known, n=1)
                hint = f"did you mean '{close[0]}'?" if close else f"known fields: {', '.join(known)}"
                self._problem(folder, file, f"unknown field '{key}'; {hint}")
        for key in REQUIRED_FIELDS:
            if data.get(key) in (None, ""):
                self._problem(folder, file, f"missing field '{key}'; add it")
        if data.get("source") not in (None, SYNTHESIZED):
            self._problem(folder, file, f"field 'source' can only be '{SYNTHESIZED}' (a task made by curate synthesize); "
                                        "remove it for a Kaggle competition")
        if "grading" in data and data["grading"] is not None and not isinstance(data["grading"], dict):
            self._problem(folder, file, "field 'grading' must be a mapping (metric, target_col, direction, ...)")
        folder.fields = {key: value for key, value in data.items() if key in known and key != "source"}
        folder.fields["synthesized"] = data.get("source") == SYNTHESIZED
        return folder

    def _duplicate(self, slug: str, folders: list[_Folder]) -> RejectedCompetition:
        paths = [self._shown(folder.path) for folder in folders]
        problems = [
            Problem(stage="ingest", path=self._shown(folder.path / COMPETITION_FILE), competition=slug,
                    message=f"slug '{slug}' is also claimed by {', '.join(p for p in paths if p != self._shown(folder.path))}; "
                            "give each folder its own slug or remove one")
            for folder in folders
        ]
        return RejectedCompetition(competition=slug, reason=f"claimed by {len(folders)} folders: {', '.join(paths)}", problems=problems)

    # -- one competition -------------------------------------------------------------------------------

    def _read(self, folder: _Folder) -> SourceItem:
        file = folder.path / COMPETITION_FILE
        if folder.problems:
            return RejectedCompetition(competition=folder.slug, reason=f"{self._shown(file)}: {folder.problems[0].message}"
                                       + (f" (+{len(folder.problems) - 1} more)" if len(folder.problems) > 1 else ""),
                                       problems=folder.problems)
        texts = {name: self._text(folder, folder.path / filename) for name, filename in FIELDS_FROM_FILES.items()}
        try:
            competition = Competition(**folder.fields, data_card=texts["data_card"] or "", description=texts["description"],
                                      source=str(folder.path))
        except ValidationError as error:
            for issue in error.errors():
                where = ".".join(str(part) for part in issue["loc"])
                message = issue["msg"].removeprefix("Value error, ")
                if where == "data_type":
                    message = f"unknown data type {folder.fields.get('data_type')!r}; use one of: {', '.join(DATA_TYPES)}"
                self._problem(folder, file, f"field '{where}': {message}")
            return RejectedCompetition(competition=folder.slug, reason=f"{self._shown(file)}: {folder.problems[0].message}",
                                       problems=folder.problems)
        unsafe = metadata_problems(competition)
        if unsafe:
            for name, message in unsafe:
                self._problem(folder, file, f"field '{name}': {message}")
            return RejectedCompetition(competition=folder.slug, reason=f"{self._shown(file)}: {folder.problems[0].message}"
                                       + (f" (+{len(unsafe) - 1} more)" if len(unsafe) > 1 else ""),
                                       problems=folder.problems)
        if texts["data_card"] is None:
            self._problem(folder, folder.path / "data_card.md", "missing; write the data card (what the files and columns hold)")
        if competition.private and not texts["description"]:
            self._problem(folder, folder.path / "description.md",
                          "required when private: true (no public code to infer the task from); write the task description")
            return RejectedCompetition(competition=folder.slug, reason="private, but description.md is missing", problems=folder.problems)
        notebooks = self._notebooks(folder, competition)
        return IngestedCompetition(competition=competition, notebooks=notebooks, problems=folder.problems)

    def _text(self, folder: _Folder, path: Path) -> str | None:
        if not path.exists():
            return None
        try:
            return path.read_text(encoding="utf-8").strip()
        except UnicodeDecodeError:
            self._problem(folder, path, "is not UTF-8; re-save it as UTF-8")
            return None

    # -- notebooks --------------------------------------------------------------------------------------

    def _notebooks(self, folder: _Folder, competition: Competition) -> list[Notebook]:
        directory = folder.path / "notebooks"
        if not directory.is_dir():
            return []
        files = sorted(p for p in directory.iterdir() if p.is_file() and p.suffix.lower() in NOTEBOOK_SUFFIXES + SCRIPT_SUFFIXES)
        listed = self._listing(folder, directory, {p.name for p in files})
        minimize = str((competition.grading or {}).get("direction", "")).lower() in MINIMIZE
        ranked = sorted(listed.values(), key=lambda nb: _order(nb, minimize))
        unlisted = [Notebook(competition=competition.competition, name=p.name, text="") for p in files if p.name not in listed]
        chosen: list[Notebook] = []
        for candidate in ranked + unlisted:
            if len(chosen) >= self.top:
                break
            path = directory / candidate.name
            try:
                text = extract(path, self.settings.notebook_token_budget, self.settings.keep_markdown, self.settings.max_notebook_bytes)
            except NotebookError as error:
                self._problem(folder, path, str(error))
                continue
            except OSError as error:
                self._problem(folder, path, f"cannot be read ({error.strerror}); check its permissions")
                continue
            if text.encoding not in ("utf-8", "utf-8-sig"):
                self._problem(folder, path, f"decoded as {text.encoding}, not UTF-8; check the text reads right or re-save it as UTF-8")
            chosen.append(candidate.model_copy(update={"competition": competition.competition, "text": text.text,
                                                        "tokens": text.tokens, "cut": text.cut}))
        return chosen

    def _listing(self, folder: _Folder, directory: Path, present: set[str]) -> dict[str, Notebook]:
        """Rows of notebooks.csv that name an existing file, as Notebooks without text yet."""
        file = folder.path / "notebooks.csv"
        if not file.exists():
            return {}
        listed: dict[str, Notebook] = {}
        try:
            text = file.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError:
            self._problem(folder, file, "is not UTF-8; re-save it as UTF-8 (until then its notebooks go in name order)")
            return {}
        try:
            reader = csv.DictReader(io.StringIO(text, newline=""))
            if "file" not in (reader.fieldnames or []):
                self._problem(folder, file, "needs a header with a 'file' column (file, score, rank, votes, medal)")
                return {}
            rows = list(reader)
        except csv.Error as error:
            self._problem(folder, file, f"is not a readable CSV ({error}); fix it (until then its notebooks go in name order)")
            return {}
        for line, row in enumerate(rows, start=2):
            name = (row.get("file") or "").strip()
            if not name:
                continue
            if name not in present:
                self._problem(folder, file, f"row {line}: names {name}, which is not in {self._shown(directory)}; fix the name or remove the row")
                continue
            try:
                listed[name] = Notebook(competition=folder.slug, name=name, text="",
                                        score=_number(row.get("score"), float), rank=_number(row.get("rank"), int),
                                        votes=_number(row.get("votes"), int), medal=_medal(row.get("medal")))
            except ValueError as error:
                self._problem(folder, file, f"row {line}: {error}")
        return listed


def _number(value: str | None, kind: type) -> Any:
    value = (value or "").strip()
    if not value:
        return None
    try:
        return kind(float(value)) if kind is int else kind(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a number") from None


def _medal(value: str | None) -> int | None:
    value = (value or "").strip().lower()
    if not value or value in ("none", "0"):
        return None
    if value not in MEDALS:
        raise ValueError(f"medal {value!r} is not gold, silver, bronze (or 1, 2, 3)")
    return MEDALS[value]


def _order(notebook: Notebook, minimize: bool) -> tuple:
    """Best first: any medal before none (gold first), then votes, then leaderboard score, then rank."""
    score = notebook.score
    score_key = (score is None, 0.0 if score is None else (score if minimize else -score))
    return (notebook.medal or 99, -(notebook.votes or 0), score_key, notebook.rank or 10**9, notebook.name)
