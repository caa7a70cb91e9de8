"""Wall time and peak memory of `curate results` on 10,000 graded runs (goals: under 10 s and under 500 MB).

Writes a throwaway project with a release folder (competitions.json, tasks/<Language>.csv for the 13 languages,
manifest.json) and 10,000 run folders in the grading harness's format: 2 agents x 13 languages x 129 competitions x
3 folds, cut at 10,000; each with the agent's log, submission/submission.py and code_results.json. About 60% succeed,
fewer and with lower scores the further a language is made from English (HARDER below, made up so that the report has
gaps to show), scores also varying by competition and fold; the rest fail in every way the taxonomy names, with the
messages and tracebacks the replayed grading container (tests/results/container.py) writes for such code, each with
its own line numbers. Then it runs
`curate results` in a child process three times: the first read (every run stored), a rerun over the same folders
(nothing added), and `--json`, and prints each one's wall time and the child's peak resident memory.

    python scripts/bench_results.py               # 10,000 runs
    python scripts/bench_results.py --runs 2000   # fewer
    python scripts/bench_results.py --keep DIR    # keep the project in DIR to look at reports/results.md
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.results.harness_runs import (HARNESS_NAMES, SCENARIOS, THIRTEEN, graded, results_for,  # noqa: E402
                                        write_release)

FAILURES = ["syntax_error", "missing_package", "runtime_error", "out_of_memory", "timeout", "bad_submission_rows",
            "bad_submission_function", "bad_submission_no_code", "leakage", "other", "hallucination"]
AGENTS = ("aide", "react")
FOLDS = 3
COMPETITIONS = 129
# How much harder a task is to solve from its text in a language than from English (a lower chance to succeed, a
# lower score): made up, so that the report has gaps to show.
HARDER = {"en": 0.0, "fr": 0.01, "es": 0.01, "it": 0.02, "ru": 0.03, "pl": 0.03, "ro": 0.03, "tr": 0.04, "zh": 0.05,
          "ja": 0.05, "ar": 0.06, "be": 0.07, "kk": 0.08}
# A child's peak: ru_maxrss of the waited-for children, in KiB on Linux.
CHILD = [sys.executable, "-c", "import sys; sys.argv[0] = 'curate'; from curation.cli import main; main()"]


def build(project: Path, runs: int) -> dict[str, int]:
    """The project, its release and `runs` run folders; returns how many runs of each scenario were written."""
    shutil.copy(ROOT / "curate.toml", project / "curate.toml")
    shutil.copytree(ROOT / "prompts", project / "prompts")
    slugs = [f"competition-{number:03d}-of-the-benchmark" for number in range(COMPETITIONS)]
    write_release(project / "release", {slug: {"metric": "roc_auc_score", "direction": "maximize",
                                               "baseline_score": 0.6,
                                               "domain": ("finance", "sports", "medicine")[number % 3],
                                               "data_type": ("tabular", "text", "image")[number % 3]}
                                        for number, slug in enumerate(slugs)}, THIRTEEN)
    generator = random.Random(0)
    difficulty = {slug: generator.uniform(0.0, 0.2) for slug in slugs}
    templates = {name: graded(name) for name in SCENARIOS if results_for(name, "x", "English") is not None
                 and name not in ("other", "hallucination")}
    written: dict[str, int] = {}
    count = 0
    for agent in AGENTS:
        for language in THIRTEEN:
            for slug in slugs:
                for fold in range(FOLDS):
                    if count == runs:
                        return written
                    harder = HARDER[language] + (0.03 if agent == "react" else 0.0)
                    scenario = "success" if generator.random() < 0.66 - harder else generator.choice(FAILURES)
                    _write(project / "logs" / agent / f"{slug}-{HARNESS_NAMES[language]}-python-{fold}", scenario,
                           slug, HARNESS_NAMES[language], templates, generator, harder + difficulty[slug])
                    written[scenario] = written.get(scenario, 0) + 1
                    count += 1
    return written


def _write(folder: Path, scenario: str, slug: str, language: str, templates: dict, generator: random.Random,
           harder: float) -> None:
    (folder / "logs").mkdir(parents=True)
    (folder / "logs" / "agent.log").write_text("step 1: draft\nstep 2: improve\n" + (
        "TimeoutError: agent run exceeded its time limit of 3600 s\n" if scenario == "timeout" else ""),
                                                encoding="utf-8")
    (folder / "submission").mkdir()
    code = SCENARIOS[scenario][0]
    if code is not None:
        (folder / "submission" / "submission.py").write_text(code, encoding="utf-8")
    if scenario in ("timeout", "bad_submission_no_code"):
        return
    if scenario in ("other", "hallucination"):
        results = results_for(scenario, slug, language)
    else:
        results = dict(templates[scenario], grader_competition=slug, grader_language=language)
        if scenario == "success":
            score = round(0.88 - harder - 0.12 * generator.random(), 4)
            results.update(score=score, cv_scores=[score])
        else:  # every failure's own line numbers, as every agent's code has its own: no two texts alike
            for key in ("errors", "tracebacks"):
                results[key] = [re.sub(r"line (\d+)", lambda _: f"line {generator.randint(5, 900)}", text)
                                for text in results[key]]
    with open(folder / "code_results.json", "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=2)


def measure(project: Path, *args: str) -> tuple[float, float, str]:
    """(wall seconds, peak resident MB of the child, its stdout) of one `curate` run in the project."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run([*CHILD, *args], cwd=project, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"})
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if done.returncode != 0:
        raise SystemExit(f"curate {' '.join(args)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    # ru_maxrss of the children is their largest: the runs here grow, so a later one that is not larger keeps it.
    return wall, max(peak, before) / 1024, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, help="build the project in this (new) folder and keep it")
    arguments = parser.parse_args()
    scratch = None if arguments.keep else tempfile.TemporaryDirectory(prefix="bench-results-")
    project = arguments.keep or Path(scratch.name)
    project.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    written = build(project, arguments.runs)
    print(f"{sum(written.values())} run folders written in {time.perf_counter() - start:.1f} s: "
          + ", ".join(f"{name} {count}" for name, count in sorted(written.items(), key=lambda item: -item[1])))
    for label, args in (("first read", ()), ("rerun, nothing new", ()), ("--json", ("--json",))):
        wall, peak, output = measure(project, "results", "logs", "--from", "release", *args)
        print(f"{label:<20} {wall:6.2f} s   peak {peak:6.0f} MB")
        if label != "--json":
            print("    " + "\n    ".join(output.strip().splitlines()))
    if scratch is not None:
        scratch.cleanup()


if __name__ == "__main__":
    main()
