"""The language checks: the translation is in the target language, and no English is left in it.

language — every sentence reads as the target language, judged against the world (curation/checks/
language_id.py): a sentence of a neighbour language fails even when the project does not translate into that
neighbour. Hard evidence comes first and decides short texts alone: letters or spellings only a neighbour
writes (curation/checks/signs.py), kana in "Chinese", Chinese-only characters in "Japanese" (curation/checks/
han.py). Lingua then reads each sentence: a long one must be the target's with at least
`translate.min_confidence`, and none of its clauses a neighbour's (a phrase of another language inside it); a short
one (a tag, a data card line) fails only when the target gets next to no confidence at all. "Спорт" is Belarusian, Russian and Kazakh at once and passes; a short kanji-only tag
written with characters both languages use passes for Chinese and for Japanese.

not_copy — the translation is not the English source echoed back, and no English is left in it: a sentence or
a bullet line copied from the source or still reading as English, a clause of the English left inside a translated
sentence, or half of a tag left in English.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from curation.checks.han import chinese_only
from curation.checks.language_id import confidences, rivals, segments
from curation.checks.lexicon import lexicon
from curation.checks.prose import is_long, normal, prose, quote, words
from curation.checks.scripts import ALLOWED, has_kana, letter_script, letter_scripts
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
# An English sentence counts as left over when lingua gives English at least this share among the rivals ...
ENGLISH_LEFTOVER = 0.6
# ... and Latin letters are at least this share of the sentence's letters.
ENGLISH_MAJORITY = 0.6
# A line of at least this many words, this share of which are words of the English source, is English left.
COPIED_WORDS = 3
COPIED_SHARE = 0.75
# This many words of the English in a row inside a translated sentence are a clause left in English ("(sampled at
# 10 m resolution)" kept in a Russian sentence), when they read as English (Latin-script targets share short words
# with English: "a", "in", "per"); three are when one is a function word ("with a header"): a term a translator keeps
# in English has none ("run length encoding").
ENGLISH_RUN = 4
ENGLISH_CLAUSE_RUN = 3
# A word of a tag shared with the English source is English (not a loan) when lingua gives English this
# share against the target alone ("energy" in French 0.97, "medical" in Spanish 0.65). Words the language writes
# exactly as English does ("transport" in Polish, 0.64) are listed as its loans in curation/checks/lexicon/.
ENGLISH_WORD = 0.6
# English words the Latin-script targets write as their own: never "English left" in a tag (more per language in
# curation/checks/lexicon/).
LOANS = frozenset({"marketing", "media", "sport", "test", "data", "online", "design", "software", "internet", "web",
                   "email", "blog", "startup", "fitness", "streaming", "hardware"})


def _fail(name: str, detail: str) -> CheckResult:
    return CheckResult(name=name, passed=False, detail=detail)


def check_language(translation: str, language: str, settings: Settings, names: Iterable[str] = (),
                   source: str = "") -> CheckResult:
    """Each sentence reads as the target language, against every neighbour written in its script."""
    target = parse_language(language)
    candidates = rivals(target.code)
    english_words = {word.casefold() for word in words(prose(source, names))}
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
            kept = " ".join(word for word in own.split() if word.casefold().strip(".,;:()«»\"'") not in english_words)
            own = kept if len(words(kept)) >= 3 else own
        if not any(char.isalpha() for char in own):
            continue
        seen += 1
        where = f"line {line} {quote(sentence)}"
        sign = foreign_signs(sentence, target.code)
        if sign:
            return _fail("language", f"{where} is not {target.english}: {sign}")
        if target.code == "ja" and chinese_only(own):
            return _fail("language", f"{where} has Chinese characters Japanese is not written with: "
                                     f"{''.join(chinese_only(own))}")
        if target.code == "zh" and has_kana(own):
            return _fail("language", f"{where} has kana: Japanese, not Chinese")
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


# -- not a copy ------------------------------------------------------------------------------------


def _loan(text: str, language: str) -> bool:
    """Whether a Latin-script text identical to the English may be the target's own words.

    A word is when the language's lexicon lists it as a loan it writes unchanged ("marketing" in Polish) or when it
    reads at least as much like the target as like English ("finance" in French, not "synthetic"); a short phrase
    is when it reads more like the target than like English ("social media" in Italian); a sentence never is."""
    if is_long(text):
        return False
    if len(words(text)) == 1 and text.strip().casefold() in lexicon(language).loans:
        return True
    scores = confidences(text, rivals(language))
    return scores.get(language, 0.0) >= scores.get("en", 0.0)


def _english_word(word: str, language: str, script: str) -> bool:
    """Whether a word the translation shares with the English source is English left in it, not a loan."""
    if word[0].isupper() or len(word) < 3:
        return False  # names, acronyms, "e" of e-commerce
    if script != "Latin":
        return True  # a lowercase English word in Cyrillic, Arabic or CJK text is untranslated ("社交 media")
    words_ = lexicon(language)
    if word.casefold() in LOANS or word.casefold() in words_.loans:
        return False
    if words_.native_ending is not None and not words_.native_ending.search(word.casefold()):
        return True  # "content" in Italian: no Italian word ends so
    scores = confidences(word, (language, "en"))
    return scores["en"] >= ENGLISH_WORD


def _shared(word: str, source_words: set[str]) -> bool:
    """Whether a word is one of the source's, give or take an English ending (image, images)."""
    word = word.casefold()
    return any(word == other or (word.startswith(other) and len(word) - len(other) <= 2 and len(other) >= 4)
               or (other.startswith(word) and len(other) - len(word) <= 2 and len(word) >= 4) for other in source_words)


# A gloss is a term, not a clause: at most this many English words in its parentheses.
GLOSS_WORDS = 4


def _english_run(sentence: str, source_words: set[str], language: str, script: str,
                 terms: tuple[tuple[str, ...], ...] = ()) -> str | None:
    """The longest run of ENGLISH_RUN or more words of the English source in a row (nothing but spaces and
    punctuation between them) that reads as English, or None: a clause or a parenthesis the translator left. Words
    of an ML term of the glossary (`terms`: its English forms as words) do not count: practitioners keep "stratified
    group k-fold" or "recall" in English, and a run that is such terms is no clause left untranslated."""
    runs: list[list[str]] = [[]]
    end = 0
    for match in re.finditer(r"[^\W\d_]+(?:['’ʼ][^\W\d_]+)*", sentence):
        word = match.group(0)
        shared = letter_script(word[0]) == "Latin" and word.casefold() in source_words
        if not shared or re.search(r"[^\s,;:()\-–—\"'«»“”]", sentence[end:match.start()]):
            runs.append([])
        if shared:
            runs[-1].append(word)
        end = match.end()
    runs = [run for run in runs if len(run) - _term_words(run, terms) >= ENGLISH_CLAUSE_RUN]
    clause = [run for run in runs if len(run) - _term_words(run, terms) >= ENGLISH_RUN or (
        {word.casefold() for word in run} & lexicon("en").function_words)]
    if not clause:
        return None
    longest = " ".join(max(clause, key=len))
    if script == "Latin":
        scores = confidences(longest, rivals(language))
        if scores.get("en", 0.0) < ENGLISH_LEFTOVER or max(scores, key=scores.get) != "en":
            return None
    return longest


def _term_words(run: list[str], terms: tuple[tuple[str, ...], ...]) -> int:
    """How many words of a run belong to an English glossary term said in it."""
    return sum(_in_terms(run, terms))


def _in_terms(run: list[str], terms: tuple[tuple[str, ...], ...]) -> list[bool]:
    """For each word of a run, whether it belongs to an English glossary term said there (longest terms first, no
    overlap)."""
    folded = [word.casefold() for word in run]
    covered = [False] * len(folded)
    for term in terms:
        size = len(term)
        for start in range(len(folded) - size + 1):
            if tuple(folded[start:start + size]) == term and not any(covered[start:start + size]):
                covered[start:start + size] = [True] * size
    return covered


def glossary_terms(settings: Settings) -> tuple[tuple[str, ...], ...]:
    """The English forms of the project's glossary terms as lowercase words, longest first (none without one)."""
    from curation.checks.glossary import GlossaryError, load_glossary

    try:
        glossary = load_glossary(settings.path("glossary"))
    except GlossaryError:
        return ()
    return _term_tuples(glossary)


@lru_cache(maxsize=8)
def _term_tuples(glossary) -> tuple[tuple[str, ...], ...]:  # a Glossary: one object per file version
    forms = {tuple(word.casefold() for word in words(form.replace("*", "")))
             for entry in glossary.entries for form in entry.forms.get("en", ()) if not form.startswith("re:")}
    return tuple(sorted((form for form in forms if form), key=len, reverse=True))


def _outside_parentheses(source_prose: str) -> str:
    """The English words outside its parentheses, lowercased and spaced on both ends, for _without_glosses."""
    return " " + " ".join(words(re.sub(r"\([^()]*\)", " ", source_prose))).casefold() + " "


def _without_glosses(sentence: str, outside: str) -> str:
    """The sentence without its parentheses that hold an English term of the source which the source writes outside
    parentheses (`outside`: _outside_parentheses): a gloss beside its rendering ("пунктуальность (on-time performance,
    OTP)" for "on-time performance (OTP)"). A parenthesis the English has too ("(in seconds)") left in English is still
    an English run."""

    def gloss(match: re.Match) -> str:
        latin = [word for word in words(match.group(1)) if letter_script(word[0]) == "Latin"]
        phrase = " ".join(latin).casefold()
        return " " if latin and len(latin) <= GLOSS_WORDS and f" {phrase} " in outside else match.group(0)

    return re.sub(r"\(([^()]*)\)", gloss, sentence)


def check_not_copy(source: str, translation: str, language: str, settings: Settings, names: Iterable[str] = ()) -> CheckResult:
    """The translation is not the English source, and no English sentence, line or half tag is left in it."""
    target = parse_language(language)
    if target.code == settings.project.source_language:
        return CheckResult(name="not_copy", passed=True, detail="the source language itself")
    source_prose, translated_prose = prose(source, names), prose(translation, names)
    if normal(translated_prose) and normal(translated_prose) == normal(source_prose):
        if target.script != "Latin" or not _loan(translated_prose, target.code):
            return _fail("not_copy", "the translation is the English source unchanged")
        return CheckResult(name="not_copy", passed=True, detail="a word the target writes as English does")
    source_words = {word.casefold() for word in words(source_prose)}
    source_sentences = {normal(sentence) for _, sentence in segments(source_prose)}
    outside = _outside_parentheses(source_prose)
    terms = glossary_terms(settings)
    for line, sentence in segments(translated_prose):
        latin = [word for word in words(sentence) if letter_script(word[0]) == "Latin"]
        if len(latin) >= COPIED_WORDS and normal(sentence) in source_sentences:
            return _fail("not_copy", f"line {line} {quote(sentence)} is copied from the English source")
        shared = [word for word in latin if word.casefold() in source_words]
        if len(latin) >= COPIED_WORDS and len(shared) >= COPIED_SHARE * len(words(sentence)):
            return _fail("not_copy", f"line {line} {quote(sentence)} is still English (its words are the source's)")
        scripts = letter_scripts(sentence)
        # In a Cyrillic, Arabic or CJK text an English title quoted inside a sentence is fine; a sentence that is
        # mostly Latin letters is an untranslated one.
        # ML terms kept in English ("macro average 和 weighted average") are loanwords, not English left over; a
        # sentence copied whole is caught above whatever its words
        in_terms = _in_terms(latin, terms)
        termed_letters = sum(len(word) for word, term in zip(latin, in_terms) if term)
        mostly_latin = scripts["Latin"] - termed_letters >= ENGLISH_MAJORITY * (sum(scripts.values()) - termed_letters)
        latin_text = " ".join(word for word, term in zip(latin, in_terms) if not term)
        if is_long(latin_text) and mostly_latin:
            scores = confidences(latin_text, rivals(target.code))
            english = scores.get("en", 0.0)
            if english >= ENGLISH_LEFTOVER and max(scores, key=scores.get) == "en":
                return _fail("not_copy", f"line {line} {quote(sentence)} is still English ({english:.2f})")
        run = _english_run(_without_glosses(sentence, outside), source_words, target.code, target.script, terms)
        if run:
            return _fail("not_copy", f"line {line} {quote(sentence)} leaves {quote(run)} in English")
    if len(words(source_prose)) <= 4 and len(words(translated_prose)) >= 2:  # a tag: half of it left in English?
        # A hyphenated English compound kept whole, with or without the target's ending ("ride-hailingu"), is a term
        # the language borrows as one word, not half a tag left untranslated.
        kept = translated_prose
        for compound in re.findall(r"[A-Za-z]+(?:-[A-Za-z]+)+", source_prose):
            kept = re.sub(re.escape(compound) + r"\w*", " ", kept, flags=re.IGNORECASE)
        left = [word for word in words(kept)
                if _shared(word, source_words) and _english_word(word, target.code, target.script)]
        if left:
            return _fail("not_copy", f"{quote(translated_prose)} leaves {', '.join(left)} in English")
    return CheckResult(name="not_copy", passed=True, detail="translated; no English sentence left")
