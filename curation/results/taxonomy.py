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


_EXCEPTION = re.compile(
    r"^[ \t]*(?:[A-Za-z_][\w]*\.)*(?P<name>_?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Timeout|Expired|TimedOut)"
    r"|KeyboardInterrupt|StopIteration)(?::[ \t]*(?P<message>.*))?$", re.M)
_REPR = re.compile(r"\be=(?:[A-Za-z_]\w*\.)*(?P<name>_?[A-Z]\w*(?:Error|Exception|Exit|Timeout|Expired))\((?P<message>.*)")
_FRAME = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<function>\S+)')
WRAPPERS = {"SystemExit", "BaseException", "Exception"}  # how the harness ends or wraps a failure it already said
_EXIT = re.compile(r"^SystemExit\b", re.M)  # ... unless the submission's own code raised it

_SYNTAX = {"SyntaxError", "IndentationError", "TabError"}
_SYNTAX_TEXT = re.compile(r"invalid syntax|unexpected indent|unindent does not match|unterminated (?:string|triple)|"
                          r"was never closed|expected an indented block|unmatched '[\])}]'", re.I)
_IMPORT = {"ModuleNotFoundError", "ImportError", "PackageNotFoundError"}
_NO_MODULE = re.compile(r"No module named ['\"]?(?P<module>[\w.]+)|cannot import name ['\"]?(?P<name>\w+)['\"]?"
                        r"(?: from ['\"]?(?P<source>[\w.]+))?|(?P<lib>[\w-]+) is not installed|"
                        r"requires the (?P<req>[\w-]+) (?:library|package)|"
                        r"No matching distribution found for (?P<dist>[\w.\-\[\]]+)|"
                        r"Could not find a version that satisfies the requirement (?P<version>[\w.\-\[\]]+)|"
                        # a run that installs what it lacks, refused (the grading container installs nothing)
                        r"pip['\"]?,?\s+['\"]?install['\"]?,?\s+['\"]?(?P<pip>[A-Za-z][\w.\-\[\]]*)['\"]?\]?['\"]? "
                        r"returned non-zero exit status|"
                        # a compiled package built for another version of what it links to
                        r"operator (?P<operator>[\w:]+) does not exist|undefined symbol: (?P<symbol>\w+)", re.I)
_MEMORY = {"MemoryError", "_ArrayMemoryError", "ArrayMemoryError", "OutOfMemoryError", "ResourceExhaustedError"}
_MEMORY_TEXT = re.compile(r"out of memory|not enough memory|Unable to allocate|Cannot allocate memory|std::bad_alloc|"
                          r"malloc of size \d+ failed|"
                          r"oom[- ]?kill|"
                          r"^\s*Killed\s*$|exit(?:ed with)? code:? 137|memory limit|OOM when allocating", re.I | re.M)
_NETWORK = {"ConnectTimeout", "ConnectTimeoutError", "ConnectionError", "ProxyError", "NewConnectionError",
            "MaxRetryError", "URLError", "SSLError", "HTTPError", "ConnectionRefusedError", "gaierror",
            "LocalEntryNotFoundError", "OfflineModeIsEnabled"}
_NETWORK_TEXT = re.compile(r"Max retries exceeded with url|Temporary failure in name resolution|"
                           r"Failed to establish a new connection|Network is unreachable|Name or service not known|"
                           r"couldn't connect to|Connection refused|Tunnel connection failed", re.I)
# KeyboardInterrupt: nobody types Ctrl-C into a grading run; a time limit sends SIGINT.
_TIMEOUT = {"TimeoutError", "TimeoutExpired", "FunctionTimedOut", "Timeout", "JobTimeout", "DeadlineExceeded",
            "KeyboardInterrupt"}
_TIMEOUT_TEXT = re.compile(r"timed? ?out\b|time ?limit|took too long|deadline exceeded|solution (?:is )?stuck|"
                           r"\bstuck\b|exceeded (?:the |its )?(?:\d+[ -]?(?:s|sec|seconds|min|minutes|h|hours?) )?"
                           r"(?:time|runtime|wall)|no output for \d+|still running after", re.I)
# The harness's own words for a submission it could not use (python/bench.py, python/code_grader.py,
# python/grade_functions.py); they mean a bad submission wherever they appear.
_HARNESS_SUBMISSION = re.compile(
    r"does not have the (?P<function>\w+) function|(?P<callable>\w+) is not a callable function|"
    r"Submission code failed for all CV folds|Validation data missing|missing target columns|Could not calculate",
    re.I)
# Words of graders elsewhere (a CSV's error column) for a submission file that does not fit: a bad submission, unless
# the submission's own code raised them.
_SUBMISSION_TEXT = re.compile(
    r"no submission(?: file)?|submission(?:\.csv)? (?:file )?(?:not found|is missing|missing)|"
    r"wrong (?:number of )?(?:rows|columns)|row count|columns? (?:do not|don't|does not) match|expected \d+ rows|"
    r"missing (?:required )?columns?|(?:unexpected|extra) columns?|invalid submission|submission (?:has|had) \d+ rows|"
    r"submission(?: file)? is empty|empty submission",
    re.I)
# The harness's own failures (python/code_grader.py, python/bench.py, python/grade_functions.py): its configuration or
# data, not the agent's code, stopped the grading.
_HARNESS_FAILURE = re.compile(r"internal error|Data loader '[^']*' not found|folds variable is unset|"
                              r"Could not find competitions/competitions\.json|Unknown competition: |"
                              r"Competition files are not initialized|Environment variable \w+ is unset|"
                              r"Bad (?:BENCH_\w+|EXTENDED_SCHEMA) value")
# python/ast_parser.py wraps whatever the top of the module raised in an ImportError with these words: not an import.
_LOADER_WRAPPER = re.compile(r"^Failed to (?:execute|compile) filtered code from ")
_GRADER_FILES = ("grade_functions.py",)
_HARNESS_FILES = ("code_grader.py", "bench.py", "ast_parser.py", "common.py")  # python/ of the harness
_CODE_FILES = ("submission/code.py", "submission/submission.py", "code.py", "submission.py", "solution.py",
               "main.py", "runfile.py")
_LIBRARY = re.compile(r"site-packages|dist-packages|/lib/python\d|<frozen |\\lib\\")


def exceptions(text: str) -> list[tuple[str, str]]:
    """(exception class, message) of every exception the text names, in order: a traceback's last lines first, then
    the `e=Name(...)` reprs of the harness's messages for classes no such line names; its wrappers left out."""
    found = [(match["name"], (match["message"] or "").strip()) for match in _EXCEPTION.finditer(text)]
    named = {name for name, _ in found}
    found += [(match["name"], match["message"].rstrip(")").strip()) for match in _REPR.finditer(text)
              if match["name"] not in named]
    return [(name, message) for name, message in found if name not in WRAPPERS
            and not (name == "ImportError" and _LOADER_WRAPPER.match(message) and not _NO_MODULE.search(message))]


def _frames(text: str) -> list[tuple[str, str, str]]:
    return [(match["file"], match["line"], match["function"]) for match in _FRAME.finditer(text)]


def _where(text: str) -> tuple[str, str]:
    """('code' | 'grader' | '', ' (in f, line n of the submission)') from the deepest frame outside libraries."""
    for file, line, function in reversed(_frames(text)):
        if _LIBRARY.search(file):
            continue
        normal = file.replace("\\", "/")
        if normal.endswith(_GRADER_FILES):
            return "grader", f" (in the grader's {function}: the predictions do not fit it)"
        if normal.endswith(_HARNESS_FILES) and "/python/" in normal:
            return "grader", f" (in the harness's {function}: the submission's functions do not fit its calls)"
        if normal.endswith(_CODE_FILES) or "/submission/" in normal:
            return "code", f" (in {function}, line {line} of the submission)"
        return "code", f" (in {function}, line {line} of {normal.rsplit('/', 1)[-1]})"
    return "", ""


def _code_line(text: str) -> str:
    """' (line n of the submission)' from the last frame in the submission's code, or ''."""
    lines = [line for file, line in re.findall(r'File "([^"]+)", line (\d+)', text)
             if file.replace("\\", "/").endswith(_CODE_FILES)]
    return f" (line {lines[-1]} of the submission)" if lines else ""


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _said(name: str, message: str) -> str:
    return _short(f"{name}: {message}" if message else name)


def failure_class(text: str) -> Verdict | None:
    """The class of a failed run from its errors and tracebacks (or a CSV's error), or None when they say nothing
    a rule knows."""
    if not text.strip():
        return None
    if match := _HARNESS_FAILURE.search(text):
        return Verdict("other", f"the harness failed, not the agent: {_short(_line_of(text, match.start()))}")
    named = exceptions(text)
    names = {name for name, _ in named}
    last = next(((name, message) for name, message in reversed(named)), None)

    def first(kinds: set[str]) -> tuple[str, str] | None:
        return next(((name, message) for name, message in named if name in kinds), None)

    if found := first(_SYNTAX):
        return Verdict("syntax_error", _said(*found) + _code_line(text))
    if match := _SYNTAX_TEXT.search(text):
        return Verdict("syntax_error", _short(f"SyntaxError: {match.group(0)}") + _code_line(text))
    if (found := first(_IMPORT)) or (match := _NO_MODULE.search(text)):
        match = _NO_MODULE.search(text)
        module = match and (match["module"] or match["name"] and f"{match['name']} from {match['source'] or '?'}"
                            or match["lib"] or match["req"] or match["dist"] or match["version"] or match["pip"]
                            or match["operator"] and f"operator {match['operator']}" or match["symbol"]
                            and f"symbol {match['symbol']}")
        said = _said(*found) if found else _short(match.group(0))
        return Verdict("missing_package", f"missing {module}: {said}" if module else said)
    if found := next(((name, message) for name, message in named if name in _MEMORY or name.endswith("MemoryError")),
                     None):  # every library's own: ArrowMemoryError, _ArrayMemoryError, ...
        return Verdict("out_of_memory", _said(*found))
    if match := _MEMORY_TEXT.search(text):
        return Verdict("out_of_memory", _short(match.group(0).strip()))
    if (found := first(_NETWORK)) or (match := _NETWORK_TEXT.search(text)):
        said = _said(*found) if found else _short(_NETWORK_TEXT.search(text).group(0))
        return Verdict("runtime_error", f"network: {said} (the grading container has no open internet)",
                       found[0] if found else "ConnectionError")
    if found := first(_TIMEOUT):
        return Verdict("timeout", _said(*found))
    if match := _TIMEOUT_TEXT.search(text):
        return Verdict("timeout", _short(_line_of(text, match.start())))
    place, where = _where(text)
    if match := _HARNESS_SUBMISSION.search(text):
        return Verdict("bad_submission", _short(_line_of(text, match.start())))
    if place != "code" and (match := _SUBMISSION_TEXT.search(text)):
        return Verdict("bad_submission", _short(_line_of(text, match.start())))
    if last is not None and place == "grader":
        return Verdict("bad_submission", f"{_said(*last)}{where}")
    if last is None and place == "code" and _EXIT.search(text):
        return Verdict("bad_submission", f"the submission exits when it is loaded{where}")
    if last is not None:
        return Verdict("runtime_error", f"{_said(*last)}{where}", last[0])
    return None


def _line_of(text: str, at: int) -> str:
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return text[start:end if end >= 0 else len(text)].strip()


def log_verdict(text: str) -> Verdict | None:
    """A timeout or out-of-memory kill the agent's logs tell of, for a run the grading never answered. Only these:
    an agent's logs hold every error it met and fixed on the way, which say nothing about its final code."""
    if not text.strip():
        return None
    named = {name for name, _ in exceptions(text)}
    if named & _TIMEOUT or (match := _TIMEOUT_TEXT.search(text)):
        match = _TIMEOUT_TEXT.search(text)
        return Verdict("timeout", "the agent's logs: " + _short(_line_of(text, match.start()) if match else
                                                                 next(iter(named & _TIMEOUT))))
    if named & _MEMORY or (match := _MEMORY_TEXT.search(text)):
        match = _MEMORY_TEXT.search(text)
        return Verdict("out_of_memory", "the agent's logs: " + _short(_line_of(text, match.start()) if match else
                                                                       next(iter(named & _MEMORY))))
    return None
