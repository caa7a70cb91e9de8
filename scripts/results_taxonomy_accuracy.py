"""How often `curate results` names a failed run's class right, on a hand-labelled set of runs.

    python scripts/results_taxonomy_accuracy.py                  # tests/results/labelled_runs.jsonl
    python scripts/results_taxonomy_accuracy.py --show-wrong     # and every case it gets wrong

Each line of the set is one run as the grading harness (or a CSV from elsewhere, or an agent's logs) tells of it:
`success`, `score`, `errors`, `tracebacks`, optionally the submission's `code`, the competition's `metric`,
`direction` and `baseline`, `peers` (other runs' scores on the competition, for the cross-run check),
`results_written`, `has_code`, `logs`; and the class a person gave it (`label`). The script classifies each with the
same rules as `curate results` (rules, then the cross-run check) and prints, per class, how many cases there are,
how many were named right (recall) and how many named so were right (precision), and the overall accuracy. No
model is asked: the `triage` role is not part of these figures.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from curation.records import ERROR_CLASSES, RunResult  # noqa: E402
from curation.results.plausibility import implausible  # noqa: E402
from curation.results.read_run import ReadRun, evidence_text  # noqa: E402
from curation.results.release_info import TaskInfo  # noqa: E402
from curation.results.rules import classify  # noqa: E402

SET = ROOT / "tests" / "results" / "labelled_runs.jsonl"
FENCE = 3.0  # [results] implausible_fence's default


def load_cases(path: Path = SET) -> list[dict]:
    """The labelled runs, one dict per line."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def classify_case(case: dict) -> RunResult:
    """The class `curate results` gives the case's run (the rules, then the check against its peers)."""
    task = TaskInfo(case["id"], metric=case.get("metric", "roc_auc_score"),
                    direction=case.get("direction", "maximize"), baseline=case.get("baseline"))
    result = RunResult(run=case["id"], agent="labelled", competition=case["id"], language="en", source=str(SET),
                       success=case["success"], score=case.get("score"), has_code=case.get("has_code", True),
                       evidence=evidence_text(case.get("errors", []), case.get("tracebacks", [])))
    logs = case.get("logs", "")
    run = classify(ReadRun(result=result, digest="", code=case.get("code"),
                           results_written=case.get("results_written", True), logs=lambda: logs), task)
    if case.get("peers") and run.error_class == "success":
        peers = [RunResult(run=f"peer-{number}", agent="peer", competition=case["id"], language="en", source="",
                           score=score, error_class="success") for number, score in enumerate(case["peers"])]
        flagged = implausible([run, *peers], {case["id"]: task}, FENCE)
        if 0 in flagged:
            run.error_class, run.reason = "hallucination", flagged[0]
    return run


def evaluate(cases: list[dict]) -> tuple[dict[str, dict[str, int]], list[tuple[dict, RunResult]]]:
    """Per class: cases, named right, named so; and the cases named wrong with what they were named."""
    figures = {name: {"cases": 0, "right": 0, "named": 0} for name in ERROR_CLASSES}
    wrong = []
    for case in cases:
        run = classify_case(case)
        figures[case["label"]]["cases"] += 1
        figures[run.error_class]["named"] += 1
        if run.error_class == case["label"]:
            figures[case["label"]]["right"] += 1
        else:
            wrong.append((case, run))
    return figures, wrong


def accuracy(figures: dict[str, dict[str, int]]) -> float:
    """Share of all cases named right."""
    total = sum(entry["cases"] for entry in figures.values())
    return sum(entry["right"] for entry in figures.values()) / total if total else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", nargs="?", type=Path, default=SET)
    parser.add_argument("--show-wrong", action="store_true", help="print every case named wrong")
    arguments = parser.parse_args()
    cases = load_cases(arguments.path)
    figures, wrong = evaluate(cases)
    sources = Counter("replayed harness" if case["id"].startswith("h-") else "written" for case in cases)
    print(f"{len(cases)} labelled runs ({', '.join(f'{count} {kind}' for kind, count in sources.items())}) "
          f"from {arguments.path.relative_to(ROOT) if arguments.path.is_relative_to(ROOT) else arguments.path}")
    print(f"{'class':<16} {'cases':>5} {'right':>5} {'recall':>7} {'precision':>9}")
    for name, entry in figures.items():
        recall = f"{entry['right'] / entry['cases']:.0%}" if entry["cases"] else "–"
        precision = f"{entry['right'] / entry['named']:.0%}" if entry["named"] else "–"
        print(f"{name:<16} {entry['cases']:>5} {entry['right']:>5} {recall:>7} {precision:>9}")
    total = sum(entry["cases"] for entry in figures.values())
    print(f"{'all':<16} {total:>5} {total - len(wrong):>5} {accuracy(figures):>7.1%}")
    if arguments.show_wrong or wrong:
        for case, run in wrong:
            print(f"  wrong: {case['id']}: labelled {case['label']}, named {run.error_class} ({run.reason})")


if __name__ == "__main__":
    main()
