"""Conditions and scopes a translation left out of a sentence it otherwise renders: "for each store", "within the
first year", "excluding weekends", "unless it is in English", "during the maintenance window".

Such a phrase is a few words of a long sentence, so the sentence's cosine with its English barely moves when it is
dropped, and no word list can tell "for each" rendered by a plural from "for each" left out. The encoder can say which
of two English sentences the translation reads closer to: the whole one, or the one without the phrase. A translation
that keeps the phrase reads closer to the whole English; one that dropped it, to the English without it.

Only the English side is read for phrases (from a condition word to the next comma, colon, semicolon, bracket or
sentence end, or to the next "and"/"or"/"but"/"so"; a prepositional phrase stops before a verb of the sentence), so
the test works alike in every language the encoder reads. Under e5 (be, kk, ro: a millisecond a token) only the
translated sentences the alignment embedded anyway are compared, never one a run settled in its place (it borrows its
English sentence's vector, which cannot be compared) nor a merge (its vector is estimated from its halves).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from curation.checks.clauses import said_in_words
from curation.checks.encoders import vectors
from curation.checks.glossary import Glossary
from curation.checks.prose import quote

# How much closer the translation must read to the English without the phrase than to the whole English. On the
# calibration and validation sets (correct translations of descriptions and data cards in the nine USE languages,
# 2026-11-28): 6 of 4,682 correct texts reached 0.05 and 57 of the 436 dropped conditions no other check caught; at
# 0.04, 13 and 68; at 0.03, 27 and 78 (before the guards below, which took the six).
# e5's cosines lie in a narrow band (its pairing cut is 0.78-0.82 where USE's is 0.37-0.49): on the same sets, no
# correct text reached 0.015 and 5 reached 0.01, for 20 dropped conditions more in be, kk and ro at 0.02 (2026-11-28).
SCOPE_GAIN = {"use": 0.05, "e5": 0.02}

# The words that open a condition or a scope. "per", "by", "with", "after" and relative clauses ("that", "which")
# were tried too: correct translations moved as far from their English without them as broken ones did (per: 70
# correct texts against 25 dropped conditions at 0.03). So was "only": translators recast it ("reserved for",
# "only the earliest scan" as "the first scan"), 2 false alarms for 3 catches.
_OPENS = re.compile(r"(?:(?<=\s)|^)(?:for (?:each|every)|within|excluding|except|unless|if|during|"
                    r"(?:in|of|from) the same)\b", re.IGNORECASE)
_SUBORDINATE = re.compile(r"(?:if|unless)\b", re.IGNORECASE)
_ENDS = re.compile(r"[,;:()]|\.(?=\s|$)")
_JOINS = re.compile(r"\s(?:and|but|or|so)\s")
# A prepositional phrase in the subject runs into the sentence's verb ("transfers within the same bank are included"):
# it ends before it, unless a relative word opened a clause of the phrase's own ("for each customer who is active").
_VERB = re.compile(r"(?<!\bwho)(?<!\bthat)(?<!\bwhich)(?<!\bwhere)(?<!\bwhen)\s(?:is|are|was|were|must|may|can|should|"
                   r"will|has|have)\b")
# Numbers and identifiers a phrase names: when the translation has every one of them, the phrase is there (a number
# or an identifier the translation lost is the numbers and placeholders checks' to report).
_NAMED = re.compile(r"\d+(?:[.,]\d+)?|\b\w+_\w+\b|\b\w+\.(?:csv|parquet|json|jsonl|tsv|txt|zip)\b")
# A phrase shorter than this says nothing on its own; one longer than this share of its sentence is the sentence.
_SHORTEST, _LARGEST_SHARE = 6, 0.85


def scope_phrases(plain: str) -> list[tuple[str, str]]:
    """Each condition phrase of an English sentence and the sentence without it."""
    found = []
    for opening in _OPENS.finditer(plain):
        start = opening.start()
        end = _ENDS.search(plain, opening.end())
        ends = {end.start() if end else len(plain)}
        join = _JOINS.search(plain, opening.end())
        if join and join.start() < min(ends):
            ends.add(join.start())  # "for each store and item": the phrase up to "and", and up to the comma
        verb = None if _SUBORDINATE.match(opening.group(0)) else _VERB.search(plain, opening.end(), min(ends))
        for stop in sorted({verb.start()} if verb else ends):
            phrase = plain[start:stop].strip()
            if _SHORTEST <= len(phrase) <= _LARGEST_SHARE * len(plain):
                found.append((phrase, " ".join((plain[:start] + " " + plain[stop:]).split())))
    return list(dict.fromkeys(found))


def left_out(english: Sequence, translated: Sequence, links: Sequence, translation: str, code: str, encoder: str,
             glossary: Glossary | None = None) -> list[str]:
    """The condition phrases the linked translated sentences read without (English and translated units, adequacy's
    links between them; `translation`: the whole translated text, `code` its language, `encoder` the one that reads
    it)."""
    asked = []  # (link, its phrases, [its translation, its English, the English without each phrase])
    for link in links:
        if not (link.s and link.t) or (encoder == "e5" and not _embedded(link, translated)):
            continue
        e_text = " ".join(english[i].plain for i in link.s)
        candidates = [(phrase, rest) for phrase, rest in scope_phrases(e_text) if not _named_in(phrase, translation)]
        if candidates:
            t_text = " ".join(translated[i].plain for i in link.t)
            phrases, rests = zip(*candidates)
            asked.append((link, phrases, [t_text, e_text, *rests]))
    # one encoder call for the whole text (each call has a cost of its own)
    vectors.prefetch(encoder, [text for _, _, texts in asked for text in texts])
    problems = []
    for link, phrases, texts in asked:
        found = vectors(encoder, texts)
        gains = found[2:] @ found[0] - float(found[0] @ found[1])
        best = int(gains.argmax())
        if gains[best] <= SCOPE_GAIN[encoder]:
            continue
        # the words of the phrase the word lists know (each, within, except, a unit) said in the translated sentence as
        # often as in the English one: the phrase is there, in words the encoder weighs lightly (as for a clause)
        e_units, t_units = [english[i] for i in link.s], [translated[i] for i in link.t]
        if said_in_words(phrases[best], e_units, t_units, code, glossary=glossary):
            continue
        problems.append(f"condition: line {t_units[0].line} {quote(t_units[0].text, 40)} leaves out "
                        f"{quote(phrases[best], 50)} of English line {e_units[0].line} (it reads closer to the English "
                        f"without it: +{float(gains[best]):.2f})")
    return problems


def _embedded(link, translated: Sequence) -> bool:
    """Under e5: whether the link's one translated sentence was embedded for the alignment (not settled in its place,
    not a merge), so comparing it costs nothing more."""
    return len(link.t) == 1 and vectors.has("e5", translated[link.t[0]].plain)


def _named_in(phrase: str, translation: str) -> bool:
    named = _NAMED.findall(phrase)
    return bool(named) and all(name in translation for name in named)
