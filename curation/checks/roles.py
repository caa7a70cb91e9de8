"""Roles of identifiers: each protected token stays in the sentence that renders the English sentence holding it,
and keeps its part there.

A fluent translation that keeps every identifier can still swap two of them: train on `test.csv` and predict for
`train.csv`, `label` as the key and `id` as the target, pixels inside the mask 0 and outside 1. These tests, on the
sentences the adequacy check aligned (the whole text when there is no alignment):

- place: identifier X is in the translation of the English sentence that holds Y, and Y in the translation of the
  one that holds X (a list item's name swapped with another's);
- operands: two identifiers the English gives an order with an operator, named side by side the other way round
  (curation/checks/operands.py);
- provenance: two files exchanged as the one the data is taken from ("predict for `test.csv` from `train.csv`";
  curation/checks/provenance.py);
- partner: within one aligned pair, each identifier or number gets its partner, the nearest word in its clause that
  gives it a part (train, evaluate, predict, key — curation/checks/meaning_words/, [roles] of concepts.toml — or a side
  of an opposite pair: inside/outside, before/after); X having Y's English partner and Y having X's is a swap, and
  so is Y having X's English part while X has none (the other identifier's word is often no role word: "submit
  for");
- surroundings: two identifiers of an aligned pair whose surrounding words in the translation read like each other's
  in the English (the sentence encoder; curation/checks/contexts.py), where no rule above found a swap (USE
  languages written with spaces).

Only exchanges count: an identifier that merely moved to a neighbouring sentence, or lost its partner to a
rephrasing that gives the part to no other identifier, is not a role changed. What these rules cannot decide is the
`qe` role's to judge.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from curation.checks.units import BULLET, Unit, units
from curation.checks.alignment import recalled
from curation.checks.anchors import TOLD, Anchor, anchors
from curation.checks.contexts import IDENTIFIER, PLAIN_NAME, context_swaps
from curation.checks.encoders import encoder_name
from curation.checks.masking import mask_identifiers
from curation.checks.operands import operand_swaps
from curation.checks.prose import quote
from curation.checks.provenance import sources, source_swaps
from curation.checks.senses import Find, Senses, lower, relations, senses
from curation.languages import parse_language
from curation.records import CheckResult

NAME = "roles"
# A number or a negation goes with a glossary term only this many words away, short words not counted ("a fixed
# precision of 0.9", "pas d'une régression"); further off, word order decides which term is nearest.
TERM_REACH = 1


def _families() -> tuple[frozenset[str], ...]:
    """The kinds of partner, each looked for on its own: the role words, and the sides of the opposite pairs (a
    number may have both: "pixels inside the mask are labelled 1")."""
    rel = relations()
    sides = {concept for _, one, other in rel.axes.values() for concept in (one, other)}
    return frozenset(rel.roles), frozenset(sides)


def _links(source: str, translation: str, language: str, names: tuple[str, ...]
           ) -> tuple[list[Unit], list[Unit], list[tuple[tuple[int, ...], tuple[int, ...]]]]:
    english, translated = units(source, names), units(translation, names)
    links = recalled((source, translation, language, names))
    if links:
        pairs = [(link.s, link.t) for link in links if link.s and link.t]
    else:
        pairs = [(tuple(range(len(english))), tuple(range(len(translated))))]
    return english, translated, pairs


def _identifiers(found: Sequence[Unit], names: tuple[str, ...]) -> set[str]:
    return {span for unit in found for span in mask_identifiers(unit.text, names).spans}


def _place_swaps(english: list[Unit], translated: list[Unit], pairs, names: tuple[str, ...]) -> list[str]:
    """Identifiers exchanged between the translations of two English sentences."""
    home_e = [_identifiers([english[i] for i in s], names) for s, _ in pairs]
    home_t = [_identifiers([translated[i] for i in t], names) for _, t in pairs]
    problems = []
    for a in range(len(pairs)):
        for b in range(a + 1, len(pairs)):
            gone_a = (home_e[a] - home_t[a]) & (home_t[b] - home_e[b])
            gone_b = (home_e[b] - home_t[b]) & (home_t[a] - home_e[a])
            if gone_a and gone_b:
                x, y = sorted(gone_a)[0], sorted(gone_b)[0]
                where_a, where_b = translated[pairs[a][1][0]], translated[pairs[b][1][0]]
                problems.append(f"role: {x} moved to line {where_b.line} {quote(where_b.text)} and {y} to line "
                                f"{where_a.line} {quote(where_a.text)}; the English has them the other way round")
    return problems


def _partner_swaps(e_anchors: list[Anchor], t_anchors: list[Anchor], where: Unit,
                   lines: Sequence[Unit] = ()) -> list[str]:
    """X having Y's English part and Y having X's; named at `where`, or at the one of `lines` (the whole text's)
    that holds X."""
    e, t = _roles(e_anchors), _roles(t_anchors)
    shared = sorted(set(e) & set(t))
    for i, x in enumerate(shared):
        for y in shared[i + 1:]:
            if (e[x] & t[y] and e[y] & t[x] and not e[x] & t[x] and not e[y] & t[y]
                    and not e[x] & e[y]):
                where = next((unit for unit in lines if x in unit.text), where)
                return [f"role: line {where.line} {quote(where.text)} gives {x} the part of {y} "
                        f"({_word(t_anchors, x)!r}) and {y} the part of {x} ({_word(t_anchors, y)!r}); the English "
                        f"has {x} with {_word(e_anchors, x)!r} and {y} with {_word(e_anchors, y)!r}"]
    return []


# An identifier that names a file or a folder (`train.csv`, `images/`), as against a column.
_FILE = re.compile(r"\.[A-Za-z0-9]{2,7}`$|/`$")
# An identifier that names an id column: predictions are given "for each `encounter_id`", which word order may put
# beside the word for predicting as easily as the target column.
_ID = re.compile(r"(?:^`|_)id`$", re.IGNORECASE)


def _head(text: str) -> str | None:
    """The identifier a list item (or a line of a data card) is about: the one it opens with, its description after it
    ("- `label`: target class ...")."""
    item = BULLET.sub("", text, count=1)
    named = IDENTIFIER.match(item)
    return named.group(0) if named and TOLD.match(item, named.end()) else None


def _opens_values(text: str, word: str, value: str) -> bool:
    """Whether a role word comes before an identifier with a dash or a colon between: "target class — `benign`" names
    the values of what the list item is about."""
    said = re.search(re.escape(word), text, re.IGNORECASE) if word else None  # (case folding may change lengths)
    end = text.find(value)
    return said is not None and said.start() < end and bool(re.search(r"\s[—–]\s|[:：]", text[said.start():end]))


# Two identifiers named together ("`a`, `b`", "`a` and `b`", "`a` or `b`"); the second in a lookahead, so that a list
# of three yields both of its neighbouring pairs.
_TOGETHER = re.compile(r"(`[^`\n]+`)\s*(?:,|and|or)\s*(?=(`[^`\n]+`))")


def _roles(found: list[Anchor]) -> dict[str, set[str]]:
    table: dict[str, set[str]] = {}
    for anchor in found:
        if anchor.partner:
            table.setdefault(anchor.value, set()).update(anchor.partner)
    return table


def _word(found: list[Anchor], value: str) -> str:
    return next((anchor.word for anchor in found if anchor.value == value and anchor.word), "")


def _partner_moves(e_anchors: list[Anchor], t_anchors: list[Anchor], english: str, translated: str, where: Unit,
                   code: str, names: tuple[str, ...]) -> list[str]:
    """A part the English gives identifier X that the translation gives identifier Y instead, X left with no part:
    "train on `train.csv`, submit for `test.csv`" as "train on `test.csv`, submit for `train.csv`", where "submit"
    gives no part for the rule above to see exchanged. Only between two files or two columns (a target column and
    its test file both go with "predict"), not between identifiers the English names together ("`timestamp` and
    `substation_id` identify a row"), and not "predict" moving to an id column. On the calibration sets (2026-11-26)
    this caught 46 role swaps the exchange rule missed and raised no false alarm on 2,504 correct translations.

    Nor between what is no plain name (`index=False`, `id,prob`: code or a format), nor away from the identifier a list
    item is about onto the values its description names ("- `label`: ...; target class — `benign`": the item's words
    describe its head, however the translator orders its clauses), nor onto a file both sides take the data from
    ("predict for `test.csv`, using `train.csv`" as "on the basis of `train.csv`, predict for `test.csv`": the verb is
    nearest to the source). The calibration sets' nine role false alarms were these (2026-11-29)."""
    e, t = _roles(e_anchors), _roles(t_anchors)
    shared = sorted({a.value for a in e_anchors if a.value.startswith("`")} & {a.value for a in t_anchors})
    shared = [value for value in shared if PLAIN_NAME.match(value)]
    partless = [x for x in shared if not t.get(x)]
    if not partless:  # (the common case: the sentences below need not be read again)
        return []
    together = {frozenset(match.groups()) for match in _TOGETHER.finditer(english)}
    heads = {_head(english), _head(translated)}
    from_both = {name for name, marked in sources(english, "en", names).items()
                 if marked and sources(translated, code, names).get(name)}
    for x in partless:
        head = len(heads) == 1 and x in heads
        for y in shared:
            if y == x or bool(_FILE.search(x)) != bool(_FILE.search(y)) or y in from_both:
                continue
            if head and _opens_values(translated, _word(t_anchors, y), y):
                continue
            if frozenset((x, y)) in together:
                continue
            for part in sorted(e.get(x, set()) & t.get(y, set()) - e.get(y, set())):
                if part == "predict" and _ID.search(y):
                    continue
                return [f"role: line {where.line} {quote(where.text)} puts {_word(t_anchors, y)!r} ({part}) with {y}; "
                        f"the English puts {_word(e_anchors, x)!r} with {x}"]
    return []


def check_roles(source: str, translation: str, language: str, names: Iterable[str] = ()) -> CheckResult:
    """Identifiers in the sentences and the parts the English gives them, not exchanged."""
    code = parse_language(language).code
    english_words, translated_words = senses("en"), senses(code)
    if english_words is None or translated_words is None:
        return CheckResult(name=NAME, passed=True, detail=f"not checked: no word list for {language}")
    names = tuple(names)
    english, translated, pairs = _links(source, translation, language, names)
    if not english or not translated:
        return CheckResult(name=NAME, passed=True, detail="no sentences to compare")
    problems = (_place_swaps(english, translated, pairs, names) + operand_swaps(source, translation, code)
                + source_swaps(english, translated, pairs, code, names))
    role_words = _families()[0]
    # each sentence's anchors, read once per family: the pairs and the whole text below both use them
    read = {family: ([anchors(unit.text, english_words, names, family) for unit in english],
                     [anchors(unit.text, translated_words, names, family) for unit in translated])
            for family in _families()}
    for s, t in pairs:
        for family, (e_read, t_read) in read.items():
            e_anchors = [a for i in s for a in e_read[i]]
            t_anchors = [a for i in t for a in t_read[i]]
            swaps = _partner_swaps(e_anchors, t_anchors, translated[t[0]], [translated[i] for i in t])
            if not swaps and family == role_words:
                swaps = _partner_moves(e_anchors, t_anchors, " ".join(english[i].text for i in s),
                                       " ".join(translated[i].text for i in t), translated[t[0]], code, names)
            problems += swaps
    if not problems and encoder_name(language) == "use" and parse_language(language).script not in ("Han", "Japanese"):
        # no role word decided it: the words around each identifier may (curation/checks/contexts.py)
        problems += next((found for s, t in pairs
                          if (found := context_swaps([english[i] for i in s], [translated[i] for i in t]))), [])
    if not problems and len(pairs) > 1:
        # across sentences too: list items that exchange their descriptions ("- `enrollment_id`: the target" and
        # "- `dropout`: the key"), each item a sentence of its own; identifiers only, a number's part is its sentence's
        e_read, t_read = read[role_words]
        problems += _partner_swaps([a for found in e_read for a in found if a.value.startswith("`")],
                                   [a for found in t_read for a in found if a.value.startswith("`")], translated[0],
                                   translated)
    if problems:
        return CheckResult(name=NAME, passed=False, detail="; ".join(problems))
    return CheckResult(name=NAME, passed=True, detail="identifiers in their sentences and parts")


def term_partners(groups: dict[str, str], english_terms: Senses, translated_terms: Senses, source: str,
                  translation: str, language: str, names: tuple[str, ...]) -> list[str]:
    """A number or a negation that goes with another term (of the same group, `groups`: term -> group; the terms'
    words in `english_terms` and `translated_terms`) than in the English: "recall at a precision of 0.9" rendered as
    "precision at a recall of 0.9", "a classification, not a regression" as "a regression, not a classification".
    The English negation must stand right beside its term ("not a regression"; "none of the participants in the test
    file" negates no term); the translation may put a word between ("а не бінарнай класіфікацыі", "分類ではなく")."""
    code = parse_language(language).code
    english_words, translated_words = senses("en"), senses(code)
    if english_words is None or translated_words is None:
        return []
    english, translated, pairs = _links(source, translation, language, names)
    problems = []
    for s, t in pairs:
        e = {a.value: a for i in s for a in anchors(english[i].text, english_words, names,
                                                     marks=english_terms.finds, negations=True, reach=TERM_REACH,
                                                     negation_reach=0)
             if a.partner}
        tr = {a.value: a for i in t for a in anchors(translated[i].text, translated_words, names,
                                                      marks=translated_terms.finds, negations=True, reach=TERM_REACH)
              if a.partner}
        # negations are numbered in reading order: with more on one side than the other, ¬1 is not the same negation
        same_negations = (sum(1 for i in s for _ in _negations(english[i].text, english_words, names))
                          == sum(1 for i in t for _ in _negations(translated[i].text, translated_words, names)))
        for value in sorted(set(e) & set(tr)):
            if not ((value.startswith("¬") and same_negations) or (value[0].isdigit() and "." in value)):
                continue  # a threshold (0.9, 0.5) goes with its metric; a count, an identifier with anything near
            was, now = e[value].partner, tr[value].partner
            if was & now:
                continue
            if any(groups.get(a) == groups.get(b) for a in was for b in now):
                where = translated[t[0]]
                said = "a negation" if value.startswith("¬") else value
                problems.append(f"term: line {where.line} {quote(where.text)} puts {said} with {now and tr[value].word!r} "
                                f"({', '.join(sorted(now))}); the English puts it with {e[value].word!r} "
                                f"({', '.join(sorted(was))})")
    return problems


def _negations(text: str, words: Senses, names: tuple[str, ...]) -> list[Find]:
    rel = relations()
    return [find for find in words.finds(lower(mask_identifiers(text, names).text, words.code)) if rel.strong in find.concepts]
