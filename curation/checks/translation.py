"""Automatic translation checks, run on every translation before a person sees it.

The checks, each a CheckResult named so, in REGISTRY order:
- placeholders: every protected span of the source (code, identifiers, file names, URLs, amounts, metric
  names) is in the translation exactly as often as in the source, and no placeholder is left over
  (curation/checks/placeholders.py);
- numbers: every number of the source is there as written, at least as often (curation/checks/numbers.py);
- language: every sentence reads as the target language, against its neighbours (curation/checks/language.py);
- length: the length ratio to the source is within the language's bounds, with the same lines, paragraphs and
  no fewer sentences per line; a short source (a tag) may not lose its words;
- not_copy: the translation is not the English source, and no English sentence, line or half tag is left in it
  (curation/checks/not_copy.py);
- script: the letters outside protected spans are in the target's script (simplified Han for Chinese);
- adequacy: no sentence, line or clause added, none left out (sentence embeddings; curation/checks/adequacy.py;
  `[translate] adequacy = false` turns it off);
- meaning: negations, directions, limits, units and conditions said as the English says them, on the sentences
  adequacy aligned (curation/checks/meaning.py);
- terms: no glossary term rendered with another term of its group (curation/checks/glossary.py);
- roles: identifiers in the sentences and the parts the English gives them (curation/checks/roles.py);
  `[translate] meaning = false` turns these three off.

They work on restored texts, so review runs them on an annotator's own version and `curate check` on any file.
A new check is a function of a Pair returning a CheckResult, plugged in with one line in REGISTRY.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

from curation.checks.adequacy import check_adequacy
from curation.checks.glossary import Glossary, GlossaryError, check_terms, english_loans, load_glossary
from curation.checks.meaning import check_meaning
from curation.checks.roles import check_roles
from curation.checks.han import traditional
from curation.checks.language import check_language
from curation.checks.not_copy import check_not_copy
from curation.checks import adequacy, alignment, language_id, masking, segments, tags
from curation.checks import prose as prose_module
from curation.checks.placeholders import check_placeholders
from curation.checks.numbers import check_numbers
from curation.checks.prose import prose, proper_names, words
from curation.checks.segments import blocks, items, paragraph_count
from curation.checks.scripts import ALLOWED, letter_script, letter_scripts
from curation.config import Settings
from curation.excerpt import plural, unexpected
from curation.languages import parse_language
from curation.records import CheckResult

log = logging.getLogger("curation.checks.translation")
# Letters outside the target's script tolerated as a share of all letters (brand names, Latin terms in
# Cyrillic or CJK text); a whole sentence in the wrong script goes well beyond it.
FOREIGN_LETTER_SHARE = 0.15
# A word this long in another script, the English not having it, is a transliteration whatever its share of the text.
STRAY_WORD_LETTERS = 3


@dataclass(frozen=True)
class Pair:
    """A (restored) translation of an English text into a language, with what the checks need to read it."""

    source: str
    translation: str
    language: str
    settings: Settings
    names: tuple[str, ...] = ()

    @cached_property
    def with_proper_names(self) -> tuple[str, ...]:
        """The protected names and the English text's proper names (Cherbourg, Ex, VIP): what the language checks
        read past, since a translation keeps them as they are."""
        return self.names + proper_names(self.source, self.names)

    @cached_property
    def glossary(self) -> Glossary | None:
        """The project's glossary, read once for all the checks of a pair; None when it does not read (the terms check
        says what is wrong with the file, the others do without it)."""
        try:
            return load_glossary(self.settings.path("glossary"))
        except GlossaryError:
            return None

    @cached_property
    def loans(self) -> frozenset[str]:
        """The English forms of the glossary terms the English says, which the script and language checks both let
        stand ("std"); none without a glossary."""
        return english_loans(self.glossary, self.source) if self.glossary else frozenset()


# -- length ----------------------------------------------------------------------------------------


# What ends a sentence in the targets' scripts, closing quotes and brackets allowed after it. Thai marks no sentence
# end at all (a space parts its sentences), so a Thai text is never said to stop mid-sentence.
_FINAL = re.compile(r"[.!?…。！？؟।॥։۔][\"'»”’)）」』\]*_`]*\s*$")


def _layout_problems(source: str, translation: str) -> list[str]:
    """The same paragraphs and list items (headings, table rows) as the English; wrapping inside a paragraph is free."""
    problems = []
    want, got = len(items(source)), len(items(translation))
    if got != want:
        problems.append(f"{plural(got, 'list item')}, the source has {want}")
    want, got = paragraph_count(source), paragraph_count(translation)
    if got != want:
        problems.append(f"{plural(got, 'paragraph')}, the source has {want}")
    return problems


def _stops_mid_sentence(source: str, translation: str) -> bool:
    """The English ends its last sentence and the translation does not: cut off."""
    english, translated = blocks(source), blocks(translation)
    return bool(english and translated and _FINAL.search(english[-1].text) and not _FINAL.search(translated[-1].text))


def _quote_end(text: str) -> str:
    tail = " ".join(text.split())[-40:]
    return repr("…" + tail if len(" ".join(text.split())) > 40 else tail)


def check_length(source: str, translation: str, language: str, settings: Settings, names: Iterable[str] = ()) -> CheckResult:
    """Length ratio within the language's bounds; the same paragraphs and list items; not stopped mid-sentence.

    Sentences are not counted: translators merge and split them. Whether a sentence's content is missing or added
    is the adequacy check's to say, on aligned content."""
    bounds = settings.translate.length_ratio
    low, high = bounds.get(language, bounds.get("default", (0.6, 1.9)))
    source_prose = " ".join(prose(source, names).split())
    translated_prose = " ".join(prose(translation, names).split())
    short = tags.is_short(source_prose)
    if short:
        high = high * 3
    ratio = len(translated_prose) / len(source_prose) if source_prose else 1.0
    problems = []
    if not translation.strip():
        problems.append("the translation is empty")
    elif short and tags.is_acronym(translation):
        pass  # "IoT", "SNS": a whole rendering of a tag, in any language
    elif short and source_prose:
        problem = tags.cut_short(source_prose, translated_prose, language)
        if problem:
            problems.append(problem)
        elif ratio > high:
            problems.append(f"length ratio {ratio:.2f} above {high:.2f} (run-on or padded?)")
    elif source_prose and not low <= ratio <= high:
        problems.append(f"length ratio {ratio:.2f} outside {low:.2f}-{high:.2f}"
                        + (" (cut short?)" if ratio < low else " (run-on or padded?)"))
    if translation.strip():
        problems += _layout_problems(source, translation)
        if not short and parse_language(language).script != "Thai" and _stops_mid_sentence(source, translation):
            problems.append(f"it stops mid-sentence: {_quote_end(translation)} (cut short?)")
    if problems:
        return CheckResult(name="length", passed=False, detail="; ".join(problems))
    return CheckResult(name="length", passed=True, detail=f"length ratio {ratio:.2f}")


# -- script ----------------------------------------------------------------------------------------


def _runs(text: str) -> list[tuple[str, str]]:
    """(script, run) pairs: maximal runs of letters of one script; "eコマース" is ("Latin", "e"), ("Kana", "コマース")."""
    runs: list[tuple[str, str]] = []
    for char in text:
        script = letter_script(char)
        if script is None:
            runs.append(("", ""))
        elif runs and runs[-1][0] == script:
            runs[-1] = (script, runs[-1][1] + char)
        else:
            runs.append((script, char))
    return [run for run in runs if run[0]]


def _countable_foreign(run: str) -> bool:
    # Acronyms (ROC, GPU, ID) and single letters ("e" in Japanese eコマース) are written in Latin everywhere.
    return len(run) > 1 and not (run.isupper() and len(run) <= 6)


def _stray_words(text: str, allowed, english: set[str]) -> list[tuple[str, str]]:
    """Words of three letters or more written wholly in a script the target is not written in, that the English does
    not have: a word transliterated ('датчики' as "datchiki", 'capteurs' in Cyrillic), which the share of letters
    misses in a long text. Acronyms and the English's own words (a name, a loan) are not counted."""
    found: list[tuple[str, str]] = []
    for word in re.findall(r"[^\W\d_]+", text):
        scripts = {letter_script(char) for char in word} - {None}
        if len(scripts) != 1 or len(word) < STRAY_WORD_LETTERS:
            continue
        script = scripts.pop()
        if script not in allowed and _countable_foreign(word) and not _from_english(word.casefold(), english):
            found.append((word, script))
    return found


def _from_english(word: str, english: set[str]) -> bool:
    """The English has the word, or the same word with another ending (a loan in the singular: hashtag, hashtags; a
    term in another form: "gradient boosting" for "gradient-boosted", five letters and most of the shorter word)."""
    return word in english or any(len(other) >= 4 and len(word) >= 4 and (other.startswith(word) or word.startswith(other)
                                                                           or _same_stem(word, other))
                                  for other in english)


def _same_stem(word: str, other: str) -> bool:
    shared = len(os.path.commonprefix([word, other]))
    return shared >= 5 and shared >= 0.6 * min(len(word), len(other))


def check_script(translation: str, language: str, names: Iterable[str] = (), source: str = "",
                 loans: Iterable[str] = ()) -> CheckResult:
    """The letters outside protected spans are in the target language's script; Chinese in simplified Han.

    Words the English has that a translation keeps in Latin letters (hashtag, emoji, a name) are loans, not another
    script, and so are `loans` (the English forms of the glossary terms the English says: "std" for "standard
    deviation"); an English sentence left in is not_copy's to find."""
    target = parse_language(language)
    allowed = ALLOWED[target.script]
    text = prose(translation, names)
    said = [word.casefold() for word in words(prose(source, names))] if source else []
    # and the initials of two to four English words in a row: "bpm" for "beats per minute" is an abbreviation
    english = (set(said) | {"".join(word[0] for word in said[i:i + n]) for n in (2, 3, 4) for i in range(len(said) - n + 1)}
               | set(loans))
    if english and target.script != "Latin":
        text = re.sub(r"[A-Za-z]+", lambda word: " " if word.group(0).casefold() in english else word.group(0), text)
    total = sum(letter_scripts(text).values())
    if not total:
        return CheckResult(name="script", passed=True, detail="no letters outside protected spans")
    if target.code == "zh":
        found = traditional(text)
        if found:
            return CheckResult(name="script", passed=False, detail=(
                f"traditional characters in simplified Chinese: {''.join(found)} "
                f"(simplified: {''.join(found.values())})"))
    foreign: dict[str, int] = {}
    for script, run in _runs(text):
        if script not in allowed and _countable_foreign(run):
            foreign[script] = foreign.get(script, 0) + len(run)
    share = sum(foreign.values()) / total
    if share > FOREIGN_LETTER_SHARE:
        found_text = ", ".join(f"{script} {count}" for script, count in sorted(foreign.items(), key=lambda kv: -kv[1]))
        return CheckResult(name="script", passed=False, detail=(
            f"{share:.0%} of the letters are not {target.script} ({found_text} of {total}); "
            f"at most {FOREIGN_LETTER_SHARE:.0%} allowed"))
    stray = _stray_words(text, allowed, english)
    if stray:
        listed = ", ".join(f"{word!r} ({script})" for word, script in stray[:3])
        return CheckResult(name="script", passed=False, detail=(
            f"{plural(len(stray), 'word')} in another script than {target.script}, not in the English: {listed}"))
    return CheckResult(name="script", passed=True, detail=f"{1 - share:.0%} of the letters are {target.script}")


# -- all of them -----------------------------------------------------------------------------------

Check = Callable[[Pair], CheckResult]


def _adequacy(pair: Pair) -> CheckResult:
    if not pair.settings.translate.adequacy:
        return CheckResult(name="adequacy", passed=True, detail="off ([translate] adequacy = false)")
    return check_adequacy(pair.source, pair.translation, pair.language, pair.names, pair.glossary)


def _meaning_check(name: str, check: Callable[[Pair], CheckResult]) -> Check:
    """A lexical meaning check, or a pass saying it is off (`[translate] meaning = false`)."""
    def run(pair: Pair) -> CheckResult:
        if not pair.settings.translate.meaning:
            return CheckResult(name=name, passed=True, detail="off ([translate] meaning = false)")
        return check(pair)
    return run


def _terms(pair: Pair) -> CheckResult:
    try:
        glossary = load_glossary(pair.settings.path("glossary"))
    except GlossaryError as error:
        return CheckResult(name="terms", passed=True, detail=f"not run: {error}")
    return check_terms(glossary, pair.source, pair.translation, pair.language, pair.names)


# The checks in the order they run and are shown. A new check plugs in here with one line. The meaning checks come
# after adequacy: they compare words on the sentences it aligned.
REGISTRY: dict[str, Check] = {
    "placeholders": lambda p: check_placeholders(p.source, p.translation, p.names, p.language),
    "numbers": lambda p: check_numbers(p.source, p.translation, p.names),
    "language": lambda p: check_language(p.translation, p.language, p.settings, p.with_proper_names, source=p.source,
                                         loans=p.loans),
    "length": lambda p: check_length(p.source, p.translation, p.language, p.settings, p.names),
    "not_copy": lambda p: check_not_copy(p.source, p.translation, p.language, p.settings, p.with_proper_names),
    "script": lambda p: check_script(p.translation, p.language, p.with_proper_names, source=p.source, loans=p.loans),
    "adequacy": _adequacy,
    "meaning": _meaning_check("meaning", lambda p: check_meaning(p.source, p.translation, p.language, p.names)),
    "terms": _meaning_check("terms", _terms),
    "roles": _meaning_check("roles", lambda p: check_roles(p.source, p.translation, p.language, p.names)),
}
CHECKS = tuple(REGISTRY)
# What may refuse a native speaker's own version: facts a person cannot improve on (identifiers and numbers as
# written, the target's language and script, no English left). Length and adequacy measure how close a text keeps
# to the English; an annotator who rephrases on purpose is the authority there, so review shows them as warnings.
HARD_CHECKS = ("placeholders", "numbers", "language", "not_copy", "script")


def clear_caches() -> None:
    """Forget every cached reading of a text, so a benchmark times each text as if it were new."""
    language_id.clear_cache()
    adequacy.clear_cache()
    masking.clear_cache()
    alignment.forget()
    prose_module.clear_cache()
    segments.clear_cache()


def check_translation(source_text: str, translation: str, language: str, settings: Settings,
                      names: Iterable[str] = ()) -> list[CheckResult]:
    """Every check of REGISTRY on a (restored) translation of an English text into a language, in that order."""
    pair = Pair(source_text, translation, language, settings, tuple(names))
    return [_run(name, check, pair) for name, check in REGISTRY.items()]


# (check, type of error) pairs already told to the curator: once each per process
_reported: set[tuple[str, str]] = set()


def _run(name: str, check: Check, pair: Pair) -> CheckResult:
    """One check's result; a check that raises (a bug in it, an input nobody foresaw) is reported as not run, and the
    others still run. The translation was paid for, and an annotator may have written it: one check's fault must not
    lose it, pay for it again in retries, or refuse a person's version. The curator is told once per check and error."""
    try:
        return check(pair)
    except Exception as error:  # noqa: BLE001 - any error of one check, reported in its result
        problem = unexpected(error)
        if (name, type(error).__name__) not in _reported:
            _reported.add((name, type(error).__name__))
            log.warning("translation check %s not run on a %s text (%s); the other checks ran. This is a bug in "
                        "the check: please report this line", name, pair.language, problem)
        return CheckResult(name=name, passed=True, detail=f"not run: {problem} (a bug in the check)")
