"""Long lists shortened for a screen: the first few lines, then how many more and where to see them all; an
exception nobody planned for shortened to one line."""

from __future__ import annotations

EXAMPLES = 3


def excerpt(lines: list[str], more: str, *, verbose: bool = False, limit: int = EXAMPLES) -> list[str]:
    """`lines` whole when verbose or short; otherwise the first `limit` and "N more — `more`"."""
    if verbose or len(lines) <= limit + 1:  # "1 more" would take the line it saves
        return list(lines)
    return [*lines[:limit], f"… {len(lines) - limit} more — {more}"]


def named(items: list[str], limit: int = EXAMPLES) -> str:
    """'ar, be, zh' or, past `limit` + 1 items, 'ar, be, zh and 9 more'."""
    if len(items) <= limit + 1:  # "and 1 more" would take the place of the one it hides
        return ", ".join(items)
    return f"{', '.join(items[:limit])} and {len(items) - limit} more"


def plural(count: int, noun: str, many: str | None = None) -> str:
    """'1 language', '2 languages' (`many` for irregular plurals)."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


def unexpected(error: BaseException) -> str:
    """An exception nobody planned for, as one line: its type and first line, enough to find it in the code."""
    text = " ".join(str(error).split())
    text = text if len(text) <= 200 else text[:199] + "…"
    return f"unexpected {type(error).__name__}: {text}" if text else f"unexpected {type(error).__name__}"
