"""Reading what annotators chose: verdicts and rubric scores, forgiving harmless variations."""

from __future__ import annotations

import re

from curation.records import RUBRIC_SCORES, VERDICTS, VerdictText

_BY_NORMAL = {verdict.lower(): verdict for verdict in VERDICTS}


def _normal(text: str) -> str:
    text = text.strip().lower().replace("&", " and ").replace("+", " and ")
    text = re.sub(r"[\s,;/]+", " ", text)
    return re.sub(r"\s+", " ", text).strip(" .!")


def parse_verdict(text: str) -> VerdictText | None:
    """One of the four verdicts, whatever the case and spacing ("Yes and yes", "yes & yes"); None when it is none."""
    normal = _normal(text)
    normal = re.sub(r"^(yes|no) (yes|no)$", r"\1 and \2", normal)
    return _BY_NORMAL.get(normal)


def parse_score(text: str) -> int | None:
    """A rubric score from "2", "2 - good", "2.0" or "good"; None when it is not one."""
    normal = _normal(text)
    match = re.match(r"^([012])(?:\.0)?(?:\s*-\s*.*|\s+.*)?$", normal)
    if match:
        return int(match.group(1))
    for score, meaning in RUBRIC_SCORES.items():
        if normal == meaning:
            return score
    return None
