"""annotations/<lang>/<timestamp>-<annotator>.csv: what annotators returned, human-readable and append-only.

These files are the source of truth if the store is lost; `curate review import annotations/` rebuilds the
verdicts, rubric scores and outline scores from them.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from pydantic import ValidationError

from curation.output_folders import cannot_write, write_whole
from curation.records import OutlineScore, RubricScore, Verdict
from curation.review.verdicts import parse_score
from curation.store import Store

VERDICT_COLUMNS = ("pulled_at", "annotator", "language", "item_id", "competition", "field", "verdict", "own_version",
                   "comment", "translation", "translation_hash", "source")
RUBRIC_COLUMNS = ("pulled_at", "annotator", "competition", "score", "comment", "description_hash", "source")
OUTLINE_COLUMNS = ("pulled_at", "annotator", "competition", "score", "comment", "outline_hash", "source")


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def _file_for(folder: Path, annotator: str, suffix: str = "") -> Path:
    base = f"{_stamp()}-{re.sub(r'[^A-Za-z0-9._@-]+', '_', annotator)}{suffix}"
    path, n = folder / f"{base}.csv", 2
    while path.exists():
        path, n = folder / f"{base}-{n}.csv", n + 1
    return path


def _write(folder: Path, annotator: str, suffix: str, columns: tuple[str, ...], rows: list[dict]) -> Path:
    # Written whole (output_folders.py), so a pull killed mid-write leaves no cut-off file for `review import` to
    # trip on (the next pull writes the verdicts the store did not get).
    path = _file_for(folder, annotator, suffix)
    text = io.StringIO(newline="")
    writer = csv.DictWriter(text, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    try:
        write_whole(path, text.getvalue().encode("utf-8"))
    except OSError as error:
        raise cannot_write(path, error, "paths.annotations", "pull again (the sheets still hold the answers)") from None
    return path


def write_verdicts(root: Path, language: str, annotator: str, verdicts: list[Verdict]) -> Path:
    """One file of one annotator's new verdicts."""
    rows = [{column: getattr(v, column) for column in VERDICT_COLUMNS} for v in verdicts]
    return _write(root / language, annotator, "", VERDICT_COLUMNS, rows)


def write_rubric(root: Path, language: str, annotator: str, scores: list[RubricScore]) -> Path:
    """One file of one annotator's new rubric scores."""
    rows = [{column: getattr(s, column) for column in RUBRIC_COLUMNS} for s in scores]
    return _write(root / language, annotator, "-rubric", RUBRIC_COLUMNS, rows)


def write_outline_scores(root: Path, language: str, annotator: str, scores: list[OutlineScore]) -> Path:
    """One file of one annotator's new outline scores (the rubric sheet's outline column)."""
    rows = [{column: getattr(s, column) for column in OUTLINE_COLUMNS} for s in scores]
    return _write(root / language, annotator, "-outline", OUTLINE_COLUMNS, rows)


@dataclass
class ImportReport:
    files: int = 0
    verdicts: int = 0
    scores: int = 0
    repeated: int = 0
    problems: list[str] = field(default_factory=list)


def import_annotations(store: Store, folder: Path) -> ImportReport:
    """Read every annotations CSV under a folder into the store, in pull order; rows already there add nothing."""
    report = ImportReport()
    files = sorted(folder.rglob("*.csv"))
    if not files:
        report.problems.append(f"{folder}: no annotation files (*.csv) found")
    records: list[Verdict | RubricScore | OutlineScore] = []
    for path in files:
        with path.open(newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            header = set(reader.fieldnames or ())
            model = (Verdict if set(VERDICT_COLUMNS) <= header else RubricScore if set(RUBRIC_COLUMNS) <= header
                     else OutlineScore if set(OUTLINE_COLUMNS) <= header else None)
            if model is None:
                report.problems.append(f"{path}: not an annotations file (its header lacks the verdict or rubric columns)")
                continue
            report.files += 1
            for number, row in enumerate(reader, start=2):
                values = {key: value for key, value in row.items() if key in model.model_fields}
                if model is not Verdict and (score := parse_score(values.get("score") or "")) is not None:
                    values["score"] = score  # a CSV cell is text; the record takes the number 0, 1 or 2
                try:
                    records.append(model(**values))
                except ValidationError as error:
                    first = error.errors()[0]
                    report.problems.append(f"{path} line {number}: {'.'.join(map(str, first['loc']))}: {first['msg']}")
    # pulled_at orders answers across files, so an annotator's changed mind ends up as the latest answer again.
    for record in sorted(records, key=lambda r: r.pulled_at):
        if isinstance(record, Verdict):
            added = store.add_verdict(record)
            report.verdicts += added
        elif isinstance(record, OutlineScore):
            added = store.add_outline_score(record)
            report.scores += added
        else:
            added = store.add_rubric_score(record)
            report.scores += added
        report.repeated += not added
    return report
