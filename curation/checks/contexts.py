"""Two identifiers that exchanged their surroundings: each stands where the English has the other.

The role rules of curation/checks/roles.py read the word that gives an identifier its part (train, predict, key); many
swaps have no such word ("`sensors.csv` serves the regression of `no2`, while `no2_hourly.csv` describes the
sensors"), or the language puts it where the nearest-word rule cannot find it. The words around an identifier still
say what it is: the sentence encoder reads the few words on each side of every identifier, the identifier itself
masked, within its clause (commas, colons, semicolons, dashes and full stops bound it: a translator who puts the clauses
in another order must not carry one identifier's words over to the other), in the English and in its translation.
When `x`'s surroundings in the translation read like `y`'s in the English, and `y`'s like `x`'s, by a margin over the
pairing the other way, the two were exchanged.

USE languages written with spaces only (2026-11-29): a Chinese or Japanese clause is no run of words (a window of
characters found 1 swap for 2 false alarms on the calibration sets), and under e5 (Belarusian, Kazakh, Romanian), at
a margin of its own (0.05), the rule found 14 swaps for 3 false alarms there and added a false alarm on the newest
held-out set.
"""

from __future__ import annotations

import re
from itertools import combinations

from curation.checks.encoders import EncoderUnavailable, vectors
from curation.checks.prose import quote
from curation.checks.units import Unit

# Words on each side of an identifier, within its clause, that make its surroundings.
WINDOW = 6
# How much closer, in summed USE cosines, the two identifiers' translated surroundings must read to each other's
# English ones than to their own. On the calibration sets' meaning material (seven languages, 2026-11-29): 0.4 found
# 98 role swaps, 39 of them missed by every other check, and flagged 2 correct translations no other check flagged;
# at 0.35, 45 such swaps for 3 false alarms, at 0.3 47 for 8. (Words 4 each side across clause bounds: 37 for 2,
# and a translation that puts the clauses in another order flagged.)
MARGIN = 0.4
# Fewer words than this around an identifier (masks and punctuation not counted) say nothing of it: a column of a
# list ("`a`, `b` and `c`") or a file opening a data card's line ("`survey.csv`: one row per questionnaire").
FEWEST_WORDS = 2
# Where a clause ends: the window stops there.
_CLAUSE_END = re.compile(r"[;:；：—,，、]|[.。!?](?=\s|$)")
IDENTIFIER = re.compile(r"`[^`\n]+`")
# A plain name: a column, a file or a folder, not code or a format (`index=False`, `pixel_id,prob`); its surroundings
# (and in roles.py its part) describe it.
PLAIN_NAME = re.compile(r"^`[^`\s=,()]+`$")
MASK = "X"


def surroundings(text: str, width: int = WINDOW) -> dict[str, tuple[list[str], list[str]]]:
    """The words before and after the first occurrence of each plain identifier within its clause, every identifier
    among them masked."""
    found: dict[str, tuple[list[str], list[str]]] = {}
    for match in IDENTIFIER.finditer(text):
        name = match.group()
        if name in found or not PLAIN_NAME.match(name):
            continue
        before = _CLAUSE_END.split(IDENTIFIER.sub(MASK, text[:match.start()]))[-1].split()[-width:]
        after = _CLAUSE_END.split(IDENTIFIER.sub(MASK, text[match.end():]))[0].split()[:width]
        found[name] = (before, after)
    return found


def _worded(words: tuple[list[str], list[str]]) -> bool:
    return sum(1 for word in (*words[0], *words[1]) if re.sub(r"[\W_]+", "", word) not in ("", MASK)) >= FEWEST_WORDS


def _said(words: tuple[list[str], list[str]], middle: str) -> str:
    return " ".join([*words[0], middle, *words[1]])


def exchanged(english: str, translated: str, margin: float = MARGIN) -> tuple[str, str, str, str] | None:
    """Two identifiers of a sentence (and its translation) whose surroundings crossed, with the translated
    surroundings of the first and the English ones of the second, each with its identifier: (x, y, x's words, y's
    English words); or None."""
    e, t = surroundings(english), surroundings(translated)
    shared = [name for name in e if name in t and _worded(e[name]) and _worded(t[name])]
    if len(shared) < 2:
        return None
    try:
        vector = vectors("use", [_said(e[name], MASK) for name in shared] + [_said(t[name], MASK) for name in shared])
    except EncoderUnavailable:
        return None
    n, best = len(shared), None
    for i, j in combinations(range(n), 2):
        kept = float(vector[n + i] @ vector[i] + vector[n + j] @ vector[j])
        crossed = float(vector[n + i] @ vector[j] + vector[n + j] @ vector[i])
        if crossed - kept > margin and (best is None or crossed - kept > best[0]):
            best = (crossed - kept, shared[i], shared[j])
    if best is None:
        return None
    _, x, y = best
    return x, y, _said(t[x], x), _said(e[y], y)


def context_swaps(english: list[Unit], translated: list[Unit]) -> list[str]:
    """The problem an exchange of surroundings makes in one aligned pair of sentences, if any."""
    found = exchanged(" ".join(unit.text for unit in english), " ".join(unit.text for unit in translated))
    if found is None:
        return []
    x, y, words_x, words_y = found
    where = translated[0]
    return [f"role: line {where.line} {quote(where.text)} has {x} where the English has {y}: {quote(words_x)} says "
            f"what the English says of {y}, {quote(words_y)}"]
