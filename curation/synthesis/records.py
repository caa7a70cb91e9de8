"""Records the synthesis steps pass along: a dataset's profile, the task ideas, their designs, and the verdict."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from curation.records import Record

ColumnKind = Literal["numeric", "categorical", "text", "datetime", "boolean"]
TaskType = Literal["binary", "multiclass", "regression"]
SplitKind = Literal["random", "stratified", "group", "time"]
Direction = Literal["maximize", "minimize"]


class ColumnProfile(Record):
    """What the profile says of one column, measured on the (possibly sampled) rows."""

    name: str
    dtype: str  # the DuckDB type name
    kind: ColumnKind
    missing_share: float
    distinct: int
    examples: list[str] = Field(default_factory=list)
    constant: bool = False
    id_like: bool = False  # unique (or nearly) on every row: a key, not a feature
    duplicate_of: str | None = None  # an earlier column with (nearly) the same values
    minimum: float | None = None
    maximum: float | None = None


class TableProfile(Record):
    """One tabular file: its rows (all, and profiled), and its columns."""

    file: str  # the file's name inside the dataset folder
    rows: int
    profiled_rows: int
    sampled: bool  # profiled (and later split) on a sample of the rows, because the file is too large
    columns: list[ColumnProfile]

    def column(self, name: str) -> ColumnProfile | None:
        """The column of that name, or None."""
        return next((column for column in self.columns if column.name == name), None)

    def plausible_targets(self) -> list[str]:
        """Columns a task could predict: not constant, not a key, not free text, mostly filled in."""
        return [column.name for column in self.columns
                if not column.constant and not column.id_like and column.kind != "text" and column.missing_share < 0.5]


class DatasetProfile(Record):
    """A raw dataset folder after profiling: its tables, the README text, and what it says of its origin."""

    dataset: str  # slug made from the folder name
    path: str  # as the store keeps it: relative to the project root when inside it (curation/project_paths.py)
    tables: list[TableProfile]
    readme: str = ""
    license: str = ""
    origin: str = ""
    input_hash: str = ""  # of the files' names and bytes and the profile settings (not where the folder lies)

    def table(self, file: str) -> TableProfile | None:
        """The table of that file name, or None."""
        return next((table for table in self.tables if table.file == file), None)


class TaskIdea(Record):
    """One task the brainstorm proposes: what to predict from which table, and why it matters."""

    name: str  # a few words, becomes part of the competition's slug
    table: str
    target: str
    task_type: TaskType
    metric: str  # a harness metric name
    direction: Direction
    rationale: str


class TaskDesign(Record):
    """How one idea becomes a competition: split, grading block and the columns removed as leakage."""

    slug: str
    dataset: str
    title: str
    idea: TaskIdea
    split: SplitKind
    split_column: str | None = None  # the entity column of a group split, the time column of a time split
    test_share: float = 0.2
    id_col: str | None = None  # an existing unique column; None adds a row id
    metric: str
    direction: Direction
    cv_folds: int = 5
    drop_columns: list[str] = Field(default_factory=list)
    drop_reasons: dict[str, str] = Field(default_factory=dict)

    def grading(self, id_col: str) -> dict:
        """The grading block written to competition.yaml, passed to the harness verbatim."""
        return {"metric": self.metric, "target_col": self.idea.target, "id_col": id_col,
                "direction": self.direction, "cv_folds": self.cv_folds}


class CheckOutcome(Record):
    """One verification check: passed or not, and the figure or reason behind it."""

    check: str
    passed: bool
    detail: str = ""


class VerifiedTask(Record):
    """The verdict on one design: every check's outcome, and where its folder went."""

    slug: str
    dataset: str
    accepted: bool
    folder: str  # as the store keeps it: relative to the project root when inside it
    checks: list[CheckOutcome]
    baseline_score: float | None = None
    trivial_score: float | None = None
    input_hash: str = ""

    def reasons(self) -> list[str]:
        """The failed checks as lines."""
        return [f"{outcome.check}: {outcome.detail}" for outcome in self.checks if not outcome.passed]
