"""Provenance: which file a sentence learns from. "Predict `label` for `test.csv` from `train.csv`" gives `train.csv` the
data and `test.csv` the rows to predict; a translation that says "for `train.csv` from `test.csv`" swapped them, though
every identifier is still in its sentence and "predict" is still the nearest role word of both.

A language's `[provenance] from` words (curation/checks/meaning_words/) mark the file the data comes from: "from",
"à partir de", "по", "根据" before it, or "から", "-дан", "'den" after it (the side its `role_side` names). Within one
aligned pair of sentences, a file the English marks and the translation does not, while another file the English does
not mark is marked in the translation, is a swap. Only files: "из", "z", "din" ("of", "in") and "by `store_id`" mark too
much else. The roles check (curation/checks/roles.py) reports it with the other swaps.
"""

from __future__ import annotations

import re
from functools import lru_cache

from curation.checks.anchors import word_gap
from curation.checks.masking import PLACEHOLDER, mask_identifiers
from curation.checks.prose import quote
from curation.checks.senses import Senses, compile_words, language_data, lower
from curation.checks.units import Unit

_FILE = re.compile(r"\.[A-Za-z0-9]{2,7}`$|/`$")
_BREAK = re.compile(r"[,;:()\[\]、，；：。.!?،؛（）]")
# A marker before its file may have a few words between ("from the labelled rows of `train.csv`"); a suffix or a
# postposition after it fewer ("`train.csv` dosyasından"), but in Japanese a noun phrase ("`train.csv` のラベル付きタイル
# から", counted as half its characters).
_BEFORE_REACH, _AFTER_REACH, _AFTER_REACH_UNSPACED = 3, 2, 5
# Two files named together ("from `a` (one row per learner) and `b`") share the marker, which the translation may put
# after the second only ("`a` (...) және `b` файлдарынан"): such a pair is not compared.
_TOGETHER = re.compile(r"^\s*(?:\([^)]*\))?\s*(?:,|and|or)\s*$", re.IGNORECASE)


@lru_cache(maxsize=None)
def _markers(code: str) -> tuple[str, Senses] | None:
    data = language_data(code)
    words = data.get("provenance", {}).get("from", [])
    return (data.get("role_side", "before"), compile_words(code, {"from": words})) if words else None


def _marked(text: str, code: str, names: tuple[str, ...]) -> dict[str, bool]:
    """Each file named once in a sentence, and whether a marker says the data comes from it."""
    side, words = _markers(code)  # source_swaps reads only languages that have markers
    masked = mask_identifiers(text, names)
    spans = list(masked.spans)
    lowered = lower(masked.text, code)
    reading = PLACEHOLDER.sub(lambda match: " " * len(match.group(0)), lowered)
    finds = words.finds(reading)
    seen: dict[str, list[bool]] = {}
    for match in PLACEHOLDER.finditer(lowered):
        name = spans[int(match.group(1)) - 1]
        if not _FILE.search(name):
            continue
        start, end = match.start(), match.end()
        if side == "before":
            marked = any(find.end <= start and word_gap(reading[find.end:start]) <= _BEFORE_REACH
                         and not _BREAK.search(reading[find.end:start]) for find in finds)
        else:  # after the file, or a suffix glued to it ("`train.csv`'den")
            reach = _AFTER_REACH_UNSPACED if code in ("ja", "zh") else _AFTER_REACH
            marked = any(find.start >= end - 1 and word_gap(reading[end:find.start]) <= reach
                         and not _BREAK.search(reading[end:max(end, find.start)]) for find in finds)
        seen.setdefault(name, []).append(marked)
    return {name: marks[0] for name, marks in seen.items() if len(marks) == 1}


def sources(text: str, code: str, names: tuple[str, ...]) -> dict[str, bool]:
    """Each file named once in a sentence, and whether it says the data comes from it ({} in a language without
    markers)."""
    return _marked(text, code, names) if _markers(code) is not None else {}


def _together(english: str, a: str, b: str) -> bool:
    (first, one), (second, _) = sorted(((english.find(a), a), (english.find(b), b)))
    return first >= 0 and bool(_TOGETHER.match(english[first + len(one):second]))


def source_swaps(english: list[Unit], translated: list[Unit], pairs, code: str, names: tuple[str, ...]) -> list[str]:
    """Two files that exchanged being the data's source, pair of sentences by pair."""
    if _markers(code) is None or _markers("en") is None:
        return []
    for s, t in pairs:
        english_text = " ".join(english[i].text for i in s)
        e = _marked(english_text, "en", names)
        tr = _marked(" ".join(translated[i].text for i in t), code, names)
        shared = sorted(set(e) & set(tr))
        for a in shared:
            for b in shared:
                if a != b and e[a] and not e[b] and tr[b] and not tr[a] and not _together(english_text, a, b):
                    where = translated[t[0]]
                    return [f"role: line {where.line} {quote(where.text)} takes the data from {b} and not from {a}; "
                            f"the English takes it from {a}"]
    return []
