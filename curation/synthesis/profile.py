"""Profile a raw dataset folder without an LLM: its tabular files, their columns, and what is wrong with them.

DuckDB reads each file where it lies; a file with more rows than `max_rows` is reduced to a reservoir sample of
that many rows (seeded, single-threaded, so the same sample comes back on every run), which keeps memory bounded
for a multi-GB file. The sample is what gets profiled and, later, split into the competition's files.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pandas as pd

from curation.fingerprint import file_hash, fingerprint
from curation.records import Problem
from curation.synthesis.records import ColumnProfile, ColumnKind, DatasetProfile, TableProfile

STAGE = "synthesize"
TABULAR = {".csv": "csv", ".tsv": "csv", ".parquet": "parquet", ".pq": "parquet"}
DOCUMENTS = (".md", ".txt", ".rst")
ENCODING_PROBE_BYTES = 1 << 20  # the first MiB is read to catch a file that is not UTF-8
SAMPLE_SEED = 42
NUMERIC = re.compile(r"^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL)")
INTEGER = re.compile(r"^U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)")
ID_NAME = re.compile(r"(^id$|_id$|^id_|uuid|guid|^key$|^index$|^row)", re.I)
LICENSE_LINE = re.compile(r"^\s*(?:license|licence)\s*[:=]\s*(.+)$", re.I | re.M)
SOURCE_LINE = re.compile(r"^\s*(?:source|origin|url)\s*[:=]\s*(.+)$", re.I | re.M)


@dataclass
class ProfileResult:
    profile: DatasetProfile
    problems: list[Problem] = field(default_factory=list)


def dataset_slug(folder: Path) -> str:
    """A slug from the folder's name: lowercase letters, digits and hyphens."""
    slug = re.sub(r"[^a-z0-9]+", "-", folder.resolve().name.lower()).strip("-")
    return slug or "dataset"


def files_stamp(folder: Path, max_rows: int) -> str:
    """Changes when a file in the folder changes (name, size, modification time) or the sampling limit does: the
    cheap test that lets a rerun skip reading the files at all."""
    files = sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in folder.iterdir() if p.is_file())
    return fingerprint({"files": files, "max_rows": max_rows, "seed": SAMPLE_SEED})


def inputs_hash(folder: Path, max_rows: int) -> str:
    """Changes when a file's name or bytes change, or the sampling limit does; not when the folder is copied, moved
    or cloned (new modification times), so the steps after profiling are not redone in a copied project."""
    files = sorted((p.name, file_hash(p)) for p in folder.iterdir() if p.is_file())
    return fingerprint({"files": files, "max_rows": max_rows, "seed": SAMPLE_SEED})


def profile_dataset(folder: Path, max_rows: int) -> ProfileResult:
    """Profile every tabular file of a folder; each unusable file is one problem line and is left out."""
    folder = Path(folder)
    problems: list[Problem] = []

    def problem(path: Path, message: str) -> None:
        problems.append(Problem(stage=STAGE, path=str(path), message=message))

    tables, documents = [], []
    for path in sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")):
        suffix = path.suffix.lower()
        if suffix in DOCUMENTS or path.stem.lower() in ("readme", "license", "licence"):
            documents.append(path)
        elif suffix not in TABULAR:
            problem(path, "not a tabular file (CSV, TSV or Parquet); skipped")
        else:
            table = _profile_table(path, max_rows, problem)
            if table is not None:
                tables.append(table)
    readme, license_, origin = _documents(documents, problem)
    profile = DatasetProfile(dataset=dataset_slug(folder), path=str(folder), tables=tables, readme=readme,
                             license=license_, origin=origin, input_hash=inputs_hash(folder, max_rows))
    if tables and not any(table.plausible_targets() for table in tables):
        problem(folder, "no plausible target column (every column is constant, a key, free text or mostly missing); "
                        "nothing to synthesize")
        profile = profile.model_copy(update={"tables": []})
    elif not tables and not problems:
        problem(folder, "holds no tabular file (CSV, TSV or Parquet); nothing to synthesize")
    return ProfileResult(profile, problems)


def _documents(paths: list[Path], problem) -> tuple[str, str, str]:
    """The README text (all documents, joined), the license and the origin they state."""
    texts = []
    license_ = origin = ""
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8").strip()
        except UnicodeDecodeError:
            problem(path, "is not UTF-8; re-save it as UTF-8 (read without it for now)")
            continue
        if path.stem.lower() in ("license", "licence") and not license_:
            license_ = text.splitlines()[0].strip() if text else ""
        texts.append(f"## {path.name}\n{text}")
        if not license_ and (found := LICENSE_LINE.search(text)):
            license_ = found.group(1).strip()
        if not origin and (found := SOURCE_LINE.search(text)):
            origin = found.group(1).strip()
    return "\n\n".join(texts)[:8000], license_, origin


def _reader(path: Path) -> str:
    if TABULAR[path.suffix.lower()] == "parquet":
        return "read_parquet(?)"
    delimiter = "'\\t'" if path.suffix.lower() == ".tsv" else "NULL"
    # A fixed delimiter for .tsv; otherwise DuckDB's sniffer picks it (comma, semicolon, pipe).
    return f"read_csv(?, header = true, sample_size = 20480{', delim = ' + delimiter if delimiter != 'NULL' else ''})"


def _connect() -> duckdb.DuckDBPyConnection:
    # One thread: the reservoir sample is then the same on every run, and memory stays bounded.
    return duckdb.connect(config={"memory_limit": "1GB", "threads": 1, "preserve_insertion_order": True})


def _not_utf8(path: Path) -> str | None:
    """Where the first bytes stop being UTF-8, or None."""
    if TABULAR[path.suffix.lower()] != "csv":
        return None
    with path.open("rb") as handle:
        head = handle.read(ENCODING_PROBE_BYTES)
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        decoder.decode(head, final=len(head) < ENCODING_PROBE_BYTES)
    except UnicodeDecodeError as error:
        return f"byte 0x{head[error.start]:02x} at offset {error.start}"
    return None


def load_table(path: Path, max_rows: int) -> tuple[pd.DataFrame, int]:
    """The file's rows as a frame (a seeded sample of max_rows when there are more) and its full row count."""
    with _connect() as db:
        relation = f"SELECT * FROM {_reader(path)}"
        rows = db.execute(f"SELECT count(*) FROM ({relation})", [str(path)]).fetchone()[0]
        if rows > max_rows:
            sampled = f"{relation} USING SAMPLE reservoir({int(max_rows)} ROWS) REPEATABLE ({SAMPLE_SEED})"
            frame = db.execute(sampled, [str(path)]).df()
        else:
            frame = db.execute(relation, [str(path)]).df()
    return frame, rows


def _profile_table(path: Path, max_rows: int, problem) -> TableProfile | None:
    if path.stat().st_size == 0:
        problem(path, "is empty; skipped")
        return None
    where = _not_utf8(path)
    if where:
        problem(path, f"is not UTF-8 ({where}); re-save it as UTF-8; skipped")
        return None
    try:
        frame, rows = load_table(path, max_rows)
    except duckdb.Error as error:
        first = str(error).strip().splitlines()[0][:200]
        problem(path, f"cannot be read as a table ({first}); skipped")
        return None
    if rows == 0:
        problem(path, "has a header but no rows; skipped")
        return None
    if frame.shape[1] < 2:
        problem(path, "has a single column; a task needs a target and at least one feature; skipped")
        return None
    sampled = rows > max_rows
    if sampled:
        problem(path, f"has {rows:,} rows, more than the {max_rows:,} kept in memory: profiled and split on a "
                      f"seeded sample of {max_rows:,} rows")
    columns = _columns(frame, path)
    return TableProfile(file=path.name, rows=rows, profiled_rows=len(frame), sampled=sampled, columns=columns)


def _columns(frame: pd.DataFrame, path: Path) -> list[ColumnProfile]:
    with _connect() as db:
        db.register("sample", frame)
        summary = {row[0]: row for row in db.execute("SELECT column_name, column_type FROM (DESCRIBE sample)").fetchall()}
        distinct = db.execute("SELECT " + ", ".join(f'count(DISTINCT "{c}")' for c in frame.columns) + " FROM sample").fetchone()
    columns, seen = [], []
    rows = len(frame)
    for position, name in enumerate(frame.columns):
        values = frame[name]
        dtype = summary[name][1]
        filled = int(values.notna().sum())
        unique = int(distinct[position])
        kind = _kind(dtype, values, unique, filled)
        numbers = pd.to_numeric(values, errors="coerce") if kind == "numeric" else None
        id_like = filled > 20 and unique >= 0.99 * filled and (
            bool(ID_NAME.search(str(name))) or (INTEGER.match(dtype) is not None and _sequential(numbers, filled))
            or kind in ("categorical", "text") and values.dropna().astype(str).str.len().mean() < 40)
        columns.append(ColumnProfile(
            name=str(name), dtype=dtype, kind=kind, missing_share=round(1 - filled / rows, 4) if rows else 1.0,
            distinct=unique, examples=[str(v)[:60] for v in values.dropna().unique()[:3]], constant=unique <= 1,
            id_like=id_like, duplicate_of=_duplicate_of(frame, name, seen),
            minimum=float(numbers.min()) if numbers is not None and filled else None,
            maximum=float(numbers.max()) if numbers is not None and filled else None))
        seen.append(name)
    return columns


def _kind(dtype: str, values: pd.Series, unique: int, filled: int) -> ColumnKind:
    if dtype == "BOOLEAN":
        return "boolean"
    if dtype.startswith(("DATE", "TIMESTAMP", "TIME")):
        return "datetime"
    if NUMERIC.match(dtype):
        return "numeric"
    if unique <= max(50, 0.05 * filled):
        return "categorical"
    lengths = values.dropna().astype(str).str.len()
    return "text" if len(lengths) and lengths.mean() >= 40 else "categorical"


def _sequential(numbers: pd.Series | None, filled: int) -> bool:
    """Integers that run 0..n or 1..n (row numbers), not just happen to be unique."""
    if numbers is None or not filled:
        return False
    return float(numbers.max() - numbers.min()) <= 1.05 * filled


def _duplicate_of(frame: pd.DataFrame, name: str, earlier: list[str]) -> str | None:
    """An earlier column holding the same values on at least 99% of the first rows."""
    head = frame.head(5000)
    column = head[name].astype(str)
    for other in earlier:
        if (head[other].astype(str) == column).mean() >= 0.99:
            return str(other)
    return None
