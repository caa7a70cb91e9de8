"""Clauses for the adequacy check (curation/checks/adequacy.py): a sentence's clauses, and the clause a translator
invented or left out inside a sentence that is otherwise whole, or made a sentence of its own.

Clauses are compared with USE only: on the calibration sets e5's cosines move as much when a correct clause is dropped
as when an invented one is, so for be, kk and ro the check works on whole sentences. `texts` below is adequacy's
reading of one English text and one translation (its units, their vectors, the encoder's cut).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from curation.checks.encoders import vectors
from curation.checks.glossary import Glossary, term_counts
from curation.checks.lexicon import lexicon
from curation.checks.prose import prose, prose_size, quote
from curation.checks.senses import lower, relations, senses

# Added clause: its (length fit) + 5 x (gain) passes CLAUSE_SCORE and it matches no English unit: invented clauses
# scored 0.41-2.2 (12 of 14 above 0.6), correct ones at most 0.52 but for one Arabic clause.
CLAUSE_SCORE = 0.6
# ... or its gain alone passes this (a sentence's length ratio is noisy: an invented clause gained 0.137 in Arabic
# while the length said otherwise; correct clauses gained at most 0.08, but for the one Arabic clause at 0.144).
CLAUSE_GAIN = 0.12
# Neither when every unit, scale, negation or bound word of it is in the English sentence as often (said_in_words).
# Omitted clause: dropping it from the English brings the English this much closer to the translation, and no
# translated unit says it (cosine below OMITTED_MATCH): dropped clauses gained 0.05-0.22 and matched at most 0.43;
# correct clauses that gained as much were said elsewhere in the translation (0.51-0.6).
# Nor when the translated sentence says every unit, scale, negation or bound word of the clause as often as the English
# sentence (said_in_words). Both: 8 calibration false alarms, no catch but coincidental ones lost (2026-11-27).
OMITTED_GAIN = 0.05
OMITTED_MATCH = 0.45
# An unpaired unit that matches a clause of its neighbour's partner this much above the cut is a clause the translator
# made a sentence of (USE only: invented sentences reached 0.058 on the calibration sets, bar two; under e5 as high as
# correct ones).
CLAUSE_HALF = {"use": 0.06}
_CLAUSE_END = re.compile(r"(?<=[,;:،؛，；、：])\s*|\s+[—–]\s+|\s+\(|\)\s+")
# A bracket that only glosses the term before it is part of that term's clause, not a clause of its own: in a
# translation the term's English words ("la metrica è il richiamo (recall)", up to three words), in English its
# acronym ("root mean squared error (RMSE)"). Cut off from its term, the English gloss made the rest of the sentence
# read closer to the English, and the term's clause looked invented or omitted: 16 calibration false alarms
# (2026-11-28), and the one omission this lost on the validation sets.
_GLOSS = {True: re.compile(r"\s+\(([A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*){0,2})\)"),
          False: re.compile(r"\s+\(([A-Z][A-Z0-9-]{1,7})\)")}
_HELD = ("\x00", "\x01")  # a gloss's brackets while the unit is cut (no text holds these characters)


def clauses(text: str, translated: bool = False, glosses: bool = True) -> list[str]:
    """A unit's clauses: its parts between commas, semicolons, colons, dashes and brackets, a bracket that glosses a
    term in the term's clause (`translated`: a unit of the translation, whose glosses are English words; not
    `glosses`: every bracket cut off)."""
    held = _GLOSS[translated].sub(lambda gloss: f"{_HELD[0]}{gloss.group(1)}{_HELD[1]}", text) if glosses else text
    parts = (part.strip(" ,;:)(") for part in _CLAUSE_END.split(held))
    return [part.replace(_HELD[0], " (").replace(_HELD[1], ")") for part in parts if part]


def _worth_testing(clause: str, phrase_end: re.Pattern[str] | None = None) -> bool:
    # A list item or a lone word ("Pclass,", "полу,") is not a clause that can carry invented content; nor is a
    # phrase the language ends with a particle ("提出ファイルには、": lexicon `phrase_end`).
    if phrase_end is not None and phrase_end.search(clause.rstrip("、,， ")):
        return False
    cjk = sum(1 for char in clause if "\u3040" <= char <= "\u9fff")
    return cjk >= 4 or len(re.findall(r"[^\W\d_]+", clause)) >= 3


def without_each_clause(plain: str, translated: bool = False, code: str = "") -> tuple[list[str], list[str]]:
    """The clauses of a unit worth testing and, for each, the unit without it (none for a single clause). `code`:
    the language of a translated unit, whose phrases (lexicon `phrase_end`) are no clauses."""
    parts = clauses(plain, translated)
    if len(parts) < 2:
        return [], []
    phrase_end = lexicon(code).phrase_end if translated and code else None
    chosen = [(i, part) for i, part in enumerate(parts) if _worth_testing(part, phrase_end)]
    return [part for _, part in chosen], [" ".join(parts[:i] + parts[i + 1:]) for i, _ in chosen]


def clause_match(texts, vector, indices: Sequence[int], translated: bool) -> float:
    """How well a unit's vector matches the closest clause of some units of one side (-1: no clause but the whole)."""
    plain = texts.t if translated else texts.e
    found = [clause for i in indices for clause in clauses(plain[i], translated)]
    if len(found) <= len(indices):
        return -1.0
    return float((vectors(texts.name, found) @ vector).max())


def best_match(name: str, clause: str, units, others: Sequence[str]) -> float:
    """How well a clause matches anything the other side says: any of its units, or a clause of the `others`
    ("单位均为平方英尺" is the English "all in square feet", a clause of a longer sentence; a clause the translator moved
    into the next sentence). The others are cut at every bracket: a clause may be said in a bracket, a gloss among
    them."""
    parts = [part for other in others for part in clauses(other, glosses=False)]
    vector = vectors(name, [clause])[0]
    best = float((units @ vector).max())
    return max(best, float((vectors(name, parts) @ vector).max())) if parts else best


def said_in_words(clause: str, its_sentence: Sequence, other_sentence: Sequence, code: str, english: bool = True,
                  glossary: Glossary | None = None) -> bool:
    """Whether the other side's sentence says every concept word of a clause (a unit, a scale word, a negation, a
    bound: curation/checks/meaning_words/) as often as the clause's own sentence does. An English clause the encoder
    misses whose words are all in the translation was said, in words the encoder weighs differently ("in tonnes per
    hectare", "where higher is better" as "da massimizzare"); a translated clause that says nothing the English sentence
    does not say as often invented nothing ("`english`: the clause is the English one, else the translation's).

    An English clause with glossary terms is said, too, when the translated sentence says its concept words and its
    terms as often ("because it causes leakage" as "リークにつながるため"). Not the other way: an invented clause
    repeats the sentence's terms as readily as a correct one ("proportional to their mean consumption")."""
    english_words, translated_words = senses("en"), senses(code)
    if english_words is None or translated_words is None:
        return False
    own, other = (english_words, translated_words) if english else (translated_words, english_words)
    own_code, other_code = ("en", code) if english else (code, "en")
    wanted = own.count(lower(prose(clause), own_code))
    del wanted[relations().clause]  # "and", "but" join clauses and say nothing ("esercente per esercente e settimana")
    terms = term_counts(glossary, clause, "en") if english and glossary else Counter()
    if not wanted and not terms:
        return False
    own_text = " ".join(prose(unit.text) for unit in its_sentence)
    other_text = " ".join(prose(unit.text) for unit in other_sentence)
    said_own, said_other = own.count(lower(own_text, own_code)), other.count(lower(other_text, other_code))
    if wanted and all(said_other[concept] >= said_own[concept] for concept in wanted):
        return True
    if not terms:
        return False
    said_own += term_counts(glossary, own_text, "en")
    said_other += term_counts(glossary, other_text, code)
    return all(said_other[concept] >= said_own[concept] for concept in wanted + terms)


def _near(plain: Sequence[str], indices: Sequence[int]) -> Sequence[str]:
    """Some units of one side and their neighbours: where a translator moves a clause (into the sentence before or
    after); a clause of a sentence further off that reads alike is a coincidence, not the clause moved."""
    return plain[max(0, min(indices) - 1):max(indices) + 2]


def clause_problems(texts, link) -> list[str]:
    """An invented clause in the translated side of a link, or an English clause missing from it."""
    name = texts.name
    t_text = " ".join(texts.t[t] for t in link.t)
    s_text = " ".join(texts.e[s] for s in link.s)
    t_vector, s_vector = texts.vector(True, link.t), texts.vector(False, link.s)
    current = float(t_vector @ s_vector)
    problems = []
    parts, rests = without_each_clause(t_text, translated=True, code=texts.code)
    if parts:
        gains = vectors(name, rests) @ s_vector - current
        english_size = max(1, prose_size(s_text))
        ratio = max(1, prose_size(t_text)) / english_size
        scores = [texts.fit(ratio, max(1, prose_size(rest)) / english_size, texts.typical) + 5 * float(gain)
                  for rest, gain in zip(rests, gains)]
        best = max(range(len(scores)), key=lambda i: (scores[i] > CLAUSE_SCORE or gains[i] > CLAUSE_GAIN, scores[i]))
        invented = scores[best] > CLAUSE_SCORE or gains[best] > CLAUSE_GAIN
        if (invented and best_match(name, parts[best], texts.vs, _near(texts.e, link.s)) < texts.cut
                and not said_in_words(parts[best], [texts.translated[t] for t in link.t],
                                      [texts.english[s] for s in link.s], texts.code, english=False)):
            unit = texts.translated[link.t[0]]
            problems.append(f"added: line {unit.line} clause {quote(parts[best], 40)} of {quote(t_text, 40)} is not "
                            f"in the English (the sentence matches it better without: +{float(gains[best]):.2f})")
    parts, rests = without_each_clause(s_text)
    if parts:
        gains = vectors(name, rests) @ t_vector - current
        best = int(gains.argmax())
        if (gains[best] > OMITTED_GAIN and best_match(name, parts[best], texts.vt, _near(texts.t, link.t)) < OMITTED_MATCH
                and not said_in_words(parts[best], [texts.english[s] for s in link.s],
                                      [texts.translated[t] for t in link.t], texts.code, glossary=texts.glossary)):
            unit = texts.english[link.s[0]]
            problems.append(f"omitted: English line {unit.line} clause {quote(parts[best], 40)} is not in the "
                            f"translation (the English matches it better without: +{float(gains[best]):.2f})")
    return problems
