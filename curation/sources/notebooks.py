"""Notebook text extraction: the code an LLM reads, from .ipynb (nbformat 3 and 4) and script files.

Outputs, shell and magic lines and base64 blobs are dropped; markdown is kept only when asked; sources that
are not UTF-8 are decoded with the first encoding that fits (and the caller is told which); the text is capped
at a token budget, keeping its head and tail and saying in a line what was cut from the middle.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

NOTEBOOK_SUFFIXES = (".ipynb",)
SCRIPT_SUFFIXES = (".py", ".r")

# Lines run by a shell or by IPython rather than by Python: `!pip install`, `%matplotlib inline`, `%%time`.
_SHELL_OR_MAGIC = re.compile(r"^\s*(!|%{1,2}[A-Za-z])")
# A long unbroken run of base64 characters: embedded images, pickles, fonts. Prose and code never look like it.
_BASE64_BLOB = re.compile(r"(?:data:[\w/+.-]+;base64,)?[A-Za-z0-9+/]{200,}={0,2}")
# Token estimate without a tokenizer download: one token per punctuation mark, about four characters per word.
_TOKEN_PIECES = re.compile(r"\w+|[^\w\s]")
_PIECE = 80  # characters: lines longer than this are cut in pieces when the middle of a text goes
# Cell magics whose body is still Python worth reading; the body of any other (%%bash, %%html ...) is not.
_PYTHON_CELL_MAGICS = re.compile(r"^\s*%%(time|timeit|capture|writefile)\b")


class NotebookError(Exception):
    """A notebook file a curator must fix or remove; the message says what is wrong and what to do."""


@dataclass(frozen=True)
class ExtractedText:
    """The readable text of one notebook, its estimated size, what was cut, and how it was decoded."""

    text: str
    tokens: int
    cut: str | None
    encoding: str


def count_tokens(text: str) -> int:
    """Approximate LLM tokens: punctuation marks count one each, words one per four characters (rounded up)."""
    total = 0
    for piece in _TOKEN_PIECES.findall(text):
        total += 1 if len(piece) <= 4 else (len(piece) + 3) // 4
    return total


def decode(data: bytes) -> tuple[str, str]:
    """Text and the encoding it was read with: BOMs first, then UTF-8, then cp1252, then latin-1 (never fails)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data.decode("utf-8-sig"), "utf-8-sig"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            pass
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "latin-1"


def _looks_binary(data: bytes) -> bool:
    # NUL bytes never occur in text files unless they are UTF-16/32, which announce themselves with a BOM.
    return b"\x00" in data[:8192] and not data.startswith((b"\xff\xfe", b"\xfe\xff"))


def _clean_code(source: str) -> str:
    lines = source.splitlines()
    if lines and lines[0].lstrip().startswith("%%"):
        if not _PYTHON_CELL_MAGICS.match(lines[0]):
            return ""
        lines = lines[1:]
    kept = [line for line in lines if not _SHELL_OR_MAGIC.match(line)]
    return _BASE64_BLOB.sub("<base64 data removed>", "\n".join(kept)).strip()


def _cell_source(cell: dict, key: str) -> str:
    value = cell.get(key, "")
    return "".join(value) if isinstance(value, list) else str(value or "")


def _notebook_cells(document: dict) -> list[dict]:
    if "cells" in document:  # nbformat 4
        return [cell for cell in document["cells"] if isinstance(cell, dict)]
    cells: list[dict] = []  # nbformat 3: cells live in worksheets, code in "input"
    for sheet in document.get("worksheets", []) or []:
        for cell in sheet.get("cells", []) or []:
            if isinstance(cell, dict):
                cells.append({**cell, "source": cell.get("input", cell.get("source", ""))})
    return cells


def notebook_code(text: str, keep_markdown: bool) -> str:
    """The code cells of a notebook's JSON (and markdown cells when asked), outputs and magics dropped."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise NotebookError(f"not valid notebook JSON ({error.msg.lower()}: line {error.lineno}, column {error.colno}); re-download or remove it") from None
    if not isinstance(document, dict) or not ("cells" in document or "worksheets" in document):
        raise NotebookError("JSON but not a Jupyter notebook (no cells or worksheets); remove it or save it as .ipynb")
    parts: list[str] = []
    has_code = False
    for cell in _notebook_cells(document):
        kind = cell.get("cell_type")
        if kind == "code":
            code = _clean_code(_cell_source(cell, "source"))
            if code:
                has_code = True
                parts.append(code)
        elif kind in ("markdown", "heading") and keep_markdown:
            markdown = _BASE64_BLOB.sub("<base64 data removed>", _cell_source(cell, "source")).strip()
            if markdown:
                parts.append("\n".join(f"# {line}" if line else "#" for line in markdown.splitlines()))
    if not has_code:
        raise NotebookError("has no code cells; nothing to describe from it — remove it or pick another notebook")
    return "\n\n".join(parts)


def script_code(text: str) -> str:
    """A .py or .R script without shell and magic lines (Kaggle exports keep them as `!pip` or `# %%`)."""
    code = _clean_code(text)
    if not code:
        raise NotebookError("holds no code; remove it or pick another notebook")
    return code


def cap_tokens(text: str, budget: int) -> tuple[str, int, str | None]:
    """Keep the head and the tail of a text within `budget` tokens; the middle is replaced by a line saying so."""
    total = count_tokens(text)
    if total <= budget:
        return text, total, None
    # Minified code can be one enormous line, so lines are measured in pieces; a piece that ends a line says so.
    pieces = [(line[i:i + _PIECE], i + _PIECE >= len(line)) for line in text.splitlines()
              for i in range(0, max(len(line), 1), _PIECE)]
    costs = [count_tokens(piece) for piece, _ in pieces]
    half = budget // 2
    head_end, used = 0, 0
    while head_end < len(pieces) and used + costs[head_end] <= half:
        used += costs[head_end]
        head_end += 1
    tail_start, tail_used = len(pieces), 0
    while tail_start > head_end and tail_used + costs[tail_start - 1] <= budget - half:
        tail_start -= 1
        tail_used += costs[tail_start]
    removed = total - used - tail_used
    lines_cut = sum(1 for _, ends in pieces[head_end:tail_start] if ends)
    cut = f"{removed} tokens ({lines_cut} lines) cut from the middle to fit the budget of {budget}"
    marker = f"# [... {removed} tokens cut from the middle ...]"
    head = "".join(piece + ("\n" if ends else "") for piece, ends in pieces[:head_end])
    tail = "".join(piece + ("\n" if ends else "") for piece, ends in pieces[tail_start:])
    kept = head + ("\n" if head and not head.endswith("\n") else "") + marker + "\n" + tail.rstrip("\n")
    return kept, used + tail_used + count_tokens(marker), cut


def extract(path: Path, token_budget: int, keep_markdown: bool = False, max_bytes: int = 20_000_000) -> ExtractedText:
    """The readable text of a notebook or script file; bad files raise NotebookError with a message to act on."""
    suffix = path.suffix.lower()
    if suffix not in NOTEBOOK_SUFFIXES + SCRIPT_SUFFIXES:
        raise NotebookError(f"unsupported file type {suffix or '(none)'}; use .ipynb or .py")
    size = path.stat().st_size
    if size > max_bytes:
        raise NotebookError(f"is {size / 1e6:.1f} MB, over the limit of {max_bytes / 1e6:.1f} MB "
                            "(ingest.max_notebook_bytes); clear its outputs or raise the limit")
    data = path.read_bytes()
    if not data.strip():
        raise NotebookError("is empty; re-download it or remove it")
    if _looks_binary(data):
        raise NotebookError("is binary, not a text notebook; re-download it or remove it")
    text, encoding = decode(data)
    code = notebook_code(text, keep_markdown) if suffix in NOTEBOOK_SUFFIXES else script_code(text)
    capped, tokens, cut = cap_tokens(code, token_budget)
    return ExtractedText(text=capped, tokens=tokens, cut=cut, encoding=encoding)
