"""What a competition's metadata may be: plain single-line text and an http(s) link, never a spreadsheet formula.

The metadata (name, type, metric) comes from competition.yaml or a Meta Kaggle dump and goes verbatim into every
config and every tasks/<Language>.csv of a release, where the grading harness reads it with pandas and curators open
it in LibreOffice or Excel. The text itself must be safe there, because the harness must read exactly what was
published: a CSV-only escape (a leading apostrophe, a tab) would change the string the harness gives the agent.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit

from curation.records import Competition

# Fields a release publishes as one line of plain text (the slug and data type are validated by the record itself).
METADATA_FIELDS = ("comp_name", "comp_type", "metric", "metric_type")

# A spreadsheet opening a CSV reads a cell starting with one of these as a formula. LibreOffice does so only for a
# one-line cell starting with '=' (it opens a cell with a line break as text); Excel also for + - @, tab and CR,
# and it reads a formula across line breaks, so '=' counts whatever follows.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# An HTML element or comment: plain text has none, and a name is shown as text wherever it appears.
_MARKUP = re.compile(r"<(/?([A-Za-z][\w:-]*)(\s[^<>]*)?/?|!--.*?--)>", re.DOTALL)
# Bidirectional overrides reorder what a reader sees without changing the bytes (U+202A-U+202E, U+2066-U+2069).
_BIDI = {chr(code) for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}


def formula_start(text: str) -> str | None:
    """The character that makes a spreadsheet open `text` as a formula, or None when it opens as text."""
    stripped = text.lstrip(" ")  # LibreOffice opens ' =1' as text; other spreadsheets are not known to
    if not stripped or stripped[0] not in FORMULA_STARTS:
        return None
    one_line = not any(character in "\n\r" for character in stripped[1:])
    return stripped[0] if stripped[0] == "=" or one_line else None


def is_web_link(text: str) -> bool:
    """An absolute http(s) address with a host and no spaces or control characters."""
    if not text or any(character.isspace() or unicodedata.category(character) == "Cc" for character in text):
        return False
    try:
        parts = urlsplit(text)
    except ValueError:  # e.g. an unclosed IPv6 bracket
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)


def line_problem(text: str) -> str | None:
    """What keeps `text` from being one line of plain text that opens as text in a spreadsheet, or None."""
    breaks = [character for character in text if unicodedata.category(character) in ("Cc", "Zl", "Zp")]
    if breaks:
        return f"has a line break or control character ({ascii(breaks[0])}); write it on one line"
    if any(character in _BIDI for character in text):
        return "has a bidirectional override character, which shows the text in another order than it is; remove it"
    markup = _MARKUP.search(text)
    if markup:
        # Named, not quoted: these lines also go into the release's card, which is Markdown and would render it.
        what = f"a {markup.group(2)} tag" if markup.group(2) else "an HTML comment"
        return f"holds HTML markup ({what}); write plain text"
    start = formula_start(text)
    if start:
        return (f"starts with {start!r}, so a spreadsheet opening the release's tasks CSV would run it as a formula; "
                "write plain text")
    return None


def metadata_problems(competition: Competition) -> list[tuple[str, str]]:
    """(field, what is wrong and what to do) for each metadata field a release could not publish as it is."""
    found = []
    for name in METADATA_FIELDS:
        problem = line_problem(getattr(competition, name) or "")
        if problem:
            found.append((name, problem))
    link = competition.competition_link
    if not is_web_link(link):
        scheme = link.partition(":")[0] if ":" in link else ""
        shown = f" (it starts with {scheme})" if scheme.isalnum() else ""  # the scheme only: see line_problem
        found.append(("competition_link", f"is not an http(s) link{shown}; give the address of the competition's "
                                          "page (https://...), or leave the field out for the Kaggle page"))
    return found
