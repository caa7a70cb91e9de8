"""Sentence alignment of a translation with its English source, for the adequacy check.

A monotone alignment (translators keep the order of sentences) by dynamic programming over a matrix of cosines,
which may pair one unit with one, one translated unit with two adjacent English ones (a merge) or two adjacent
translated units with one English one (a split), or leave a unit unpaired; then units left unpaired on both sides
that match each other are paired (a sentence the translator moved elsewhere).
"""

from __future__ import annotations

from dataclasses import dataclass

# The alignments the adequacy check made lately, by (source, translation, language, names): the meaning checks
# compare words on the same pairs of sentences without embedding them again.
_RECENT: dict[tuple, list[Link]] = {}
_KEPT = 64


@dataclass(frozen=True)
class Link:
    """Translated units and the English units they render: one each (a pair), one and two (a merge or a split),
    or one and none (added, omitted)."""

    t: tuple[int, ...]
    s: tuple[int, ...]
    score: float = 0.0


def align(pair, merge, split, cut: float, gain: float) -> list[Link]:
    """The monotone alignment with the highest summed (cosine - cut) over its links.

    pair[t, s]: translated unit t with English unit s; merge[t, s]: t with English s and s+1 glued; split[t, s]:
    translated t and t+1 glued with English s. A merge or split pays `gain` over a pair, so it is chosen only where
    the glued text is closer than either half."""
    rows, cols = pair.shape
    best = [[float("-inf")] * (cols + 1) for _ in range(rows + 1)]
    move: list[list[tuple[int, int]]] = [[(0, 0)] * (cols + 1) for _ in range(rows + 1)]
    best[0][0] = 0.0
    for t in range(rows + 1):
        for s in range(cols + 1):
            options = []
            if t and s:
                options.append((best[t - 1][s - 1] + pair[t - 1, s - 1] - cut, (1, 1)))
            if t and s > 1:
                options.append((best[t - 1][s - 2] + merge[t - 1, s - 2] - cut - gain, (1, 2)))
            if t > 1 and s:
                options.append((best[t - 2][s - 1] + split[t - 2, s - 1] - cut - gain, (2, 1)))
            if t:
                options.append((best[t - 1][s], (1, 0)))
            if s:
                options.append((best[t][s - 1], (0, 1)))
            if options:
                best[t][s], move[t][s] = max(options, key=lambda option: option[0])
    links: list[Link] = []
    t, s = rows, cols
    while t or s:
        dt, ds = move[t][s]
        ts, ss = tuple(range(t - dt, t)), tuple(range(s - ds, s))
        if dt == 1 and ds == 1:
            score = pair[ts[0], ss[0]]
        elif dt == 1 and ds == 2:
            score = merge[ts[0], ss[0]]
        elif dt == 2 and ds == 1:
            score = split[ts[0], ss[0]]
        else:
            score = 0.0
        links.append(Link(ts, ss, float(score)))
        t, s = t - dt, s - ds
    return links[::-1]


def reordered(links: list[Link], pair, cut: float, loose: float | None = None) -> list[Link]:
    """Units left unpaired on both sides that match each other pair up: a sentence the translator moved, or one
    rendered loosely — below the cut but above `loose`, when each is the other's best match in the whole text."""
    added = [link.t[0] for link in links if not link.s]
    omitted = [link.s[0] for link in links if not link.t]
    matched: list[Link] = []
    for t, s in sorted(((t, s) for t in added for s in omitted), key=lambda ts: -pair[ts]):
        mutual = loose is not None and pair[t, s] >= loose and pair[t].argmax() == s and pair[:, s].argmax() == t
        if (pair[t, s] >= cut or mutual) and t in added and s in omitted:
            added.remove(t)
            omitted.remove(s)
            matched.append(Link((t,), (s,), float(pair[t, s])))
    kept = [link for link in links if (link.s and link.t) or (link.t and link.t[0] in added)
            or (link.s and link.s[0] in omitted)]
    return kept + matched


def remember(key: tuple, links: list[Link]) -> None:
    """Keep the alignment of a (source, translation, language, names) for the checks that run after adequacy."""
    _RECENT.pop(key, None)
    _RECENT[key] = links
    while len(_RECENT) > _KEPT:
        _RECENT.pop(next(iter(_RECENT)))


def recalled(key: tuple) -> list[Link] | None:
    """The alignment adequacy made of that text, if it made one lately."""
    return _RECENT.get(key)


def forget() -> None:
    """Forget the alignments kept (benchmarks time each text as new)."""
    _RECENT.clear()
