"""Turn a task design into a competition folder in today's format (no LLM).

    <slug>/competition.yaml        grading block, `source: synthesized`, the dataset's license and origin
    <slug>/data_card.md            drafted from the profile
    <slug>/data/train.csv          features and target
    <slug>/data/test.csv           features only
    <slug>/data/sample_submission.csv
    <slug>/notebooks/baseline.py   the scikit-learn baseline verification runs (and describe reads)
    <slug>/private/answers.csv     the test rows' targets: outside data/, so nothing an agent is given holds them
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import yaml

from curation.synthesis.metrics import METRICS, READABLE, positive_label, trivial_prediction
from curation.synthesis.records import DatasetProfile, TableProfile, TaskDesign
from curation.synthesis.split import split_rows

SCRIPT = Path(__file__).with_name("baseline_script.py")
BODY_MARKER = "# --- body ---\n"


@dataclass
class Draft:
    """A written competition folder and the frames it was written from."""

    folder: Path
    design: TaskDesign
    id_col: str
    train: pd.DataFrame
    test: pd.DataFrame  # without the target
    answers: pd.DataFrame  # id, target
    sample: pd.DataFrame  # id, trivial prediction


def prepare_frame(frame: pd.DataFrame, design: TaskDesign) -> tuple[pd.DataFrame, str, str | None]:
    """The table as the competition holds it: leakage dropped, rows without a target dropped, a unique id column,
    and for a probability metric the target as 0/1 (1 = the positive label, returned as text; else None)."""
    target = design.idea.target
    frame = frame.drop(columns=[c for c in design.drop_columns if c in frame.columns and c != target])
    frame = frame[frame[target].notna()].reset_index(drop=True)
    positive = None
    if METRICS[design.metric].probability:
        positive = positive_label(frame[target])
        frame[target] = (frame[target].astype(str) == str(positive)).astype(int)
    id_col = design.id_col
    if not id_col or id_col not in frame.columns or not frame[id_col].is_unique or frame[id_col].isna().any():
        id_col = next(name for name in ("id", "row_id", "task_row_id") if name not in frame.columns)
        frame.insert(0, id_col, range(1, len(frame) + 1))
    return frame, id_col, None if positive is None else str(positive)


def write_draft(frame: pd.DataFrame, design: TaskDesign, profile: DatasetProfile, folder: Path) -> Draft:
    """Split the table and write the whole folder (replacing an earlier draft of it)."""
    frame, id_col, positive = prepare_frame(frame, design)
    target = design.idea.target
    train_at, test_at = split_rows(frame, design)
    train = frame.iloc[sorted(train_at)].reset_index(drop=True)
    graded = frame.iloc[sorted(test_at)].reset_index(drop=True)
    test = graded.drop(columns=[target])
    answers = graded[[id_col, target]]
    sample = pd.DataFrame({id_col: graded[id_col], target: trivial_prediction(METRICS[design.metric], train[target],
                                                                               len(graded)).to_numpy()})
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "data").mkdir(parents=True)
    (folder / "private").mkdir()
    (folder / "notebooks").mkdir()
    train.to_csv(folder / "data" / "train.csv", index=False)
    test.to_csv(folder / "data" / "test.csv", index=False)
    sample.to_csv(folder / "data" / "sample_submission.csv", index=False)
    answers.to_csv(folder / "private" / "answers.csv", index=False)
    (folder / "competition.yaml").write_text(competition_yaml(design, profile, id_col), encoding="utf-8")
    table = profile.table(design.idea.table)
    (folder / "data_card.md").write_text(data_card(design, profile, table, train, test, id_col, positive), encoding="utf-8")
    (folder / "notebooks" / "baseline.py").write_text(baseline_code(design, id_col), encoding="utf-8")
    (folder / "private" / "design.json").write_text(design.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return Draft(folder=folder, design=design, id_col=id_col, train=train, test=test, answers=answers, sample=sample)


def competition_yaml(design: TaskDesign, profile: DatasetProfile, id_col: str) -> str:
    """competition.yaml as the folder reader expects it, with the provenance of a synthesized task."""
    task_type = design.idea.task_type
    fields = {
        "competition": design.slug,
        "comp_name": design.title,
        "comp_type": "Synthesized",
        "data_type": "tabular",
        "metric": READABLE.get(design.metric, design.metric),
        "metric_type": "regression" if task_type == "regression" else "classification",
        "source": "synthesized",
        "license": profile.license or "unknown: check the dataset's terms before publishing",
        "origin": profile.origin or f"dataset folder {Path(profile.path).name}, table {design.idea.table}",
        "grading": design.grading(id_col),
    }
    return yaml.safe_dump(fields, sort_keys=False, allow_unicode=True)


def data_card(design: TaskDesign, profile: DatasetProfile, table: TableProfile | None, train: pd.DataFrame,
              test: pd.DataFrame, id_col: str, positive: str | None = None) -> str:
    """The data card drafted from the profile, in the style of the method's cards: what the rows are, each column,
    and the target's distribution. Nothing about files or submissions (the data-card lint reports those)."""
    target = design.idea.target
    columns = {column.name: column for column in (table.columns if table else [])}
    origin = f" ({profile.origin})" if profile.origin else ""
    lines = [f"The data describe {len(train) + len(test):,} rows of the table {design.idea.table} of the "
             f"{profile.dataset} dataset{origin}, one row per record, identified by `{id_col}`.", ""]
    for name in train.columns:
        if name == id_col:
            continue
        column = columns.get(name)
        parts = [column.kind if column else "numeric"]
        if column and column.missing_share:
            parts.append(f"missing in {column.missing_share:.0%} of the rows")
        if column and column.kind == "categorical" and column.examples:
            parts.append("e.g. " + ", ".join(column.examples))
        role = " This is the target." if name == target else ""
        lines.append(f"- `{name}` — {'; '.join(parts)}.{role}")
    lines += ["", _target_sentence(design, train[target])]
    if positive is not None:
        lines.append(f"`{target}` is 1 where the original data said {positive!r}, 0 otherwise.")
    if table is not None and table.sampled:
        lines.append(f"The rows are a seeded sample of {table.profiled_rows:,} of the table's {table.rows:,} rows.")
    return "\n".join(lines) + "\n"


def _target_sentence(design: TaskDesign, target: pd.Series) -> str:
    name = design.idea.target
    if design.idea.task_type == "regression":
        values = pd.to_numeric(target)
        return f"`{name}` ranges from {values.min():g} to {values.max():g} (median {values.median():g})."
    shares = target.astype(str).value_counts(normalize=True).head(5)
    return f"Shares of `{name}`: " + ", ".join(f"{label} {share:.0%}" for label, share in shares.items()) + "."


def baseline_code(design: TaskDesign, id_col: str) -> str:
    """notebooks/baseline.py: a header stating the task (what describe reads) above the shared script body."""
    body = SCRIPT.read_text(encoding="utf-8").split(BODY_MARKER, 1)[1]
    config = {"target": design.idea.target, "id_col": id_col, "task_type": design.idea.task_type,
              "metric": design.metric, "probability": METRICS[design.metric].probability}
    split = design.split + (f" by {design.split_column}" if design.split_column else "")
    dropped = "; ".join(f"{name} ({design.drop_reasons.get(name, 'leakage')})" for name in design.drop_columns) or "none"
    header = (
        f'"""{design.title}\n\n'
        f"Task: predict {design.idea.target} ({design.idea.task_type}) for each row of test.csv.\n"
        f"Why it matters: {design.idea.rationale}\n"
        f"Metric: {READABLE.get(design.metric, design.metric)} ({design.metric}, {design.direction}).\n"
        f"Split: {split}, {design.test_share:.0%} of the rows graded.\n"
        f"Columns removed as leakage: {dropped}.\n"
        'Baseline: a gradient-boosted tree model on the numeric and low-cardinality columns.\n"""\n\n'
    )
    return header + "CONFIG = " + json.dumps(config, indent=4).replace("true", "True").replace("false", "False") + "\n\n" + body
