"""Records of graded runs: one run of an agent on one task in one language, and why it failed if it did."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from curation.records.base import Record

# The taxonomy of `curate results`. The names are part of the interface (--json, the CSV and Parquet tables,
# reports/results.md): rename none of them.
ERROR_CLASSES = ("success", "syntax_error", "missing_package", "runtime_error", "out_of_memory", "timeout",
                 "bad_submission", "hallucination", "leakage", "other")
ErrorClass = Literal["success", "syntax_error", "missing_package", "runtime_error", "out_of_memory", "timeout",
                     "bad_submission", "hallucination", "leakage", "other"]


class RunResult(Record):
    """One graded run as read and classified on its own (the report adds what only the other runs can tell)."""

    run: str  # the harness's run folder name, or <csv file name>:<line>
    agent: str
    competition: str  # the harness's comp-id: the competition's Kaggle slug
    language: str  # ISO code
    source: str  # the folder or CSV file it was read from
    fold: str = ""  # the harness's fold index, or "only_code"; empty for a CSV row
    success: bool | None = None  # the harness's `success`; None when no result was written
    score: float | None = None  # a finite score, or None
    cv_scores: list[float | None] = Field(default_factory=list)  # NaN folds as None
    evidence: str = ""  # what the run said about itself: the harness's errors and tracebacks (their end), a CSV error
    has_code: bool = True  # the agent wrote its submission code
    leak: str = ""  # what the code reads that the harness never gives it
    error_class: ErrorClass = "other"
    error_type: str = ""  # the exception's class behind a runtime error (KeyError, ValueError, ...)
    reason: str = ""
    classified_by: Literal["rules", "triage", "input"] = "rules"  # input: a CSV's status named the class
