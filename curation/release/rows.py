"""The dataset rows: one per competition and language, with each translated field's provenance and review verdict."""

from __future__ import annotations

from pathlib import Path

from curation.records import FIELDS
from curation.release.inputs import ReleaseInputs

RECORD_COLUMNS = ("competition", "comp_name", "competition_link", "comp_type", "data_type", "metric", "metric_type")
TRACE_COLUMNS = tuple(f"{name}_{kind}" for name in FIELDS for kind in ("provenance", "verdict"))

# Every config has the same columns, so one schema serves every language (and the dataset viewer). Named by their
# pyarrow type, so that the columns are known without importing pyarrow (a tenth of a second `curate status` would
# pay for its release section): only writing the parquet files imports it.
COLUMN_TYPES = ({name: "string" for name in (*RECORD_COLUMNS, "domain", "description", "data_card")}
                | {"private": "bool_", "synthesized": "bool_"} | dict.fromkeys(TRACE_COLUMNS, "string")
                | {"rubric_score": "int64"})
COLUMNS = tuple(COLUMN_TYPES)


def language_rows(inputs: ReleaseInputs, language: str, held: dict[str, list[str]]) -> list[dict]:
    """The rows of one language's config, competitions in slug order; competitions in `held` are left out."""
    rows = []
    for competition in inputs.competitions:
        slug = competition.competition
        if slug in held:
            continue
        texts = inputs.texts(language, competition)
        row = {name: getattr(competition, name) for name in RECORD_COLUMNS}
        row["private"] = competition.private
        row["synthesized"] = competition.synthesized  # made by `curate synthesize` from a raw dataset, not Kaggle
        for name, final in texts.items():
            row[name] = final.text
            row[f"{name}_provenance"] = final.provenance
            row[f"{name}_verdict"] = final.verdict
        row["rubric_score"] = inputs.rubric.get(slug)
        rows.append({column: row.get(column) for column in COLUMNS})
    return rows


def data_path(language: str) -> str:
    """Where a language's test split lives in the release, relative to its root."""
    return f"{language}/test-00000-of-00001.parquet"


def write_parquet(rows: list[dict], path: Path) -> None:
    """Write one config's rows with the shared schema (an empty language still gets its columns)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    schema = pa.schema([pa.field(name, getattr(pa, kind)()) for name, kind in COLUMN_TYPES.items()])
    table = pa.Table.from_pylist(rows, schema=schema)
    pq.write_table(table, path)
