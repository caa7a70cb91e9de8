"""The taxonomy of failed runs, and the rules that read a failure's class from what the run said (the harness's
errors and tracebacks, a CSV's error, the agent's logs).

Several signs in one text: the earliest stage that broke names the run (the code would not parse, then an import
failed, then memory or time ran out, then the submission did not fit the grader, then the code raised). A traceback
is placed by its deepest frame outside libraries: the submission's own code (a runtime error), or the grader
(grade_functions.py / code_grader.py: the submission handed it something it could not grade).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from curation.results import failure_words as words

# One line per class: what it means. The report, the docs and the triage prompt say the same.
TAXONOMY = {
    "success": "graded, with a plausible score",
    "syntax_error": "the code does not parse (SyntaxError, IndentationError)",
    "missing_package": "an import failed: a package not installed, or a name a package does not have",
    "runtime_error": "the code raised while training or predicting (by the exception's class: ValueError, KeyError, "
                     "TypeError, IndexError, ...)",
    "out_of_memory": "memory ran out (MemoryError, CUDA out of memory, killed by the kernel)",
    "timeout": "stopped at a time limit, or stuck",
    "bad_submission": "no code, a required function missing, or predictions the grader cannot use (wrong columns, "
                      "row count, shape or type)",
    "hallucination": "a score that cannot be right: reported by a run whose code failed, outside the metric's range, "
                     "or beyond every other run by an implausible margin",
    "leakage": "the code reads held-out labels or paths it was never given",
    "other": "failed, and nothing says why",
}


@dataclass(frozen=True)
class Verdict:
    """A class for a run, why, and for a runtime error the exception's class."""

    error_class: str
    reason: str
    error_type: str = ""


def exceptions(text: str) -> list[tuple[str, str]]:
    """(exception class, message) of every exception the text names, in order: a traceback's last lines first, then
    the `e=Name(...)` reprs of the harness's messages for classes no such line names; its wrappers left out."""
    found = [(match["name"], (match["message"] or "").strip()) for match in words.EXCEPTION.finditer(text)]
    named = {name for name, _ in found}
    found += [(match["name"], match["message"].rstrip(")").strip()) for match in words.REPR.finditer(text)
              if match["name"] not in named]
    return [(name, message) for name, message in found if name not in words.WRAPPERS
            and not (name == "ImportError" and words.LOADER_WRAPPER.match(message)
                     and not words.NO_MODULE.search(message, message.lower()))]


def _where(text: str) -> tuple[str, str]:
    """('code' | 'grader' | '', ' (in f, line n of the submission)') from the deepest frame outside libraries."""
    for match in reversed(list(words.FRAME.finditer(text))):
        file, line, function = match["file"], match["line"], match["function"] or "<module>"
        if words.LIBRARY.search(file):
            continue
        normal = file.replace("\\", "/")
        if normal.endswith(words.GRADER_FILES):
            return "grader", f" (in the grader's {function}: the predictions do not fit it)"
        if normal.endswith(words.HARNESS_FILES) and "/python/" in normal:
            return "grader", f" (in the harness's {function}: the submission's functions do not fit its calls)"
        if normal.endswith(words.CODE_FILES) or "/submission/" in normal:
            return "code", f" (in {function}, line {line} of the submission)"
        return "code", f" (in {function}, line {line} of {normal.rsplit('/', 1)[-1]})"
    return "", ""


def _code_line(text: str) -> str:
    """' (line n of the submission)' from the last frame in the submission's code, or ''."""
    lines = [match["line"] for match in words.FRAME.finditer(text)
             if match["file"].replace("\\", "/").endswith(words.CODE_FILES)]
    return f" (line {lines[-1]} of the submission)" if lines else ""


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _said(name: str, message: str) -> str:
    return _short(f"{name}: {message}" if message else name)


def _line_of(text: str, at: int) -> str:
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return text[start:end if end >= 0 else len(text)].strip()


def _missing(match: re.Match) -> str:
    """What an import failure says is missing: a module, a name from one, a package, an operator or a symbol."""
    if match["name"]:
        return f"{match['name']} from {match['source'] or '?'}"
    if match["operator"]:
        return f"operator {match['operator']}"
    if match["symbol"]:
        return f"symbol {match['symbol']}"
    return next((match[group] for group in ("module", "lib", "req", "dist", "version", "pip") if match[group]), "")


@lru_cache(maxsize=4096)  # runs that ended alike (the same package missing, the same grader message) are read once
def failure_class(text: str) -> Verdict | None:
    """The class of a failed run from its errors and tracebacks (or a CSV's error), or None when they say nothing
    a rule knows."""
    if not text.strip():
        return None
    lower = text.lower()
    if match := words.HARNESS_FAILURE.search(text, lower):
        return Verdict("other", f"the harness failed, not the agent: {_short(_line_of(text, match.start()))}")
    named = exceptions(text)
    last = named[-1] if named else None

    def first(kinds: set[str]) -> tuple[str, str] | None:
        return next(((name, message) for name, message in named if name in kinds), None)

    if found := first(words.SYNTAX):
        return Verdict("syntax_error", _said(*found) + _code_line(text))
    if match := words.SYNTAX_TEXT.search(text, lower):
        return Verdict("syntax_error", _short(f"SyntaxError: {match.group(0)}") + _code_line(text))
    found, match = first(words.IMPORT), words.NO_MODULE.search(text, lower)
    if found or match:
        said = _said(*found) if found else _short(match.group(0))
        module = _missing(match) if match else ""
        return Verdict("missing_package", f"missing {module}: {said}" if module else said)
    if found := next(((name, message) for name, message in named
                      if name in words.MEMORY or name.endswith("MemoryError")), None):  # ArrowMemoryError, ...
        return Verdict("out_of_memory", _said(*found))
    if match := words.MEMORY_TEXT.search(text, lower):
        return Verdict("out_of_memory", _short(match.group(0).strip()))
    found, match = first(words.NETWORK), words.NETWORK_TEXT.search(text, lower)
    if found or match:
        said = _said(*found) if found else _short(match.group(0))
        return Verdict("runtime_error", f"network: {said} (the grading container has no open internet)",
                       found[0] if found else "ConnectionError")
    if found := first(words.TIMEOUT):
        return Verdict("timeout", _said(*found))
    if match := words.TIMEOUT_TEXT.search(text, lower):
        return Verdict("timeout", _short(_line_of(text, match.start())))
    place, where = _where(text)
    if match := words.HARNESS_SUBMISSION.search(text, lower):
        return Verdict("bad_submission", _short(_line_of(text, match.start())))
    if place != "code" and (match := words.SUBMISSION_TEXT.search(text, lower)):
        return Verdict("bad_submission", _short(_line_of(text, match.start())))
    if last is not None and place == "grader":
        return Verdict("bad_submission", f"{_said(*last)}{where}")
    if last is None and place == "code" and words.EXIT.search(text):
        return Verdict("bad_submission", f"the submission exits when it is loaded{where}")
    if last is not None:
        return Verdict("runtime_error", f"{_said(*last)}{where}", last[0])
    return None


def log_verdict(text: str) -> Verdict | None:
    """A timeout or out-of-memory kill the agent's logs tell of, for a run the grading never answered. Only these:
    an agent's logs hold every error it met and fixed on the way, which say nothing about its final code."""
    if not text.strip():
        return None
    lower = text.lower()
    named = {name for name, _ in exceptions(text)}
    for error_class, kinds, phrases in (("timeout", words.TIMEOUT, words.TIMEOUT_TEXT),
                                        ("out_of_memory", words.MEMORY, words.MEMORY_TEXT)):
        match = phrases.search(text, lower)
        if match or named & kinds:
            said = _line_of(text, match.start()) if match else next(iter(sorted(named & kinds)))
            return Verdict(error_class, "the agent's logs: " + _short(said))
    return None
