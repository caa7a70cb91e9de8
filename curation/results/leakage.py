"""Leakage: submission code that reaches for what the grader holds back.

The harness hands the code its data through the arguments of train / prepare_val / predict (python/code_grader.py)
and never a path; the held-out labels live under the grader's own folders (/home/bench/competitions/validation,
.../folds, python/code_grader.py's `val_labels`). Code that names those places, reads label files of a held-out
split, walks the file system for them, or climbs the call stack into the grader's variables, leaks. Reading the
agent's own data folder (/home/data) is not leakage: that folder is gone at grading time, and the run fails for it.
"""

from __future__ import annotations

import re

# (words one of which the code must hold, expression, what it means): the words are looked for first, since most
# code holds none of them and a word is found many times faster than the expression.
_SIGNS = [
    (("/home/bench",), re.compile(r"/home/bench\b[^'\"\n]*"), "names the grader's folder"),
    (("competitions",), re.compile(r"competitions[/\\](?:validation|folds)\b[^'\"\n]*"),
     "reads the grader's held-out split"),
    (("solution", "truth", "gold_labels", "_label", "y_test", "y_val", "private_", "answer"),
     re.compile(r"['\"][^'\"\n]*\b(?:solution|ground_?truth|gold_labels|test_labels?|val(?:idation)?_labels?|"
                r"y_(?:test|val|valid)|private_(?:test|labels?)|answers?)\.(?:csv|npy|npz|parquet|json|pkl|txt|feather)"
                r"['\"]", re.I), "reads a held-out label file"),
    (("_getframe", "inspect.", "f_back", "f_locals"),
     re.compile(r"\bsys\._getframe\s*\(|\binspect\.(?:stack|currentframe|getouterframes)\s*\(|\.f_back\b|"
                r"\bf_locals\b"), "climbs the call stack into the grader's variables"),
    (("get_objects",), re.compile(r"\bgc\.get_objects\s*\("),
     "searches the interpreter's objects for the grader's data"),
    (("grade_functions", "code_grader", "competitions.json"),
     re.compile(r"\b(?:grade_functions|code_grader)\b|competitions\.json"), "reads the grader's code or configuration"),
    (("walk", "glob"), re.compile(r"\bos\.walk\s*\(\s*['\"]/['\"]|\bglob(?:\.glob)?\s*\(\s*['\"]/(?:\*\*|home/\*)|"
                                 r"\bPath\s*\(\s*['\"]/['\"]\s*\)\s*\.\s*r?glob"),
     "searches the whole file system for files"),
]


def leak_in(code: str | None, extra: list[re.Pattern] | tuple = ()) -> str:
    """What the code reads that it was never given, as a short phrase with the code's words; '' when nothing."""
    if not code:
        return ""
    lower = code.lower()
    signs = [(pattern, what) for needed, pattern, what in _SIGNS if any(word in lower for word in needed)]
    for pattern, what in [*signs, *((pattern, "matches [results] held_out_paths") for pattern in extra)]:
        match = pattern.search(code)
        if match:
            quoted = " ".join(match.group(0).split())
            quoted = quoted if len(quoted) <= 70 else quoted[:69] + "…"
            line = code.count("\n", 0, match.start()) + 1
            return f"{what}: {quoted!r} (line {line})"
    return ""
