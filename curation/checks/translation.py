"""Automatic translation checks, run on every translation before a person sees it.

Six checks, each a CheckResult named so:
- placeholders: every protected span of the source (code, identifiers, file names, URLs, amounts, metric
  names) is in the translation exactly as often as in the source, and no placeholder is left over;
- language: every sentence reads as the target language, among the languages written in the same script;
- length: the length ratio to the source is within the language's bounds, with the same lines and paragraphs;
- not_copy: the translation is not the English source, and no English sentence is left in it;
- script: the letters outside protected spans are in the target's script;
- adequacy: no sentence added, none left out (sentence embeddings; curation/checks/adequacy.py).

They work on restored texts, so review can run them on an annotator's own version too.

What language identification can tell on two words: little. Short sentences (domain tags, one-line data card
entries) fail the language check only on hard evidence: letters the target's alphabet lacks (и in
"Belarusian", і in "Russian"), kana in "Chinese", or a near-certain vote for another language of the same
script while the target gets next to none. "Спорт" is Belarusian, Russian and Kazakh at once and passes; a
short kanji-only Japanese tag is indistinguishable from Chinese and passes (a long sentence without a single
kana is Chinese and fails); the script check still applies to both. An answer with no word at all in the
target's script fails the language check too.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from curation.checks.adequacy import check_adequacy
from curation.checks.language_id import confidences, segments
from curation.checks.masking import PLACEHOLDER, PLACEHOLDER_DEBRIS, mask_identifiers, protected_spans
from curation.checks.scripts import ALLOWED, FAMILY, has_kana, letter_script, letter_scripts
from curation.config import Settings
from curation.languages import LANGUAGES, parse_language
from curation.records import CheckResult

CHECKS = ("placeholders", "language", "length", "not_copy", "script", "adequacy")

# A sentence this long (words and letters, once identifiers are out) is enough for lingua to be trusted on it;
# shorter ones need hard evidence.
LONG_WORDS = 5
LONG_LETTERS = 30
LONG_CJK_CHARS = 12
# Short sentences fail the language check only when another language is this sure and the target this unlikely.
SHORT_OTHER_SURE = 0.9
SHORT_TARGET_UNLIKELY = 0.05
# An English sentence counts as left over when lingua gives English at least this share among all languages.
ENGLISH_LEFTOVER = 0.6
# ... and Latin letters are at least this share of the sentence's letters.
ENGLISH_MAJORITY = 0.6
# Letters outside the target's script tolerated as a share of all letters (brand names, Latin terms in
# Cyrillic or CJK text); a whole sentence in the wrong script goes well beyond it.
FOREIGN_LETTER_SHARE = 0.15
# Sources shorter than this (in characters of prose) get bounds three times wider: "eCommerce" -> Arabic doubles.
SHORT_SOURCE_CHARS = 40

# Letters a language's alphabet does not have, which its near neighbours write: hard evidence on short texts.
_FOREIGN_LETTERS = {
    "be": set("иИщЩъЪәӘғҒқҚңҢөӨұҰүҮһҺєЄїЇґҐ"),
    "ru": set("іІўЎәӘғҒқҚңҢөӨұҰүҮһҺєЄїЇґҐ"),
    "kk": set("ўЎєЄїЇґҐ"),
    "uk": set("ыЫэЭъЪёЁўЎәӘғҒқҚңҢөӨұҰүҮһҺ"),
}


def _prose(text: str, names: Iterable[str]) -> str:
    """The text with its protected spans and any placeholders taken out: what a person actually translated."""
    masked = mask_identifiers(text, names).text
    return PLACEHOLDER.sub(" ", masked)


def _normal(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", unicodedata.normalize("NFKC", text).casefold()).split())


def _words(text: str) -> int:
    return len(re.findall(r"[^\W\d_]+", text))


def _is_long(sentence: str) -> bool:
    cjk = sum(1 for char in sentence if letter_script(char) in ("Han", "Kana"))
    letters = sum(1 for char in sentence if char.isalpha())
    return cjk >= LONG_CJK_CHARS or (cjk == 0 and _words(sentence) >= LONG_WORDS and letters >= LONG_LETTERS)


def _quote(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[:limit - 1] + "…")


def _detector_codes(settings: Settings, language: str) -> tuple[str, ...]:
    """The configured languages, English and the target (a text may be checked for a language not configured)."""
    return tuple(sorted(set(settings.project.languages) | {settings.project.source_language, "en", language}))


def _same_script(language: str, settings: Settings) -> tuple[str, ...]:
    family = FAMILY[parse_language(language).script]
    return tuple(code for code in _detector_codes(settings, language) if FAMILY[LANGUAGES[code].script] == family)


# -- 1. placeholders -----------------------------------------------------------------------------


def _count(text: str, value: str) -> int:
    # Boundaries only against Latin letters and digits: "`Age`" right after Arabic "و" or a CJK character is
    # still one occurrence, "Age" inside "Agent" is none.
    before = r"(?<![A-Za-z0-9_])" if re.match(r"[A-Za-z0-9_]", value) else ""
    after = r"(?![A-Za-z0-9_])" if re.search(r"[A-Za-z0-9_]$", value) else ""
    return len(re.findall(before + re.escape(value) + after, text))


def check_placeholders(source: str, translation: str, names: Iterable[str] = ()) -> CheckResult:
    """Every protected span of the source comes back as often as it was there; no placeholder is left over."""
    problems = []
    leftover = [m.group(0) for m in PLACEHOLDER.finditer(translation)] or PLACEHOLDER_DEBRIS.findall(translation)
    if leftover:
        problems.append(f"placeholder debris left in the text: {', '.join(sorted(set(leftover)))}")
    for value in dict.fromkeys(protected_spans(source, names)):
        want, got = _count(source, value), _count(translation, value)
        if got != want:
            problems.append(f"{value!r} appears {got} time{'s' * (got != 1)}, the source has {want}")
    if problems:
        return CheckResult(name="placeholders", passed=False, detail="; ".join(problems))
    return CheckResult(name="placeholders", passed=True, detail=f"{len(protected_spans(source, names))} protected spans intact")


# -- 2. language ---------------------------------------------------------------------------------


def check_language(translation: str, language: str, settings: Settings, names: Iterable[str] = (),
                   source: str = "") -> CheckResult:
    """Each sentence reads as the target language among the configured languages written in its script."""
    target = parse_language(language)
    candidates = _same_script(target.code, settings)
    allowed = ALLOWED[target.script] if target.script != "Han" else ALLOWED["Japanese"]
    lowest = 1.0
    seen = checked = 0
    for line, sentence in segments(_prose(translation, names)):
        # Only letters of the target's script family: foreign words are the script check's business.
        own = "".join(char if letter_script(char) in allowed or not char.isalpha() else " " for char in sentence)
        if not any(char.isalpha() for char in own):
            continue
        seen += 1
        where = f"line {line} {_quote(sentence)}"
        foreign = sorted({char for char in own if char in _FOREIGN_LETTERS.get(target.code, ())})
        if foreign:
            return CheckResult(name="language", passed=False,
                               detail=f"{where} has letters the {target.english} alphabet lacks: {''.join(foreign)}")
        if target.code == "zh" and has_kana(own):
            return CheckResult(name="language", passed=False, detail=f"{where} has kana: Japanese, not Chinese")
        if target.code == "ja" and not has_kana(own):
            if _is_long(own):  # a Japanese sentence of this length without a single particle in kana is Chinese
                return CheckResult(name="language", passed=False, detail=f"{where} has no kana: Chinese, not Japanese")
            continue  # a few kanji read as Chinese and Japanese alike
        if len(candidates) < 2:
            checked += 1
            continue
        scores = confidences(own, _detector_codes(settings, target.code), candidates)
        best = max(scores, key=scores.get)
        mine = scores[target.code]
        if _is_long(own):
            checked += 1
            lowest = min(lowest, mine)
            if best != target.code or mine < settings.translate.min_confidence:
                return CheckResult(name="language", passed=False, detail=(
                    f"{where} reads as {LANGUAGES[best].english} ({scores[best]:.2f}), "
                    f"{target.english} only {mine:.2f} (minimum {settings.translate.min_confidence})"))
        elif best != target.code and scores[best] >= SHORT_OTHER_SURE and mine <= SHORT_TARGET_UNLIKELY:
            return CheckResult(name="language", passed=False,
                               detail=f"{where} reads as {LANGUAGES[best].english} ({scores[best]:.2f}), not {target.english}")
    if not seen and any(char.isalpha() for char in _prose(source, names)):
        return CheckResult(name="language", passed=False,
                           detail=f"no text in the {target.script} script to read as {target.english}")
    if checked:
        detail = f"{checked} of {seen} sentence(s) identified as {target.english}, lowest confidence {lowest:.2f}"
    else:
        detail = f"{seen} short sentence(s), none with signs of another language"
    return CheckResult(name="language", passed=True, detail=detail)


# -- 3. length -----------------------------------------------------------------------------------


def _lines(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip())


def _paragraphs(text: str) -> int:
    return sum(1 for block in re.split(r"\n\s*\n", text.strip()) if block.strip())


def check_length(source: str, translation: str, language: str, settings: Settings, names: Iterable[str] = ()) -> CheckResult:
    """Length ratio to the source within the language's bounds, and the same number of lines and paragraphs."""
    bounds = settings.translate.length_ratio
    low, high = bounds.get(language, bounds.get("default", (0.6, 1.9)))
    source_prose = " ".join(_prose(source, names).split())
    translated_prose = " ".join(_prose(translation, names).split())
    if len(source_prose) < SHORT_SOURCE_CHARS:
        low, high = low / 3, high * 3
    ratio = len(translated_prose) / len(source_prose) if source_prose else 1.0
    problems = []
    if not translation.strip():
        problems.append("the translation is empty")
    elif source_prose and not low <= ratio <= high:
        problems.append(f"length ratio {ratio:.2f} outside {low:.2f}-{high:.2f}"
                        + (" (cut short?)" if ratio < low else " (run-on or padded?)"))
    if _lines(translation) != _lines(source):
        problems.append(f"{_lines(translation)} lines, the source has {_lines(source)}")
    if _paragraphs(translation) != _paragraphs(source):
        problems.append(f"{_paragraphs(translation)} paragraphs, the source has {_paragraphs(source)}")
    if problems:
        return CheckResult(name="length", passed=False, detail="; ".join(problems))
    return CheckResult(name="length", passed=True, detail=f"length ratio {ratio:.2f} within {low:.2f}-{high:.2f}")


# -- 4. not a copy -------------------------------------------------------------------------------


def _loan(text: str, language: str, settings: Settings) -> bool:
    """Whether a Latin-script text identical to the English may be the target's own words.

    One word often is ("finance" in French, "marketing" in Polish); a short phrase is when it reads more like
    the target than like English ("social media" in Italian), and a sentence never is."""
    if _words(text) == 1:
        return True
    if _is_long(text):
        return False
    scores = confidences(text, _detector_codes(settings, language), _same_script(language, settings))
    return scores.get(language, 0.0) > scores.get("en", 0.0)


def check_not_copy(source: str, translation: str, language: str, settings: Settings, names: Iterable[str] = ()) -> CheckResult:
    """The translation is not the English source, and no English sentence is left in it."""
    target = parse_language(language)
    if target.code == settings.project.source_language:
        return CheckResult(name="not_copy", passed=True, detail="the source language itself")
    source_prose, translated_prose = _prose(source, names), _prose(translation, names)
    codes = _detector_codes(settings, target.code)
    if _normal(translated_prose) and _normal(translated_prose) == _normal(source_prose):
        if target.script != "Latin" or not _loan(translated_prose, target.code, settings):
            return CheckResult(name="not_copy", passed=False, detail="the translation is the English source unchanged")
    source_sentences = {_normal(sentence) for _, sentence in segments(source_prose)}
    for line, sentence in segments(translated_prose):
        if not _is_long(sentence):
            continue
        if _normal(sentence) in source_sentences:
            return CheckResult(name="not_copy", passed=False,
                               detail=f"line {line} {_quote(sentence)} is copied from the English source")
        latin = "".join(char if letter_script(char) == "Latin" or not char.isalpha() else " " for char in sentence)
        scripts = letter_scripts(sentence)
        # In a Cyrillic, Arabic or CJK text an English title quoted inside a sentence is fine; a sentence that is
        # mostly Latin letters is an untranslated one.
        mostly_latin = scripts["Latin"] >= ENGLISH_MAJORITY * sum(scripts.values())
        if _is_long(latin) and mostly_latin:
            scores = confidences(latin, codes, codes)
            english = scores.get("en", 0.0)
            if english >= ENGLISH_LEFTOVER and max(scores, key=scores.get) == "en":
                return CheckResult(name="not_copy", passed=False,
                                   detail=f"line {line} {_quote(sentence)} is still English ({english:.2f})")
    return CheckResult(name="not_copy", passed=True, detail="translated; no English sentence left")


# -- 5. script -----------------------------------------------------------------------------------


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


def check_script(translation: str, language: str, names: Iterable[str] = ()) -> CheckResult:
    """The letters outside protected spans are in the target language's script."""
    target = parse_language(language)
    allowed = ALLOWED[target.script]
    prose = _prose(translation, names)
    total = sum(letter_scripts(prose).values())
    if not total:
        return CheckResult(name="script", passed=True, detail="no letters outside protected spans")
    foreign: dict[str, int] = {}
    for script, run in _runs(prose):
        if script not in allowed and _countable_foreign(run):
            foreign[script] = foreign.get(script, 0) + len(run)
    share = sum(foreign.values()) / total
    if share > FOREIGN_LETTER_SHARE:
        found = ", ".join(f"{script} {count}" for script, count in sorted(foreign.items(), key=lambda kv: -kv[1]))
        return CheckResult(name="script", passed=False, detail=(
            f"{share:.0%} of the letters are not {target.script} ({found} of {total}); "
            f"at most {FOREIGN_LETTER_SHARE:.0%} allowed"))
    return CheckResult(name="script", passed=True, detail=f"{1 - share:.0%} of the letters are {target.script}")


# -- all of them ---------------------------------------------------------------------------------


def check_translation(source_text: str, translation: str, language: str, settings: Settings,
                      names: Iterable[str] = ()) -> list[CheckResult]:
    """The six checks of a (restored) translation of an English text into a language, in CHECKS order."""
    names = tuple(names)
    return [
        check_placeholders(source_text, translation, names),
        check_language(translation, language, settings, names, source=source_text),
        check_length(source_text, translation, language, settings, names),
        check_not_copy(source_text, translation, language, settings, names),
        check_script(translation, language, names),
        check_adequacy(source_text, translation, language, names) if settings.translate.adequacy
        else CheckResult(name="adequacy", passed=True, detail="off ([translate] adequacy = false)"),
    ]
