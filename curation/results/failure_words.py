"""The words failures are told by: exception classes, and the phrases of tracebacks, graders, libraries and the
grading harness, per class of the taxonomy (taxonomy.py reads a run with them)."""

from __future__ import annotations

import re


class Phrases:
    """An expression searched only in a text that holds one of its words (lowercase): most texts hold none, and a
    word is found many times faster than the expression (10,000 runs are read in seconds)."""

    def __init__(self, words: tuple[str, ...], *patterns: str, flags: int = re.I):
        self.words = words
        self.pattern = re.compile("".join(patterns), flags)

    def search(self, text: str, lower: str) -> re.Match | None:
        """The first match in `text` (`lower`: the same text in lowercase)."""
        return self.pattern.search(text) if any(word in lower for word in self.words) else None


# A traceback's last line ("KeyError: 'Age'", "numpy._core._exceptions._ArrayMemoryError: Unable to ..."), and the
# repr the harness writes into its messages ("Could not load submission code: e=SyntaxError(...)").
EXCEPTION = re.compile(
    r"^[ \t]*(?:[A-Za-z_][\w]*\.)*(?P<name>_?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Timeout|Expired|TimedOut)"
    r"|KeyboardInterrupt|StopIteration)(?::[ \t]*(?P<message>.*))?$", re.M)
REPR = re.compile(r"\be=(?:[A-Za-z_]\w*\.)*(?P<name>_?[A-Z]\w*(?:Error|Exception|Exit|Timeout|Expired))"
                  r"\((?P<message>.*)")
FRAME = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<function>\S+))?')
WRAPPERS = {"SystemExit", "BaseException", "Exception"}  # how the harness ends or wraps a failure it already said
EXIT = re.compile(r"^SystemExit\b", re.M)  # ... unless the submission's own code raised it
# python/ast_parser.py wraps whatever the top of the module raised in an ImportError with these words: not an import.
LOADER_WRAPPER = re.compile(r"^Failed to (?:execute|compile) filtered code from ")

SYNTAX = {"SyntaxError", "IndentationError", "TabError"}
SYNTAX_TEXT = Phrases(("syntax", "indent", "unterminated", "never closed", "unmatched"),
                      r"invalid syntax|unexpected indent|unindent does not match|unterminated (?:string|triple)|",
                      r"was never closed|expected an indented block|unmatched '[\])}]'")

IMPORT = {"ModuleNotFoundError", "ImportError", "PackageNotFoundError"}
NO_MODULE = Phrases(
    ("no module", "cannot import", "not installed", "requires the", "distribution", "satisfies the requirement", "pip",
     "does not exist", "undefined symbol"),
    r"No module named ['\"]?(?P<module>[\w.]+)|cannot import name ['\"]?(?P<name>\w+)['\"]?",
    r"(?: from ['\"]?(?P<source>[\w.]+))?|(?P<lib>[\w-]+) is not installed|",
    r"requires the (?P<req>[\w-]+) (?:library|package)|No matching distribution found for (?P<dist>[\w.\-\[\]]+)|",
    r"Could not find a version that satisfies the requirement (?P<version>[\w.\-\[\]]+)|",
    # a run that installs what it lacks, refused (the grading container installs nothing)
    r"pip['\"]?,?\s+['\"]?install['\"]?,?\s+['\"]?(?P<pip>[A-Za-z][\w.\-\[\]]*)['\"]?\]?['\"]? ",
    r"returned non-zero exit status|",
    # a compiled package built for another version of what it links to
    r"operator (?P<operator>[\w:]+) does not exist|undefined symbol: (?P<symbol>\w+)")

MEMORY = {"MemoryError", "_ArrayMemoryError", "ArrayMemoryError", "OutOfMemoryError", "ResourceExhaustedError"}
MEMORY_TEXT = Phrases(("memory", "allocat", "bad_alloc", "oom", "killed", "137", "malloc"),
                      r"out of memory|not enough memory|Unable to allocate|Cannot allocate memory|std::bad_alloc|",
                      r"malloc of size \d+ failed|oom[- ]?kill|^\s*Killed\s*$|exit(?:ed with)? code:? 137|",
                      r"memory limit|OOM when allocating", flags=re.I | re.M)

NETWORK = {"ConnectTimeout", "ConnectTimeoutError", "ConnectionError", "ProxyError", "NewConnectionError",
           "MaxRetryError", "URLError", "SSLError", "HTTPError", "ConnectionRefusedError", "gaierror",
           "LocalEntryNotFoundError", "OfflineModeIsEnabled"}
NETWORK_TEXT = Phrases(("max retries", "name resolution", "new connection", "unreachable", "name or service", "connect",
                        "tunnel"),
                       r"Max retries exceeded with url|Temporary failure in name resolution|",
                       r"Failed to establish a new connection|Network is unreachable|Name or service not known|",
                       r"couldn't connect to|Connection refused|Tunnel connection failed")

# KeyboardInterrupt: nobody types Ctrl-C into a grading run; a time limit sends SIGINT.
TIMEOUT = {"TimeoutError", "TimeoutExpired", "FunctionTimedOut", "Timeout", "JobTimeout", "DeadlineExceeded",
           "KeyboardInterrupt"}
TIMEOUT_TEXT = Phrases(("time", "took too long", "deadline", "stuck", "exceeded", "no output", "still running"),
                       r"timed? ?out\b|time ?limit|took too long|deadline exceeded|solution (?:is )?stuck|\bstuck\b|",
                       r"exceeded (?:the |its )?(?:\d+[ -]?(?:s|sec|seconds|min|minutes|h|hours?) )?",
                       r"(?:time|runtime|wall)|no output for \d+|still running after")

# The harness's own words for a submission it could not use (python/bench.py, python/code_grader.py,
# python/grade_functions.py): a bad submission wherever they appear.
HARNESS_SUBMISSION = Phrases(
    ("does not have the", "not a callable", "all cv folds", "validation data missing", "missing target",
     "could not calculate"),
    r"does not have the (?P<function>\w+) function|(?P<callable>\w+) is not a callable function|",
    r"Submission code failed for all CV folds|Validation data missing|missing target columns|Could not calculate")
# Words of graders elsewhere (a CSV's error column) for a submission file that does not fit: a bad submission, unless
# the submission's own code raised them.
SUBMISSION_TEXT = Phrases(
    ("submission", "rows", "column", "row count"),
    r"no submission(?: file)?|submission(?:\.csv)? (?:file )?(?:not found|is missing|missing)|",
    r"wrong (?:number of )?(?:rows|columns)|row count|columns? (?:do not|don't|does not) match|expected \d+ rows|",
    r"missing (?:required )?columns?|(?:unexpected|extra) columns?|invalid submission|submission (?:has|had) \d+ rows|",
    r"submission(?: file)? is empty|empty submission")
# The harness's own failures (python/code_grader.py, python/bench.py, python/grade_functions.py): its configuration or
# data, not the agent's code, stopped the grading.
HARNESS_FAILURE = Phrases(
    ("internal error", "data loader", "folds variable", "competitions.json", "unknown competition", "not initialized",
     "environment variable", "bad bench_", "bad extended_schema"),
    r"internal error|Data loader '[^']*' not found|folds variable is unset|",
    r"Could not find competitions/competitions\.json|Unknown competition: |Competition files are not initialized|",
    r"Environment variable \w+ is unset|Bad (?:BENCH_\w+|EXTENDED_SCHEMA) value", flags=0)

# Where a frame is: the grader (the predictions do not fit it), the rest of the harness's python/ (the submission's
# functions do not fit its calls), the submission, or a library.
GRADER_FILES = ("grade_functions.py",)
HARNESS_FILES = ("code_grader.py", "bench.py", "ast_parser.py", "common.py")
CODE_FILES = ("submission/code.py", "submission/submission.py", "code.py", "submission.py", "solution.py", "main.py",
              "runfile.py")
LIBRARY = re.compile(r"site-packages|dist-packages|/lib/python\d|<frozen |\\lib\\")
