"""A run as read from its folder or CSV row, before it is classified: what it says about itself and where to look
for more (its code, its agent's logs)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from curation.records import RunResult

EVIDENCE_CHARS = 4000  # the end of the errors and tracebacks is kept: the exception that ended the run is there
LOG_TAIL_BYTES = 16_000  # of each log file: the agent's last words
LOG_FILES = 6


@dataclass
class ReadRun:
    """One run as read: the result record (not classified yet), its code, a way to its logs, and a digest of what
    was read, which tells a changed run from an unchanged one."""

    result: RunResult
    digest: str
    code: str | None = None  # the submission's code, when there is one
    results_written: bool = True  # the grading wrote its results (a CSV row: always)
    logs: Callable[[], str] = field(default=lambda: "")  # the end of the agent's logs, read only when needed


def digest_of(*parts: bytes | str | None) -> str:
    """A short hash of the bytes a run was read from."""
    hasher = hashlib.sha256()
    for part in parts:
        data = b"\x00" if part is None else part.encode("utf-8", "replace") if isinstance(part, str) else part
        hasher.update(len(data).to_bytes(8, "little") + data)
    return hasher.hexdigest()[:32]


def evidence_text(errors: list[str], tracebacks: list[str]) -> str:
    """The harness's messages and tracebacks as one text, the end kept when long. A traceback the message already
    quotes whole (report_error puts format_exc() into some messages) is not repeated."""
    parts = list(errors)
    for trace in tracebacks:
        if not any(trace.strip() and trace.strip() in error for error in errors):
            parts.append(trace)
    text = "\n".join(part.rstrip() for part in parts if part and part.strip())
    return text if len(text) <= EVIDENCE_CHARS else "…" + text[-EVIDENCE_CHARS:]


def log_tail(folder: Path) -> str:
    """The end of the newest text files under a run's logs/ (and artifacts/), newest last."""
    files = []
    for name in ("logs", "artifacts"):
        base = folder / name
        if base.is_dir():
            files += [path for path in base.rglob("*") if path.is_file() and path.suffix.lower() in
                      (".log", ".txt", ".out", ".err", ".json", ".jsonl", "")]
    try:
        files.sort(key=lambda path: path.stat().st_mtime)
    except OSError:
        return ""
    tails = []
    for path in files[-LOG_FILES:]:
        try:
            with path.open("rb") as handle:
                size = handle.seek(0, 2)
                handle.seek(max(0, size - LOG_TAIL_BYTES))
                tails.append(handle.read().decode("utf-8", "replace"))
        except OSError:
            continue
    return "\n".join(tails)
