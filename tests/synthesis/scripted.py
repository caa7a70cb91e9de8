"""Scripted answers for the synthesize prompts (brainstorm, design, task_review), served by the fake LLM server.

`TaskDesigner` reads a request as a model would: which prompt (by its system text), which dataset (the
"Dataset:" line) and, for a design or a review, which target; it answers from the tables a test fills in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tests.fakes.llm_server import Request


def role_of(request: Request) -> str:
    for prefix, role in (("You propose", "brainstorm"), ("You design", "design"), ("You review", "task_review")):
        if request.system_text.startswith(prefix):
            return role
    raise AssertionError(f"unknown prompt: {request.system_text[:60]!r}")


def idea(name: str, table: str, target: str, task_type: str, metric: str, direction: str) -> dict:
    return {"name": name, "table": table, "target": target, "task_type": task_type, "metric": metric,
            "direction": direction, "rationale": f"knowing {target} ahead of time helps plan"}


def design(title: str, split: str = "random", split_column: str | None = None, id_col: str | None = None,
           metric: str = "accuracy_score", direction: str = "maximize", leakage: dict[str, str] | None = None) -> dict:
    return {"title": title, "split": split, "split_column": split_column, "test_share": 0.2, "id_col": id_col,
            "metric": metric, "direction": direction, "cv_folds": 5,
            "leakage": [{"column": column, "reason": reason} for column, reason in (leakage or {}).items()]}


# The four datasets of tests/synthesis/datasets.py, one task each, designed as a careful model would -- except
# that the loans design misses the post-outcome column, which verification must catch.
IDEAS = {
    "houses": [idea("house price", "houses.csv", "price", "regression", "root_mean_squared_error", "minimize")],
    "patients": [idea("readmission", "patients.csv", "readmitted", "binary", "roc_auc_score", "maximize")],
    "loans": [idea("loan default", "loans.csv", "defaulted", "binary", "accuracy_score", "maximize")],
    "sales": [idea("daily units", "sales.csv", "units_sold", "regression", "mean_absolute_error", "minimize")],
}
DESIGNS = {
    "price": design("House prices in a town", id_col="house_id", metric="root_mean_squared_error", direction="minimize"),
    "readmitted": design("Hospital readmission", split="stratified", id_col="patient_id", metric="roc_auc_score"),
    "defaulted": design("Loan defaults", id_col="loan_id"),
    "units_sold": design("Daily store sales", split="time", split_column="date", metric="mean_absolute_error",
                         direction="minimize"),
}


@dataclass
class TaskDesigner:
    ideas: dict[str, list[dict]] = field(default_factory=lambda: dict(IDEAS))  # dataset -> proposals
    designs: dict[str, list[dict]] = field(default_factory=lambda: {k: [v] for k, v in DESIGNS.items()})  # target -> answers in order
    unsound: dict[str, list[str]] = field(default_factory=dict)  # target -> problems the reviewer names
    asked: list[tuple[str, str]] = field(default_factory=list)  # (role, dataset or target)

    def __call__(self, request: Request):
        role = role_of(request)
        text = request.user_text
        dataset = re.search(r"^Dataset: (.*)$", text, re.M).group(1)
        if role == "brainstorm":
            self.asked.append((role, dataset))
            return {"tasks": self.ideas.get(dataset, [])}
        target = re.search(r"[Pp]redict (\S+) \(", text).group(1)
        earlier = sum(1 for role_, key in self.asked if role_ == role and key == target)
        self.asked.append((role, target))
        if role == "design":
            answers = self.designs[target]
            return answers[min(earlier, len(answers) - 1)]
        problems = self.unsound.get(target, [])
        return {"sound": not problems, "problems": problems}

    def count(self, role: str | None = None) -> int:
        return sum(1 for role_, _ in self.asked if role is None or role_ == role)
