"""The language check: the translation is in the target language (no English left: curation/checks/not_copy.py).

language — every sentence reads as the target language, judged against the world (curation/checks/
language_id.py): a sentence of a neighbour language fails even when the project does not translate into that
neighbour. Hard evidence comes first and decides short texts alone: letters or spellings only a neighbour
writes (curation/checks/signs.py), kana in "Chinese", Chinese-only characters in "Japanese" (curation/checks/
han.py). Lingua then reads each sentence: a long one must be the target's with at least
`translate.min_confidence`, and none of its clauses a neighbour's (a phrase of another language inside it); a short
one (a tag, a data card line) fails only when the target gets next to no confidence at all. "Спорт" is Belarusian, Russian and Kazakh at once and passes; a short kanji-only tag
written with characters both languages use passes for Chinese and for Japanese.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from curation.checks.han import chinese_only, japanese_forms
from curation.checks.language_id import confidences, rivals, segments
from curation.checks.lexicon import lexicon
from curation.checks.prose import is_long, prose, quote, without_glosses, words
from curation.checks.scripts import ALLOWED, has_kana, letter_script
from curation.checks.signs import foreign_signs
from curation.checks.tags import is_acronym
from curation.config import Settings
from curation.languages import SUPPORTED, parse_language
from curation.records import CheckResult

# A short sentence fails when lingua gives the target less than this share among its rivals: a single word
# ("спорт", "sport") is shared by many languages and needs near-certainty, a phrase less so ("visione
# artificiale" for Romanian gets 0.11, "rețele sociale" 0.21). Calibrated on the seeded suite's tags.
SHORT_TARGET_UNLIKELY = 0.03
SHORT_PHRASE_UNLIKELY = 0.12
# A long sentence fails when another language gets this many times the target's confidence; the whole text
# fails when the target gets less than `translate.min_confidence`.
CLEAR_RIVAL = 2.0
# Lingua may name a neighbour of `needs_evidence` (curation/checks/lexicon/) without one of its words in the
# sentence only this sure: Russian sentences scored 0.97-1.0 against Kazakh and Belarusian on the calibration set,
# Kazakh lines full of loanwords up to 0.89.
SURE_WITHOUT_EVIDENCE = 0.95
# A clause of a sentence (between commas, colons, brackets or dashes) of at least CLAUSE_WORDS words and CLAUSE_LETTERS
# letters fails when a neighbour gets this many times the target's confidence. On the calibration sets correct
# clauses reached 2.6 (French "validez le sur le reste" as Romanian); clauses in a neighbour language 4 to 200.
CLAUSE_RIVAL = 4.0
CLAUSE_WORDS = 3
CLAUSE_LETTERS = 15
_CLAUSE = re.compile(r"[,;:()\u2014\u2013]|\s-\s")


def _fail(name: str, detail: str) -> CheckResult:
    return CheckResult(name=name, passed=False, detail=detail)


def check_language(translation: str, language: str, settings: Settings, names: Iterable[str] = (),
                   source: str = "", loans: Collection[str] = ()) -> CheckResult:
    """Each sentence reads as the target language, against every neighbour written in its script. An English gloss in
    brackets of the source's words or of its terms' English forms (`loans`) is no neighbour's spelling."""
    target = parse_language(language)
    candidates = rivals(target.code)
    english_words = {word.casefold() for word in words(prose(source, names))} | set(loans)
    allowed = ALLOWED[target.script] if target.script != "Han" else ALLOWED["Japanese"]
    text = prose(translation, names)
    lowest = 1.0
    seen = checked = 0
    long_scores: list[tuple[dict[str, float], int]] = []
    for line, sentence in segments(text):
        # Only letters of the target's script family: foreign words are the script check's business.
        # Digits tell lingua nothing; without them a sentence whose numbers changed is read from the cache.
        own = " ".join("".join(char if letter_script(char) in allowed or not (char.isalpha() or char.isdigit())
                               else " " for char in sentence).split())
        if target.script == "Latin" and english_words:
            # Words the English has ("ticket", "set", "test") say nothing of which Latin-script language the rest is.
            # (a hyphenated term as the English writes it too: "cross-validation", which words() cuts in two)
            kept = " ".join(word for word in own.split()
                            if not _english(words(word.casefold().strip(".,;:()«»\"'")), english_words))
            own = kept if len(words(kept)) >= 3 else own
        if not any(char.isalpha() for char in own):
            continue
        seen += 1
        where = f"line {line} {quote(sentence)}"
        sign = foreign_signs(without_glosses(sentence, english_words), target.code, english_words)
        if sign:
            return _fail("language", f"{where} is not {target.english}: {sign}")
        if target.code == "ja" and (chinese := chinese_only(own)):
            return _fail("language", f"{where} has Chinese characters Japanese is not written with: {''.join(chinese)}")
        if target.code == "zh" and has_kana(own):
            return _fail("language", f"{where} has kana: Japanese, not Chinese")
        if target.code == "zh" and (japanese := japanese_forms(own)):
            return _fail("language", f"{where} has Japanese forms of characters Chinese writes otherwise: "
                                     f"{''.join(japanese)}")
        if target.code in ("zh", "ja"):
            if target.code == "ja" and not has_kana(own) and is_long(own):
                return _fail("language", f"{where} has no kana: Chinese, not Japanese")
            continue  # otherwise the characters have told all lingua could
        scores = _without_impossible(confidences(own, candidates), own, target.code)
        best = max(scores, key=scores.get)
        mine = scores[target.code]
        if is_long(own):
            checked += 1
            lowest = min(lowest, mine)
            long_scores.append((scores, len(own)))
            if best != target.code and scores[best] >= CLEAR_RIVAL * mine:
                return _fail("language", f"{where} reads as {language_name(best)} ({scores[best]:.2f}), "
                                         f"{target.english} only {mine:.2f}")
            slip = _neighbour_clause(own, candidates, target.code)
            if slip:
                return _fail("language", f"{where} has a part in {language_name(slip[1])}: {quote(slip[0])} "
                                         f"({language_name(slip[1])} {slip[2]:.0f} times as likely as {target.english})")
            continue
        unlikely = SHORT_TARGET_UNLIKELY if len(words(own)) < 2 else SHORT_PHRASE_UNLIKELY
        if mine < unlikely and best != "en":
            return _fail("language", f"{where} reads as {language_name(best)} ({scores[best]:.2f}), "
                                     f"{target.english} only {mine:.2f}")
    if checked:
        # A sentence may be ambiguous among neighbours; a whole text, its sentences weighed by length, is not: the
        # target must win against its closest rival with `translate.min_confidence`.
        total: dict[str, float] = {}
        for scores, length in long_scores:
            for code, value in scores.items():
                total[code] = total.get(code, 0.0) + value * length
        rival = max((code for code in total if code != target.code), key=total.get)
        mine = total[target.code] / ((total[target.code] + total[rival]) or 1.0)
        if mine < settings.translate.min_confidence:
            return _fail("language", f"the text reads more as {language_name(rival)} than as {target.english} "
                                     f"({target.english} {mine:.2f} of the two, minimum {settings.translate.min_confidence})")
    if not seen and any(char.isalpha() for char in prose(source, names)) and not is_acronym(translation):
        return _fail("language", f"no text in the {target.script} script to read as {target.english}")
    if checked:
        detail = f"{checked} of {seen} sentence(s) identified as {target.english}, lowest confidence {lowest:.2f}"
    else:
        detail = f"{seen} short sentence(s), none with signs of another language"
    return CheckResult(name="language", passed=True, detail=detail)


def _english(parts: list[str], english_words: set[str]) -> bool:
    """Whether a word of the translation, cut into its parts, is a word of the English source."""
    return bool(parts) and set(parts) <= english_words


def _neighbour_clause(sentence: str, candidates: tuple[str, ...], target: str) -> tuple[str, str, float] | None:
    """A clause of a sentence that reads as a neighbour language, not English, CLAUSE_RIVAL times as likely as the
    target: a phrase of another language inside a sentence that reads as the target as a whole ("se han conservado
    tal cual" in Italian). Clauses of fewer than CLAUSE_WORDS words or CLAUSE_LETTERS letters say too little."""
    for clause in _CLAUSE.split(sentence):
        if len(words(clause)) < CLAUSE_WORDS or sum(map(len, words(clause))) < CLAUSE_LETTERS:
            continue
        scores = _without_impossible(confidences(clause, candidates), clause, target)
        mine = scores.get(target, 0.0)
        rival = max((code for code in scores if code not in (target, "en")), key=scores.get, default=None)
        if rival and scores[rival] >= CLAUSE_RIVAL * max(mine, 1e-3):
            return " ".join(clause.split()), rival, scores[rival] / max(mine, 1e-3)
    return None


def _without_impossible(scores: dict[str, float], sentence: str, target: str) -> dict[str, float]:
    """Lingua's scores without the rivals the sentence cannot be in: it has a letter of the target's alphabet that the
    rival's lacks ("қ" or "ү" in a Kazakh sentence full of Russian loans is not Russian; "ў" is not Russian), or the
    target's lexicon asks for a word of the rival as evidence, there is none and lingua is not sure."""
    words_ = lexicon(target)
    own = {char for char in sentence.casefold() if char in words_.alphabet}
    tokens = {word.casefold() for word in words(sentence)}
    kept = {}
    for code, score in scores.items():
        alphabet = lexicon(code).alphabet if code != target else frozenset()
        if alphabet and own - alphabet and all(char.isalpha() for char in own - alphabet):
            continue
        if (code in words_.needs_evidence and score < SURE_WITHOUT_EVIDENCE
                and not tokens & words_.evidence_words.get(code, frozenset())):
            continue
        kept[code] = score
    total = sum(kept.values()) or 1.0
    return {code: score / total for code, score in kept.items()}


def language_name(code: str) -> str:
    """The English name of a language code, for messages."""
    return SUPPORTED[code].english if code in SUPPORTED else code
