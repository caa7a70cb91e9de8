"""`curate synthesize` on the datasets that ship with scikit-learn (no download), against the fake LLM server.

    python scripts/bench_synthesize.py [--latency 0.0]

Per dataset a scripted model proposes the task the data was collected for and one weaker task (predicting a
feature from the others); designs use a random or stratified split and the metric a careful designer would
pick. Prints tasks proposed, tasks that passed verification (with the reasons for the others), the LLM cost
per task -- the fake server counts tokens as characters / 4 and prices them with curate.toml's [prices], so
this is the prompts' cost with short scripted answers, a floor for a real model's -- and the wall time per task
(profile, LLM steps, refactor, checks and the baseline run). `--latency` adds seconds to every LLM answer.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import pandas as pd  # noqa: E402
from sklearn import datasets  # noqa: E402

from curation.config import load_settings  # noqa: E402
from curation.llm import LLM  # noqa: E402
from curation.store import Store  # noqa: E402
from curation.synthesis.run import synthesize  # noqa: E402
from tests.fakes.llm_server import FakeLLMServer, pointed_at  # noqa: E402

# dataset -> (loader, target column name, task type, metric, the weaker task's target)
DATASETS = {
    "iris": (datasets.load_iris, "species", "multiclass", "accuracy_score", "petal length (cm)"),
    "wine": (datasets.load_wine, "cultivar", "multiclass", "f1_score_avg_macro", "alcohol"),
    "breast-cancer": (datasets.load_breast_cancer, "malignant", "binary", "roc_auc_score", "mean radius"),
    "diabetes": (datasets.load_diabetes, "progression", "regression", "root_mean_squared_error", "bmi"),
    "digits": (datasets.load_digits, "digit", "multiclass", "accuracy_score", "pixel_4_4"),
}
DIRECTION = {"accuracy_score": "maximize", "f1_score_avg_macro": "maximize", "roc_auc_score": "maximize",
             "root_mean_squared_error": "minimize", "r2_score": "maximize"}


def write_datasets(root: Path) -> list[Path]:
    folders = []
    for name, (loader, target, *_rest) in DATASETS.items():
        bunch = loader(as_frame=True)
        frame = bunch.frame.rename(columns={"target": target})
        if name == "breast-cancer":  # scikit-learn codes benign as 1; the task predicts malignancy
            frame[target] = 1 - frame[target]
        folder = root / name
        folder.mkdir(parents=True)
        frame.to_csv(folder / f"{name}.csv", index=False)
        (folder / "README.md").write_text(f"{bunch.DESCR[:3000]}\n\nLicense: BSD-3-Clause (scikit-learn)\n"
                                          "Source: scikit-learn's bundled datasets\n", encoding="utf-8")
        folders.append(folder)
    return folders


def responder(request):
    """A scripted model: the dataset's own task and a weaker one; random/stratified designs; every task sound."""
    text, system = request.user_text, request.system_text
    dataset = re.search(r"^Dataset: (.*)$", text, re.M).group(1)
    _, target, task_type, metric, weak = DATASETS[dataset]
    if system.startswith("You propose"):
        own = {"name": f"predict {target}", "table": f"{dataset}.csv", "target": target, "task_type": task_type,
               "metric": metric, "direction": DIRECTION[metric], "rationale": "the question the data was collected for"}
        other = {"name": f"estimate {weak}"[:40], "table": f"{dataset}.csv", "target": weak, "task_type": "regression",
                 "metric": "r2_score", "direction": "maximize", "rationale": "a measurement that is costly to take"}
        return {"tasks": [own, other]}
    if system.startswith("You design"):
        predicted = re.search(r"^Task: .*?: predict (.+?) \((binary|multiclass|regression)\)", text, re.M)
        kind = predicted.group(2)
        chosen = metric if predicted.group(1) == target else "r2_score"
        return {"title": f"{dataset}: {predicted.group(1)}", "split": "random" if kind == "regression" else "stratified",
                "split_column": None, "test_share": 0.25, "id_col": None, "metric": chosen,
                "direction": DIRECTION[chosen], "cv_folds": 5, "leakage": []}
    return {"sound": True, "problems": []}


async def main(latency: float) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-synthesize-") as work, FakeLLMServer(latency=latency) as server:
        root = Path(work)
        folders = write_datasets(root / "raw")
        server.respond_with(responder)
        base = load_settings(REPO / "curate.toml")
        settings = pointed_at(base.model_copy(update={"paths": base.paths.model_copy(update={
            "store": root / "store.sqlite", "competitions": root / "out", "prompts": REPO / "prompts"})}), server)
        started = time.perf_counter()
        with Store(settings.path("store")) as store:
            async with LLM(settings, store, stage="synthesize") as llm:
                report = await synthesize(folders, root / "out", settings, store, llm, tasks=2)
                spent = llm.spent_usd
        wall = time.perf_counter() - started
    proposed = sum(len(ideas.ideas) for ideas in report.ideas.values())
    passed = sum(verdict.accepted for verdict in report.verdicts)
    for problem in report.problems:
        print(f"note: {problem.line()}")
    for summary in report.summaries:
        print("\n".join(summary.lines()))
    for line in report.lines():
        print(line)
    print(f"datasets: {len(folders)}; tasks proposed: {proposed}; passed verification: {passed} "
          f"({passed / proposed:.0%}); LLM calls: {server.count()}")
    print(f"LLM cost: ${spent:.4f} in all, ${spent / proposed:.4f} per proposed task, ${spent / max(passed, 1):.4f} "
          f"per verified task (MLE-Smith: $0.78 per task)")
    print(f"wall time: {wall:.1f} s in all, {wall / proposed:.1f} s per proposed task, {wall / max(passed, 1):.1f} s "
          f"per verified task (MLE-Smith: 420 s per task); LLM latency {latency:g} s per answer")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.0, help="seconds the fake server waits before each answer")
    asyncio.run(main(parser.parse_args().latency))
