"""Scripted answers for the describe, tag, outline and outline_judge prompts, served through the fake LLM server.

`TaskWriter` reads a request the way a model would: which prompt it is (by its system text), which competition
(the "Competition:" line) and which description is being graded or refined (the text between <<< and >>>),
and answers from the tables a test fills in. An outline is written from the request's metric and notebook count (each
candidate a little different); the judge gives every candidate full marks and names the first, unless a test says
otherwise in `judged`.
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
                         ("You assign", "tag"), ("You turn the code", "outline"),
                         ("You review solution outlines", "outline_judge")):
        if system.startswith(prefix):
            return role
    raise AssertionError(f"unknown prompt: {system[:60]!r}")


def outline_answer(metric: str, candidate: int = 1, notebooks: int = 1) -> dict:
    """An outline answer in words, naming `metric`; `candidate` changes one sentence, so candidates differ."""
    return {
        "data_preparation": ["Read the training and test tables and join them on their identifier.",
                             "Fill missing numbers with the median of their column."],
        "features": ["Turn each categorical column into integer codes and keep the numeric columns as they are."],
        "model": ["Train gradient-boosted decision trees on the prepared table."
                  if candidate == 1 else f"Train gradient-boosted decision trees with {candidate + 2} levels at most."],
        "training_and_validation": ["Check the model with five-fold cross-validation and stop adding trees once the "
                                    "validation score stops improving."],
        "inference_and_submission": [f"Average the fold models' predictions for every test example and judge them by "
                                     f"{metric}."],
        "sources": list(range(1, notebooks + 1)),
    }


def judge_answer(outlines: int, best: int = 1, scores: dict[int, dict[str, int]] | None = None) -> dict:
    """A judge answer: every outline scored on the four criteria (2 each unless `scores` says otherwise)."""
    from curation.records import JUDGE_CRITERIA

    scores = scores or {}
    return {"outlines": [{"outline": number, "criteria": [
        {"criterion": criterion, "score": scores.get(number, {}).get(criterion, 2), "reason": f"{criterion} judged"}
        for criterion in JUDGE_CRITERIA]} for number in range(1, outlines + 1)],
        "best": best, "reason": f"outline {best} is the clearest plan"}


def quoted(text: str) -> str:
    return text.split("<<<\n", 1)[1].split("\n>>>", 1)[0]


@dataclass
class TaskWriter:
    first: dict[str, str] = field(default_factory=dict)  # competition name -> generated description
    grades: dict[str, str] = field(default_factory=dict)  # description -> grade (default C)
    refined: dict[str, str] = field(default_factory=dict)  # description -> its refinement
    domains: dict[str, list[str]] = field(default_factory=dict)  # competition name -> answers in order (last repeats)
    outlines: dict[str, dict[int, dict]] = field(default_factory=dict)  # competition name -> candidate -> answer
    judged: dict[str, dict] = field(default_factory=dict)  # competition name -> the judge's answer
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
        if role == "outline":
            found = re.search(r"This is attempt (\d+) of", request.user_text)
            candidate = int(found.group(1)) if found else 1
            if candidate in self.outlines.get(name, {}):
                return self.outlines[name][candidate]
            metric = re.search(r"^Evaluation metric: (.*)$", request.user_text, re.M).group(1)
            return outline_answer(metric, candidate, len(re.findall(r"^--- notebook \d+", request.user_text, re.M)))
        if role == "outline_judge":
            return self.judged.get(name) or judge_answer(len(re.findall(r"^=== outline \d+ ===$", request.user_text,
                                                                        re.M)))
        answers = self.domains.get(name, ["data science"])
        earlier = sum(1 for role_, name_ in self.asked if role_ == "tag" and name_ == name) - 1
        return {"reason": "because", "domain": answers[min(earlier, len(answers) - 1)]}

    def count(self, role: str, name: str | None = None) -> int:
        return sum(1 for role_, name_ in self.asked if role_ == role and (name is None or name_ == name))
