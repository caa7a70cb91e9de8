"""The rules name the class of the hand-labelled runs (tests/results/labelled_runs.jsonl: harness outputs of
snippets replayed through the grading container, and tracebacks, CSV errors and agent logs written by hand) at least
95% right, in every class; the runs held out while the rules were written (labelled_runs_held_out.jsonl) too."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from curation.records import ERROR_CLASSES

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "results_taxonomy_accuracy.py"
HERE = Path(__file__).resolve().parent


def script():
    spec = importlib.util.spec_from_file_location("results_taxonomy_accuracy", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_labelled_set_is_named_right_in_every_class():
    accuracy = script()
    cases = accuracy.load_cases(HERE / "labelled_runs.jsonl")
    figures, wrong = accuracy.evaluate(cases)

    assert len(cases) >= 100 and len({case["id"] for case in cases}) == len(cases)
    assert all(figures[name]["cases"] >= 7 for name in ERROR_CLASSES), figures
    assert accuracy.accuracy(figures) >= 0.95, [(case["id"], run.error_class) for case, run in wrong]
    for name, entry in figures.items():
        assert entry["right"] / entry["cases"] >= 0.85, (name, entry)


def test_the_runs_held_out_while_the_rules_were_written():
    accuracy = script()
    figures, wrong = accuracy.evaluate(accuracy.load_cases(HERE / "labelled_runs_held_out.jsonl"))

    assert accuracy.accuracy(figures) >= 0.95, [(case["id"], run.error_class) for case, run in wrong]


@pytest.mark.parametrize("case_id", ["h-rt-inconsistent-in-train", "h-bad-rows", "t-rt-vstack", "h-bad-signature"])
def test_where_a_traceback_ends_decides_between_the_code_and_the_submission(case_id):
    """The same ValueError is the agent's runtime error in its own train, a bad submission in the grader."""
    accuracy = script()
    [case] = [case for case in accuracy.load_cases(HERE / "labelled_runs.jsonl") if case["id"] == case_id]
    assert accuracy.classify_case(case).error_class == case["label"]
