"""Split a table into the rows a competition trains on and the rows it is graded on, the way a design says."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.model_selection import GroupShuffleSplit, train_test_split

from curation.synthesis.records import TaskDesign

SEED = 42


class SplitError(Exception):
    """The design's split cannot be made on this table; the message says why."""


def time_values(column: pd.Series) -> pd.Series:
    """A time column as sortable values: numbers stay numbers, anything else is parsed as a date."""
    if pd.api.types.is_numeric_dtype(column) or pd.api.types.is_datetime64_any_dtype(column):
        return column
    parsed = pd.to_datetime(column, errors="coerce", format="mixed")
    if parsed.notna().mean() < 0.9:
        raise SplitError(f"column {column.name!r} does not read as dates or numbers")
    return parsed


def split_rows(frame: pd.DataFrame, design: TaskDesign) -> tuple[np.ndarray, np.ndarray]:
    """Positions of the training rows and the test rows."""
    positions = np.arange(len(frame))
    share = design.test_share
    if design.split in ("group", "time"):
        if not design.split_column or design.split_column not in frame.columns:
            raise SplitError(f"a {design.split} split needs a column; {design.split_column!r} is not in the table")
    if design.split == "random":
        return train_test_split(positions, test_size=share, random_state=SEED, shuffle=True)
    if design.split == "stratified":
        target = frame[design.idea.target].astype(str)
        if target.value_counts().min() < 2:
            raise SplitError(f"a class of {design.idea.target!r} has a single row; it cannot be stratified")
        return train_test_split(positions, test_size=share, random_state=SEED, stratify=target)
    if design.split == "group":
        groups = frame[design.split_column].astype(str)
        train, test = next(GroupShuffleSplit(n_splits=1, test_size=share, random_state=SEED).split(positions, groups=groups))
        return train, test
    times = time_values(frame[design.split_column])
    ordered = times.dropna().sort_values()
    if ordered.empty:
        raise SplitError(f"column {design.split_column!r} holds no times")
    cut = ordered.iloc[min(len(ordered) - 1, int(len(ordered) * (1 - share)))]
    # Every row at or after the cut is graded, so no training row is as late as a graded one.
    test = positions[(times >= cut).to_numpy()]
    train = positions[(times < cut).to_numpy()]
    return train, test
