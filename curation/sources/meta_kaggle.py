"""Reader of a Meta Kaggle dump (kaggle.com/datasets/kaggle/meta-kaggle) plus the Meta Kaggle Code folder.

DuckDB scans the CSVs where they lie, so the multi-GB tables never load into memory whole; Python only
sees the few rows per competition that survive the filters and the top-N ranking.

Columns used, as the dump names them. Checked against public code that reads real dumps: an importer that
lists every Meta Kaggle table with its full column list (Competitions: Id, Slug, Title, Subtitle,
HostSegmentTitle, ForumId, ..., EnabledDate, DeadlineDate, ..., EvaluationAlgorithmAbbreviation,
EvaluationAlgorithmName, EvaluationAlgorithmDescription, EvaluationAlgorithmIsMax, ..., TotalTeams, ...),
DuckDB and pandas analyses that join KernelVersionCompetitionSources -> KernelVersions.ScriptId -> Kernels,
and notebooks parsing EnabledDate with "%m/%d/%Y %H:%M:%S":
- Competitions.csv: Id, Slug, Title, HostSegmentTitle, EnabledDate ("MM/DD/YYYY HH:MM:SS"),
  EvaluationAlgorithmAbbreviation, EvaluationAlgorithmName, EvaluationAlgorithmIsMax, TotalTeams.
  Classroom competitions carry HostSegmentTitle "InClass".
- Kernels.csv: Id, CurrentKernelVersionId, CurrentUrlSlug, Medal (1 gold, 2 silver, 3 bronze, empty: none),
  TotalVotes.
- KernelVersions.csv: Id, ScriptId (the kernel a version belongs to).
- KernelVersionCompetitionSources.csv: KernelVersionId, SourceCompetitionId.
- Optional Submissions.csv: SourceKernelVersionId, PublicScoreFullPrecision — a notebook's leaderboard score.
- Optional CompetitionTags.csv (CompetitionId, TagId) and Tags.csv (Id, Name) — hints of the data type.
Meta Kaggle Code keeps one file per kernel version, named by the version id and sharded by the id padded to
ten digits: version 230026147 -> "0230026147" -> 0230/026/230026147.ipynb (or .py, .r) — the layout two
independent public readers of kaggle/meta-kaggle-code use (`str(id).zfill(10)`, folders [0:4]/[4:7]).

Meta Kaggle has no data card and no data type. The card stays empty unless the curator writes
`<competitions>/<slug>/data_card.md`; the data type comes from the competition's tags when they tell, and is
"tabular" otherwise (one problem line says how many were assumed).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from curation.config import IngestSettings
from curation.excerpt import plural
from curation.plain_text import metadata_problems
from curation.records import Competition, IngestedCompetition, Notebook, Problem
from curation.sources import RejectedCompetition, SourceError, SourceItem, shown_path
from curation.sources.notebooks import NotebookError, extract

if TYPE_CHECKING:  # imported where a dump is read: every `curate ingest` would otherwise pay its 0.2 s import
    import duckdb

REQUIRED_COLUMNS = {
    "Competitions.csv": ("Id", "Slug", "Title", "HostSegmentTitle", "EnabledDate", "EvaluationAlgorithmAbbreviation",
                         "EvaluationAlgorithmName", "EvaluationAlgorithmIsMax", "TotalTeams"),
    "Kernels.csv": ("Id", "CurrentKernelVersionId", "CurrentUrlSlug", "Medal", "TotalVotes"),
    "KernelVersions.csv": ("Id", "ScriptId"),
    "KernelVersionCompetitionSources.csv": ("KernelVersionId", "SourceCompetitionId"),
}
OPTIONAL_COLUMNS = {
    "Submissions.csv": ("SourceKernelVersionId", "PublicScoreFullPrecision"),
    "CompetitionTags.csv": ("CompetitionId", "TagId"),
    "Tags.csv": ("Id", "Name"),
}
CODE_SUFFIXES = (".ipynb", ".py", ".r")
CODE_FOLDER_NAMES = ("meta-kaggle-code", "MetaKaggleCode", "code")
# Tag words that name a data type, most specific first.
TAG_DATA_TYPES = (
    ("time series", "time series"), ("audio", "audio"), ("video", "video"), ("image", "image"),
    ("computer vision", "image"), ("nlp", "text"), ("text", "text"), ("tabular", "tabular"),
    ("graph", "graph"), ("geospatial", "geospatial"), ("signal", "signal"),
)
DATE_FORMATS = ("%m/%d/%Y %H:%M:%S", "%m/%d/%Y", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d")


def is_meta_kaggle(path: Path) -> bool:
    """A folder is a Meta Kaggle dump when it holds Competitions.csv."""
    return (Path(path) / "Competitions.csv").exists()


def code_path(code_root: Path, version_id: int) -> Path:
    """The shard folder of a kernel version in Meta Kaggle Code (the file inside is <id>.<suffix>)."""
    padded = f"{version_id:010d}"
    return code_root / padded[:4] / padded[4:7]


def _literal(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def _csv(path: Path) -> str:
    # all_varchar: a dump's type sniffing can fail deep inside a multi-GB file; we cast the few columns we use.
    return f"read_csv({_literal(path)}, header=true, all_varchar=true, delim=',', quote='\"', escape='\"')"


def _date(column: str) -> str:
    tries = ", ".join(f"try_strptime({column}, '{fmt}')" for fmt in DATE_FORMATS)
    return f"coalesce({tries})"


@dataclass(frozen=True)
class _Candidate:
    competition_id: int
    slug: str
    title: str
    host_segment: str
    metric_name: str
    metric_abbreviation: str
    version_id: int
    url_slug: str
    medal: int | None
    votes: int | None
    score: float | None


class MetaKaggleDump:
    """Iterate over the competitions of a dump that pass the config's filters, each with its top notebooks."""

    def __init__(self, root: Path, settings: IngestSettings, code_root: Path | None = None,
                 top_notebooks: int | None = None, cards: Path | None = None, base: Path | None = None):
        self.root = Path(root)
        self.settings = settings
        self.top = top_notebooks or settings.top_notebooks
        self.cards = cards
        self.base = base
        self.problems: list[Problem] = []
        self.without_notebooks = 0  # competitions that passed the filters but have no notebook at all
        self._check_columns()
        self.code_root = self._find_code_root(code_root)
        self._candidates: dict[int, list[_Candidate]] | None = None
        self._data_types: dict[int, str] = {}

    # -- checks ------------------------------------------------------------------------------------------

    def _problem(self, path: Path, message: str, competition: str | None = None) -> Problem:
        return Problem(stage="ingest", path=shown_path(path, self.base), message=message, competition=competition)

    def _check_columns(self) -> None:
        problems = []
        self.optional: set[str] = set()
        for name, columns in {**REQUIRED_COLUMNS, **OPTIONAL_COLUMNS}.items():
            file = self.root / name
            if not file.exists():
                if name in REQUIRED_COLUMNS:
                    problems.append(self._problem(file, "missing; a Meta Kaggle dump needs it (download it from kaggle/meta-kaggle)"))
                continue
            with file.open(encoding="utf-8-sig", newline="") as handle:
                header = next(csv.reader(handle), [])
            missing = [column for column in columns if column not in header]
            if missing and name in REQUIRED_COLUMNS:
                problems.extend(self._problem(file, f"missing column '{column}'; is it a Meta Kaggle {name}?") for column in missing)
            elif missing:
                self.problems.append(self._problem(file, f"missing column '{missing[0]}'; the file is ignored"))
            else:
                self.optional.add(name)
        if problems:
            raise SourceError(problems)

    def _find_code_root(self, given: Path | None) -> Path:
        if given is not None:
            if not Path(given).is_dir():
                raise SourceError([self._problem(Path(given), "no such folder; pass the Meta Kaggle Code folder with --code")])
            return Path(given)
        for folder in [self.root / name for name in CODE_FOLDER_NAMES] + [self.root.parent / name for name in CODE_FOLDER_NAMES]:
            if folder.is_dir():
                return folder
        raise SourceError([self._problem(self.root, "no Meta Kaggle Code folder next to the dump "
                                                    f"({', '.join(CODE_FOLDER_NAMES)}); pass it with --code PATH")])

    # -- the scan ----------------------------------------------------------------------------------------

    def _filters(self) -> tuple[str, list]:
        config = self.settings.meta_kaggle
        clauses, params = ["Slug IS NOT NULL", "TRY_CAST(Id AS BIGINT) IS NOT NULL"], []
        if config.host_segments:
            clauses.append("HostSegmentTitle IN (SELECT unnest(?))")
            params.append(list(config.host_segments))
        if config.exclude_classroom:
            clauses.append("lower(coalesce(HostSegmentTitle, '')) <> 'inclass'")
        if config.min_teams:
            clauses.append("coalesce(TRY_CAST(TotalTeams AS BIGINT), 0) >= ?")
            params.append(config.min_teams)
        if config.enabled_after:
            clauses.append(f"{_date('EnabledDate')} >= CAST(? AS TIMESTAMP)")
            params.append(config.enabled_after.isoformat())
        if config.enabled_before:
            clauses.append(f"{_date('EnabledDate')} < CAST(? AS TIMESTAMP)")
            params.append(config.enabled_before.isoformat())
        return " AND ".join(clauses), params

    def _scan(self) -> dict[int, list[_Candidate]]:
        where, params = self._filters()
        # Fetch more than N per competition: a top notebook whose code file is missing gives way to the next.
        keep = self.top * 2 + 2
        root = self.root
        with_scores = "Submissions.csv" in self.optional
        scores = (f"""scores AS (
                SELECT TRY_CAST(SourceKernelVersionId AS BIGINT) AS version_id,
                       max(TRY_CAST(PublicScoreFullPrecision AS DOUBLE)) AS high,
                       min(TRY_CAST(PublicScoreFullPrecision AS DOUBLE)) AS low
                FROM {_csv(root / 'Submissions.csv')}
                WHERE TRY_CAST(SourceKernelVersionId AS BIGINT) IN (SELECT version_id FROM candidates)
                GROUP BY 1),""" if with_scores else
                  "scores AS (SELECT NULL::BIGINT AS version_id, NULL::DOUBLE AS high, NULL::DOUBLE AS low WHERE false),")
        sql = f"""
            WITH competitions AS (
                SELECT TRY_CAST(Id AS BIGINT) AS id, lower(trim(Slug)) AS slug, Title AS title,
                       HostSegmentTitle AS host_segment, EvaluationAlgorithmName AS metric_name,
                       EvaluationAlgorithmAbbreviation AS metric_abbreviation,
                       lower(coalesce(EvaluationAlgorithmIsMax, '')) IN ('true', '1', 'yes') AS is_max
                FROM {_csv(root / 'Competitions.csv')} WHERE {where}),
            links AS (
                SELECT DISTINCT TRY_CAST(v.ScriptId AS BIGINT) AS kernel_id, s.competition_id
                FROM (SELECT TRY_CAST(KernelVersionId AS BIGINT) AS version_id,
                             TRY_CAST(SourceCompetitionId AS BIGINT) AS competition_id
                      FROM {_csv(root / 'KernelVersionCompetitionSources.csv')}) s
                JOIN competitions c ON c.id = s.competition_id
                JOIN (SELECT Id, ScriptId FROM {_csv(root / 'KernelVersions.csv')}) v
                  ON TRY_CAST(v.Id AS BIGINT) = s.version_id),
            candidates AS (
                SELECT l.competition_id, TRY_CAST(k.CurrentKernelVersionId AS BIGINT) AS version_id,
                       k.CurrentUrlSlug AS url_slug, TRY_CAST(k.Id AS BIGINT) AS kernel_id,
                       nullif(TRY_CAST(TRY_CAST(k.Medal AS DOUBLE) AS INTEGER), 0) AS medal,
                       TRY_CAST(TRY_CAST(k.TotalVotes AS DOUBLE) AS BIGINT) AS votes
                FROM links l JOIN {_csv(root / 'Kernels.csv')} k ON TRY_CAST(k.Id AS BIGINT) = l.kernel_id
                WHERE TRY_CAST(k.CurrentKernelVersionId AS BIGINT) IS NOT NULL),
            {scores}
            ranked AS (
                SELECT c.id AS competition_id, c.slug, c.title, c.host_segment, c.metric_name, c.metric_abbreviation,
                       k.version_id, k.url_slug, k.medal, k.votes,
                       CASE WHEN c.is_max THEN s.high ELSE s.low END AS score,
                       row_number() OVER (PARTITION BY c.id ORDER BY coalesce(k.medal, 99), k.votes DESC NULLS LAST,
                           CASE WHEN c.is_max THEN -s.high ELSE s.low END NULLS LAST, k.kernel_id) AS position
                FROM candidates k JOIN competitions c ON c.id = k.competition_id
                LEFT JOIN scores s ON s.version_id = k.version_id)
            SELECT competition_id, slug, title, host_segment, metric_name, metric_abbreviation, version_id, url_slug,
                   medal, votes, score
            FROM ranked WHERE position <= {keep} ORDER BY slug, position
        """
        import duckdb

        with duckdb.connect(config={"memory_limit": "1GB", "preserve_insertion_order": False}) as db:
            rows = db.execute(sql, params).fetchall()
            selected = {row[0] for row in rows}
            total = db.execute(f"SELECT count(*) FROM {_csv(root / 'Competitions.csv')} WHERE {where}", params).fetchone()[0]
            self.without_notebooks = total - len(selected)
            if {"CompetitionTags.csv", "Tags.csv"} <= self.optional and selected:
                self._data_types = self._tag_data_types(db, selected)
        candidates: dict[int, list[_Candidate]] = {}
        for row in rows:
            candidates.setdefault(row[0], []).append(_Candidate(*row))
        return candidates

    def _tag_data_types(self, db: duckdb.DuckDBPyConnection, competition_ids: set[int]) -> dict[int, str]:
        rows = db.execute(f"""
            SELECT TRY_CAST(ct.CompetitionId AS BIGINT), lower(t.Name)
            FROM {_csv(self.root / 'CompetitionTags.csv')} ct
            JOIN {_csv(self.root / 'Tags.csv')} t ON t.Id = ct.TagId
            WHERE TRY_CAST(ct.CompetitionId AS BIGINT) IN (SELECT unnest(?))""", [sorted(competition_ids)]).fetchall()
        tags: dict[int, list[str]] = {}
        for competition_id, name in rows:
            tags.setdefault(competition_id, []).append(name or "")
        found = {}
        for competition_id, names in tags.items():
            for word, data_type in TAG_DATA_TYPES:
                if any(word in name for name in names):
                    found[competition_id] = data_type
                    break
        return found

    # -- iteration ---------------------------------------------------------------------------------------

    def __len__(self) -> int:
        import duckdb

        if self._candidates is None:
            try:
                self._candidates = self._scan()
            except duckdb.Error as error:
                raise SourceError([self._unreadable(error)]) from None
        return len(self._candidates)

    def _unreadable(self, error: duckdb.Error) -> Problem:
        """A file DuckDB cannot parse (a cut download, a stray quote) as one line naming the file and, if known, the row."""
        text = str(error)
        file = re.search(r"^\s*file = (.+)$", text, re.M) or re.search(r'sniffing file "([^"]+)"', text)
        line = re.search(r"CSV Error on Line: (\d+)", text)
        reason = re.search(r"Original Line: [^\n]*\n\n([^\n]+)", text)
        if line:
            detail = f"row on line {line.group(1)}: {reason.group(1).strip().rstrip('.') if reason else 'not valid CSV'}"
        elif "sniffing file" in text:
            detail = "its rows do not follow one CSV layout, e.g. a quote that never closes"
        else:
            detail = text.splitlines()[0].removeprefix("Invalid Input Error: ") if text else type(error).__name__
        return self._problem(Path(file.group(1).strip()) if file else self.root,
                             f"cannot be read ({detail}); repair that row or download the file again")

    def __iter__(self) -> Iterator[SourceItem]:
        len(self)
        assert self._candidates is not None
        assumed = 0
        for competition_id, candidates in sorted(self._candidates.items(), key=lambda item: item[1][0].slug):
            if competition_id not in self._data_types:
                assumed += 1
            yield self._competition(competition_id, candidates)
        if assumed:
            self.problems.append(self._problem(self.root / "Competitions.csv",
                                               f"Meta Kaggle has no data type; {plural(assumed, 'competition')} without telling tags "
                                               f"{'was' if assumed == 1 else 'were'} taken as tabular — check them before describing"))

    def _competition(self, competition_id: int, candidates: list[_Candidate]) -> SourceItem:
        first = candidates[0]
        card = self.cards / first.slug / "data_card.md" if self.cards else None
        try:
            competition = Competition(
                competition=first.slug, comp_name=first.title or first.slug, comp_type=first.host_segment or "",
                data_type=self._data_types.get(competition_id, "tabular"),
                metric=first.metric_name or first.metric_abbreviation or "", metric_type=first.metric_abbreviation or "",
                data_card=card.read_text(encoding="utf-8").strip() if card and card.exists() else "",
                source=str(self.root))
        except (ValidationError, UnicodeDecodeError) as error:
            message = f"competition {competition_id} ({first.slug!r}) cannot be read: {str(error).splitlines()[0]}"
            problem = self._problem(self.root / "Competitions.csv", message, first.slug)
            return RejectedCompetition(competition=first.slug, reason=message, problems=[problem])
        unsafe = metadata_problems(competition)
        if unsafe:
            problems = [self._problem(self.root / "Competitions.csv", f"competition {competition_id} ({first.slug!r}): "
                                      f"{'Title' if name == 'comp_name' else name} {message} (in that row)", first.slug)
                        for name, message in unsafe]
            return RejectedCompetition(competition=first.slug, reason=problems[0].message, problems=problems)
        notebooks, problems = [], []
        for candidate in candidates:
            if len(notebooks) >= self.top:
                break
            notebook = self._notebook(competition.competition, candidate, problems)
            if notebook is not None:
                notebooks.append(notebook)
        return IngestedCompetition(competition=competition, notebooks=notebooks, problems=problems)

    def _notebook(self, slug: str, candidate: _Candidate, problems: list[Problem]) -> Notebook | None:
        folder = code_path(self.code_root, candidate.version_id)
        files = [folder / f"{candidate.version_id}{suffix}" for suffix in CODE_SUFFIXES]
        path = next((file for file in files if file.exists()), None)
        if path is None:
            problems.append(self._problem(folder / f"{candidate.version_id}.*", f"no code file for notebook "
                                          f"'{candidate.url_slug}' (kernel version {candidate.version_id}); "
                                          "the Meta Kaggle Code folder may be older than the CSVs", slug))
            return None
        try:
            text = extract(path, self.settings.notebook_token_budget, self.settings.keep_markdown, self.settings.max_notebook_bytes)
        except NotebookError as error:
            problems.append(self._problem(path, str(error), slug))
            return None
        return Notebook(competition=slug, name=f"{candidate.url_slug or 'notebook'}-{candidate.version_id}", score=candidate.score,
                        votes=candidate.votes, medal=candidate.medal, text=text.text, tokens=text.tokens, cut=text.cut)
