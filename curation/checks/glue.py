"""What the alignment left unpaired or glued, reconsidered (curation/checks/adequacy.py's rules, after align()).

- a unit left unpaired is the other half of a split or merge when gluing it onto its neighbour's link brings that
  link closer and makes the lengths fit better, when it carries the partner's identifiers or numbers, when it says a
  clause of the partner (USE), or when it is a short sentence whose meaning words the partner says (absorbing);
- a merge or split the alignment chose stands only if its weaker half passes that same test (validated);
- a unit left unpaired whose identifiers and numbers all stand in a link's other side, and in none of its own side,
  was merged into that link out of its place (merged_afar);
- a translated and an English sentence left unpaired alone in the same place, with the same identifiers and numbers
  and a fitting length, are a loose rendering of each other (in_place).

As in curation/checks/clauses.py, `texts` is adequacy's reading of one English text and one translation (its units,
their vectors and lengths, the encoder's cut); adequacy imports this module, so it is not named as a type here.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from curation.checks.alignment import Link
from curation.checks.clauses import CLAUSE_HALF, clause_match
from curation.checks.senses import lower, relations, senses

# Glue: a unit is the other half of a split or merge when gluing it onto its neighbour's link scores above ABSORBED:
# (how much nearer the text's usual ratio it brings the link's length ratio) + (how much nearer the language's
# TYPICAL_RATIO it brings the whole text's) + GAIN_WEIGHT x (how much closer it brings the link's vectors). The weight
# puts USE's gain on the length fits' scale; e5's gains are noise at this scale on the calibration set (correct and
# invented sentences alike moved it by ±0.03), so for e5 the lengths decide. Calibrated on the natural calibration
# set: correct merges and splits scored above -0.10 (USE) and -0.19 (e5, one 2% sentence; the rest above 0.01);
# invented and dropped sentences at most -0.18 (USE; a dropped list item -0.13) and -0.11 (e5).
GAIN_WEIGHT = {"use": 5.0, "e5": 0.0}
ABSORBED = {"use": -0.15, "e5": -0.13}
# A sentence left unpaired on both sides in the same place (between the same pairs, the only one of each there), with
# the same identifiers and numbers and a length within the one-to-one span (adequacy.py) of the usual ratio, is a
# loose rendering of a short sentence ("Transfers between wards are not readmissions." as
# "病棟間の転棟は再入院ではありません。", 0.28) when its cosine reaches this much below the cut: an added clause or a dropped one leaves the length off, an invented or a
# dropped sentence has no partner in its place.
IN_PLACE = {"use": 0.25, "e5": 0.05}
# An English sentence this short (characters of prose) has no usual length ratio: "No sample was taken before 2015."
# (26) as "Toate probele au fost prelevate în 2015 sau mai târziu." (49).
SHORT_SIZE = 30
# A sentence of at most this many words is too short for the encoder ("Smaller is better.", "Hay que minimizarlo."):
# it is the other half of its neighbour when what it says (negation, direction, units: the meaning words) is what
# the neighbour's partner says more often than the neighbour does.
SHORT_WORDS = 4


def absorbing(texts, index: int, translated: bool, links: Sequence[Link],
               hosts: Sequence[Link] | None = None) -> Link | None:
    """The link next to the unpaired unit `index` (among `hosts`, by default every link) of which it is the other half
    (a split or merge), or None when it is content of its own (added) or missing (omitted): gluing it on brings the
    link closer (embedding gain) and makes the link's and the text's length ratios fit better (an invented or a
    missing sentence leaves one side long); or it carries identifiers or numbers of the partner that the rest of its
    own side lacks (a split moves them with the half they belong to). A sentence never joins another list item:
    translators keep items whole."""
    side = texts.translated if translated else texts.english
    lone = side[index]
    for link in hosts if hosts is not None else links:
        own, theirs = (link.t, link.s) if translated else (link.s, link.t)
        if not own or not theirs or (index - 1 not in own and index + 1 not in own):
            continue
        if _said_by_partner(texts, index, translated, own, theirs):
            return link
        if (lone.own_block or side[own[0]].own_block) and lone.block not in {side[i].block for i in own}:
            continue
        other_side = texts.english if translated else texts.translated
        if (lone.anchors and lone.anchors <= _anchors_of(other_side, theirs)
                and not lone.anchors <= _anchors_of(side, own)):
            return link  # it carries the partner's identifiers or numbers the rest of its side lacks: a piece of it
        margin = CLAUSE_HALF.get(texts.name)
        if margin is not None and clause_match(texts, (texts.vt if translated else texts.vs)[index], theirs,
                                                not translated) >= texts.cut + margin:
            return link  # it says a clause of the partner: the sentence the translator made of that clause
        glued = tuple(sorted((*own, index)))
        partner = texts.vector(not translated, theirs)
        gain = float(texts.vector(translated, glued) @ partner) - float(texts.vector(translated, own) @ partner)
        mine, other = texts.length(translated, own), texts.length(not translated, theirs)
        together = mine + texts.length(translated, (index,))
        before, after = (mine / other, together / other) if translated else (other / mine, other / together)
        whole_t, whole_s = texts.whole(True), texts.whole(False)
        alone = texts.length(translated, (index,))
        without = (whole_t - alone) / whole_s if translated else whole_t / (whole_s - alone)
        score = (texts.fit(before, after, texts.typical) + texts.fit(without, whole_t / whole_s, texts.typical)
                 + GAIN_WEIGHT[texts.name] * gain)
        if score > ABSORBED[texts.name]:
            return link
    return None


def _said_by_partner(texts, index: int, translated: bool, own: Sequence[int], theirs: Sequence[int]) -> bool:
    """Whether a short unit says a meaning word that the link's other side says more often than its own side."""
    side, other_side = (texts.translated, texts.english) if translated else (texts.english, texts.translated)
    if len(side[index].plain.split()) > SHORT_WORDS:
        return False
    codes = (texts.code, "en") if translated else ("en", texts.code)
    words = [senses(code) for code in codes]
    if words[0] is None or words[1] is None:
        return False

    def said(units, which: int) -> Counter:
        return sum((words[which].count(lower(unit.plain, codes[which])) for unit in units), Counter())

    lone = said([side[index]], 0) - Counter({relations().clause: 99})
    mine, partner = said([side[i] for i in own], 0), said([other_side[i] for i in theirs], 1)
    return any(partner[concept] > mine[concept] for concept in lone)


def _anchors_of(side, indices: Sequence[int]) -> frozenset[str]:
    """The identifiers and numbers the units at these indices hold together."""
    return frozenset().union(*(side[i].anchors for i in indices))


def _glued_each(texts, links: list[Link], host_of) -> list[Link]:
    """Links with each unpaired unit glued onto the link `host_of(texts, index, translated, paired links)` names."""
    links = list(links)
    for lone in [link for link in links if not (link.t and link.s)]:
        translated = bool(lone.t)
        index = lone.t[0] if translated else lone.s[0]
        host = host_of(texts, index, translated, [link for link in links if link.t and link.s])
        if host is not None:
            grown = tuple(sorted((*(host.t if translated else host.s), index)))
            links[links.index(host)] = (Link(grown, host.s, host.score) if translated
                                        else Link(host.t, grown, host.score))
            links.remove(lone)
    return links


def absorbed(texts, links: list[Link]) -> list[Link]:
    """Links with every unpaired unit that is half of a split or merge glued onto its neighbour's link."""
    return _glued_each(texts, links, absorbing)


def _merged_into(texts, index: int, translated: bool, paired: Sequence[Link]) -> Link | None:
    """The link, anywhere in the text, whose other side holds every identifier and number of the unpaired unit `index`
    while its own side holds none of them, and whose units read the unit above the cut, or None."""
    side, other_side = (texts.translated, texts.english) if translated else (texts.english, texts.translated)
    wanted = side[index].anchors
    if not wanted:
        return None
    for host in paired:
        own, theirs = (host.t, host.s) if translated else (host.s, host.t)
        if not wanted <= _anchors_of(other_side, theirs) or wanted & _anchors_of(side, own):
            continue
        cosines = texts.pair[index, list(theirs)] if translated else texts.pair[list(theirs), index]
        if float(cosines.max()) >= texts.cut:
            return host
    return None


def merged_afar(texts, links: list[Link]) -> list[Link]:
    """Links with each unpaired unit glued onto the link it was merged into out of its place (_merged_into): the
    translator said a sentence inside another one ("Estimate the transit time of the wagons; the target,
    `transit_hours`, runs from departure to arrival" for the English's first and third sentences), or made a sentence
    of a clause and moved it. A dropped sentence takes its identifiers with it; an invented one about a column stands
    beside that column's rendering, which its own side then holds."""
    return _glued_each(texts, links, _merged_into)


def in_place(texts, links: list[Link], span: float) -> list[Link]:
    """Links with each translated and English unit left unpaired alone in the same place paired (IN_PLACE), its
    length within a factor `span` of the usual ratio."""
    paired = [link for link in links if link.t and link.s]
    lone_t = [link for link in links if link.t and not link.s]
    lone_s = [link for link in links if link.s and not link.t]

    def place(index: int, translated: bool) -> tuple[bool, ...]:
        return tuple((max(link.t) < index) if translated else (max(link.s) < index) for link in paired)

    for t_link in lone_t:
        here = place(t_link.t[0], True)
        mates = [s for s in lone_s if place(s.s[0], False) == here]
        if len(mates) != 1 or sum(place(other.t[0], True) == here for other in lone_t) != 1:
            continue
        e, t = texts.english[mates[0].s[0]], texts.translated[t_link.t[0]]
        score = float(texts.pair[t_link.t[0], mates[0].s[0]])
        fits = abs(math.log(max(1, t.size) / max(1, e.size) / texts.typical)) <= math.log(span)
        if e.anchors == t.anchors and score >= texts.cut - IN_PLACE[texts.name] and (fits or e.size <= SHORT_SIZE):
            links[links.index(t_link)] = Link(t_link.t, mates[0].s, score)
            links.remove(mates[0])
    return links


def validated(texts, links: list[Link]) -> list[Link]:
    """A merge or split the alignment chose stands only if its weaker half passes the glue test against the stronger
    one; otherwise the stronger half is a pair and the weaker is left unpaired."""
    checked = []
    for place, link in enumerate(links):
        if len(link.t) + len(link.s) <= 2:
            checked.append(link)
            continue
        translated = len(link.t) == 2
        halves = link.t if translated else link.s
        scores = [float(texts.pair[h, link.s[0]] if translated else texts.pair[link.t[0], h]) for h in halves]
        strong, weak = (halves[0], halves[1]) if scores[0] >= scores[1] else (halves[1], halves[0])
        single = Link((strong,), link.s, max(scores)) if translated else Link(link.t, (strong,), max(scores))
        if absorbing(texts, weak, translated, [*links[:place], single, *links[place + 1:]], hosts=[single]):
            checked.append(link)
        else:
            checked += [single, Link((weak,), ()) if translated else Link((), (weak,))]
    return checked
