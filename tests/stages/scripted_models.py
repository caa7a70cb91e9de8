"""Scripted answers for the describe and tag prompts, served through the fake LLM server.

`TaskWriter` reads a request the way a model would: which prompt it is (by its system text), which competition
(the "Competition:" line) and which description is being graded or refined (the text between <<< and >>>),
and answers from the tables a test fills in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from curation.records import CRITERIA
from tests.fakes.llm_server import Request, bad_request


def grade_report(grade: str, unmet: tuple[str, ...] = ()) -> dict:
    """A score answer: every criterion judged, the unmet ones with a reason quoting the problem."""
    return {"criteria": [{"criterion": c, "met": c not in unmet, "reason": f"{c} {'not met' if c in unmet else 'met'}"}
                         for c in CRITERIA], "grade": grade}


def role_of(request: Request) -> str:
    system = request.system_text
    for prefix, role in (("You write", "describe"), ("You grade", "score"), ("You improve", "refine"),
                         ("You assign", "tag")):
        if system.startswith(prefix):
            return role
    raise AssertionError(f"unknown prompt: {system[:60]!r}")


def quoted(text: str) -> str:
    return text.split("<<<\n", 1)[1].split("\n>>>", 1)[0]


@dataclass
class TaskWriter:
    first: dict[str, str] = field(default_factory=dict)  # competition name -> generated description
    grades: dict[str, str] = field(default_factory=dict)  # description -> grade (default C)
    refined: dict[str, str] = field(default_factory=dict)  # description -> its refinement
    domains: dict[str, list[str]] = field(default_factory=dict)  # competition name -> answers in order (last repeats)
    broken: set[str] = field(default_factory=set)  # competition names whose every request is refused (HTTP 400)
    asked: list[tuple[str, str]] = field(default_factory=list)  # (role, competition name) per request

    def __call__(self, request: Request):
        role = role_of(request)
        name = re.search(r"^Competition: (.*)$", request.user_text, re.M).group(1)
        self.asked.append((role, name))
        if name in self.broken:
            return bad_request("this request is malformed")
        if role == "describe":
            return {"analysis": {"problem": "p", "input_data": "i", "expected_output": "o"},
                    "structure": {"objective": "o", "input_data": "i", "desired_output": "d"},
                    "description": self.first.get(name, f"For each example of {name}, predict its target value.")}
        if role == "score":
            text = quoted(request.user_text)
            grade = self.grades.get(text, "C")
            return grade_report(grade, unmet=("no_solution_hints",) if grade in "AB" else ())
        if role == "refine":
            return {"changes": ["removed the hint"], "description": self.refined[quoted(request.user_text)]}
        answers = self.domains.get(name, ["data science"])
        earlier = sum(1 for role_, name_ in self.asked if role_ == "tag" and name_ == name) - 1
        return {"reason": "because", "domain": answers[min(earlier, len(answers) - 1)]}

    def count(self, role: str, name: str | None = None) -> int:
        return sum(1 for role_, name_ in self.asked if role_ == role and (name is None or name_ == name))
