"""Outline lint: deterministic rules a solution outline must pass before the judge's pick may stand.

An outline says in words how the best notebooks solve a task; it is a plan, not code. The rules flag: code (fenced
blocks, assignments, import lines, calls written with parentheses), library calls and code-style names, file paths
and file names other than the competition's own (those its data card names), and an outline that never names the
competition's evaluation metric.

Kept clean on purpose: method names in words ("gradient-boosted trees", "LightGBM" as a named model family is
still words, not a call), numbers that belong to the method ("five folds", "a 0.5 threshold"), the data card's own
column and file names ("PassengerId", "train.csv"), and abbreviations such as "e.g.".
"""

from __future__ import annotations

import re

from curation.records import Competition, LintFinding

_FENCE = re.compile(r"```|~~~")
_IMPORT = re.compile(r"^\s*(?:[-*]\s+)?(?:import\s+[A-Za-z_][\w.]*|from\s+[A-Za-z_][\w.]*\s+import\b)", re.M)
# `name = value` or `name += value` as code writes it (prose says "equal to").
_ASSIGNMENT = re.compile(r"(?<![\w.])[A-Za-z_][\w.\[\]'\"]*\s*(?:[+\-*/]?=)(?!=)\s*[^\s,;]+")
# A call: a name with its parentheses right after it, `fit()`, `train_test_split(X, y)` or a method of an indexed
# value (`df['Name'].str.extract(p)`); prose puts a space first.
_CALL = re.compile(r"(?<!\w)[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\((?:[^()]|\([^()]*\))*\)")
# Indexing as code writes it: `df['Name']`, `X[:, 0]`.
_SUBSCRIPT = re.compile(r"(?<!\w)[A-Za-z_]\w*\[[^\]\n]*\]")
# A dotted name as code spells it (`pd.read_csv`, `sklearn.model_selection`, `df.groupby`): both parts two or more
# characters, so "e.g." and "i.e." pass; a file name with an extension is the path rule's.
_DOTTED = re.compile(r"(?<![\w.])[A-Za-z_]\w+(?:\.[A-Za-z_]\w+)+(?![\w(])")
# snake_case names (`n_estimators`, `max_depth`): code, unless the data card names them (a column such as item_cnt).
_SNAKE = re.compile(r"(?<![\w.])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w.])")
_EXTENSIONS = (r"csv|tsv|parquet|json|jsonl|zip|gz|tar|npy|npz|h5|hdf5|pkl|pickle|feather|txt|xlsx|xls|pt|pth|"
               r"bin|ckpt|onnx|joblib|jpg|jpeg|png|tif|tiff|dcm|wav|mp3|py|ipynb|yaml|yml")
_FILE = re.compile(rf"(?<![\w/.-])[\w-]+(?:\.[\w-]+)*\.(?:{_EXTENSIONS})\b", re.I)
# A path: one starting at a root, a home or a relative folder, or two folders deep, or a Windows drive.
_PATH = re.compile(r"(?<![\w/])(?:\.{1,2}/|~/|/)[\w.-]+(?:/[\w.-]*)*|(?<![\w/])[\w-]+(?:/[\w.-]+){2,}"
                   r"|\b[A-Za-z]:\\[\w\\.-]+")

WHY = {
    "code": "is code; say the step in words",
    "library_call": "is a library call or a code-style name; name the method in words",
    "file_path": "is a file path or a file the competition does not have; name the data instead",
    "metric_missing": "the outline never names the evaluation metric; say what the predictions are judged by",
}


def _own_files(competition: Competition) -> set[str]:
    """The file names the competition's data card mentions: those are its own data, fine in an outline."""
    return {match.group(0).lower() for match in _FILE.finditer(competition.data_card)}


def _own_names(competition: Competition) -> set[str]:
    """Column and field names the data card or the grading block spells out."""
    grading = competition.grading or {}
    names = {str(value) for key, value in grading.items() if key.endswith(("_col", "_column")) and value}
    names |= {match.group(0) for match in re.finditer(r"[A-Za-z_][\w]*", competition.data_card)}
    return names


def _normal(text: str) -> str:
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower()).split())


def names_metric(text: str, metric: str) -> bool:
    """Whether `text` names `metric`: its words (any case, any punctuation between them), or their initials
    ("root mean squared error" as RMSE)."""
    words = _normal(metric).split()
    if not words:
        return True  # no metric recorded: nothing to ask for
    said = f" {_normal(text)} "
    if f" {' '.join(words)} " in said:
        return True
    initials = "".join(word[0] for word in words if word not in ("of", "the", "and"))
    return len(initials) >= 2 and f" {initials} " in said


def lint_outline(text: str, competition: Competition) -> list[LintFinding]:
    """Every rule hit in an outline's text (its sections as one text), one finding per rule and distinct words."""
    findings: list[LintFinding] = []
    seen: set[tuple[str, str]] = set()
    own_files, own_names = _own_files(competition), _own_names(competition)

    def add(rule: str, words: str) -> None:
        words = " ".join(words.split())
        if (rule, words.lower()) not in seen:
            seen.add((rule, words.lower()))
            findings.append(LintFinding(rule=rule, matched=words))

    for pattern in (_FENCE, _IMPORT, _ASSIGNMENT, _CALL, _SUBSCRIPT):
        for match in pattern.finditer(text):
            add("code", match.group(0))
    for match in _DOTTED.finditer(text):
        if not _FILE.fullmatch(match.group(0)):
            add("library_call", match.group(0))
    for match in _SNAKE.finditer(text):
        if match.group(0) not in own_names:
            add("library_call", match.group(0))
    for match in _PATH.finditer(text):
        add("file_path", match.group(0))
    for match in _FILE.finditer(text):
        if match.group(0).lower() not in own_files:
            add("file_path", match.group(0))
    if not names_metric(text, competition.metric):
        add("metric_missing", competition.metric)
    return findings


def explain(findings: list[LintFinding]) -> list[str]:
    """Lines for the curator: the rule, the words and what to do about them."""
    return [f"{finding.rule} — {finding.matched!r}: {WHY.get(finding.rule, '')}".rstrip(": ") for finding in findings]
