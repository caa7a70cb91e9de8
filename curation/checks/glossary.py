"""The ML glossary: a CSV a curator edits (`[paths] glossary`, glossary.csv beside curate.toml), one row per term
with its renderings in every target language, the confusable group it belongs to, and where the renderings come
from and when.

Three uses:
- the translator is told the renderings of the terms its English text uses (`entries_for`, the translate prompt);
- the `terms` check flags an English term rendered with another term of its group (recall written as precision,
  median as mean, macro as weighted, regression as classification, validation as test): the translation says the
  English term fewer times than the English does (lacks every form of it, for feature, target and label) and another
  term of the group more often, or a number or a
  negation goes with another term of the group than in the English ("recall at a precision of 0.9" -> "precision at
  a recall of 0.9");
- `curate report` counts the annotators' fixes that replaced a glossary rendering (`term_changes`), so the glossary
  learns from review.

A form matches its inflected words: it loses its final vowels and takes a few letters of ending ("полнота" matches
"полноты"); `*` marks the stem by hand (`макро*`). English forms match as written.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from curation.checks.prose import prose, quote, words
from curation.checks.roles import term_partners
from curation.checks.senses import Find, Senses, compile_words, language_data, lower
from curation.languages import parse_language
from curation.prompts import PromptError
from curation.records import CheckResult

NAME = "terms"
_GLOSS = re.compile(r"\s*[(（]\s*")  # what stands between a term and its gloss
# Groups whose terms a translation may say fewer times than the English without swapping them: translators vary how
# often they name a feature, the target and the label ("the label column is the target" as "the label column"). In
# them a term is compared only when the translation lacks it; elsewhere, when it says it fewer times than the English
# and another term of its group more (one of two mentions of recall swapped for precision). On the calibration sets
# this caught 45 more wrong terms for 4 false alarms; counting in these groups too would have cost 6 more false alarms.
LOOSE_GROUPS = ("variable",)
ENDING = 3  # letters of ending a form may take where the language's word file says nothing
FIXED = ("term", "group", "en", "source", "date")


class GlossaryError(PromptError):
    """The glossary file cannot be read; the message names the file and line and says what to do."""


@dataclass(frozen=True)
class Entry:
    """One term: its English forms, its forms per language (the first is the rendering), its group, source, date."""

    term: str
    group: str
    forms: dict[str, tuple[str, ...]]
    source: str
    date: str

    def rendering(self, language: str) -> str | None:
        forms = self.forms.get(language, ())
        return forms[0].replace("*", "") if forms else None


@dataclass(frozen=True, eq=False)  # one object per file version (load_glossary caches it): hashed by identity
class Glossary:
    entries: tuple[Entry, ...]
    path: Path | None = None

    def by_term(self) -> dict[str, Entry]:
        return {entry.term: entry for entry in self.entries}

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(code for entry in self.entries for code in entry.forms))


EMPTY = Glossary(())


def _forms(cell: str) -> tuple[str, ...]:
    return tuple(form.strip() for form in cell.split("|") if form.strip())


def parse_glossary(text: str, path: Path | None = None) -> Glossary:
    """A glossary from its CSV text (lines starting with # are comments)."""
    where = path or Path("glossary.csv")
    lines = [line if not line.lstrip().startswith("#") else "" for line in text.splitlines()]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    header_at = next((i for i, row in enumerate(rows) if any(cell.strip() for cell in row)), None)
    if header_at is None:
        return Glossary((), path)
    header = [cell.strip() for cell in rows[header_at]]
    missing = [name for name in FIXED if name not in header]
    if missing:
        raise GlossaryError(f"{where} line {header_at + 1}: the header lacks the column(s) {', '.join(missing)}; "
                            f"it must have term, group, en, one column per language code, source and date")
    languages = [name for name in header if name not in FIXED and name]
    entries = []
    for number, row in enumerate(rows[header_at + 1:], start=header_at + 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise GlossaryError(f"{where} line {number}: {len(row)} cells where the header has {len(header)}; "
                                f"quote a cell that holds a comma")
        cells = dict(zip(header, (cell.strip() for cell in row)))
        if not cells["term"] or not _forms(cells["en"]):
            raise GlossaryError(f"{where} line {number}: a term needs its name (term) and English forms (en)")
        forms = {"en": _forms(cells["en"])} | {code: _forms(cells[code]) for code in languages if _forms(cells[code])}
        entries.append(Entry(cells["term"], cells["group"] or cells["term"], forms, cells["source"], cells["date"]))
    return Glossary(tuple(entries), path)


def load_glossary(path: Path) -> Glossary:
    """The glossary at `path`; an empty one when there is no such file."""
    if not path.exists():
        return Glossary((), path)
    stat = path.stat()
    return _load(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=8)
def _load(path: Path, mtime: int, size: int) -> Glossary:
    try:
        return parse_glossary(path.read_text(encoding="utf-8"), path)
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise GlossaryError(f"{path}: cannot read the glossary ({error}); save it as UTF-8 CSV") from None


@lru_cache(maxsize=64)
def matcher(glossary: Glossary, code: str) -> Senses:
    """The glossary's forms in one language as concept words (the term is the concept)."""
    data = language_data(code)
    ending = None if code == "en" else data.get("ending", ENDING)
    concepts = {entry.term: list(entry.forms.get(code, ())) for entry in glossary.entries}
    concepts["ignore"] = list(data.get("glossary_ignore", ()))
    return compile_words(code, concepts, data.get("word_prefix", ""), ending=ending,
                         loan_ending=None if code == "en" else data.get("loan_ending"))


@lru_cache(maxsize=8)
def english_terms(glossary: Glossary) -> tuple[tuple[str, ...], ...]:
    """The English forms of every term as lowercase words, longest first (what not_copy lets stand in English)."""
    forms = {tuple(word.casefold() for word in words(form.replace("*", "")))
             for entry in glossary.entries for form in entry.forms.get("en", ()) if not form.startswith("re:")}
    # ties in alphabetical order: a set's order changes with the process's hash seed
    return tuple(sorted((form for form in forms if form), key=lambda form: (-len(form), form)))


def english_loans(glossary: Glossary, source: str) -> frozenset[str]:
    """The words of every English form of the terms an English text says, lowercase: a translation may keep any of
    them in Latin letters ("std" where the English says "standard deviation")."""
    # read with its acronyms, which prose() takes out as protected: "RMSE" glossed as "(root mean squared error)"
    read = lower(re.sub(r"`[^`]*`", " ", source), "en")
    said = _counts(matcher(glossary, "en").finds(read))
    terms = glossary.by_term()
    return frozenset(word.casefold() for term in said for form in terms[term].forms.get("en", ())
                     if not form.startswith("re:") for word in words(form.replace("*", "")))


def finds(glossary: Glossary, text: str, code: str, names: Iterable[str] = ()) -> list[Find]:
    """The glossary terms a text says, in reading order; a term glossed in brackets right after it ("полнота (recall)",
    "mean absolute error (MAE)") is said once."""
    read = lower(prose(text, names), code)
    found: list[Find] = []
    for find in matcher(glossary, code).finds(read):
        if found and found[-1].concepts & find.concepts and _GLOSS.fullmatch(read[found[-1].end:find.start]):
            continue
        found.append(find)
    return found


def term_counts(glossary: Glossary, text: str, code: str) -> Counter:
    """How often a text says each glossary term."""
    return _counts(finds(glossary, text, code))


def _counts(found: list[Find]) -> Counter:
    counts: Counter = Counter()
    for find in found:
        counts.update(sorted(find.concepts))  # sorted: a detail lists its terms in the same order in every process
    return counts


def entries_for(glossary: Glossary, source: str, language: str, names: Iterable[str] = ()) -> list[tuple[str, str]]:
    """(English term, rendering) of every glossary term the English text uses that has a rendering in `language`."""
    said = _counts(finds(glossary, source, "en", names))
    terms = glossary.by_term()
    return [(term, terms[term].rendering(language)) for term in dict.fromkeys(said)
            if terms[term].rendering(language)]


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


def _said(found: list[Find], term: str) -> str:
    return ", ".join(repr(word) for word in dict.fromkeys(find.text for find in found if term in find.concepts))


def _task_and_model(term: Entry, other: Entry) -> bool:
    """Whether one of the two terms is the other's model ("regression model" and "regression"): saying the task for
    its model ("используйте регрессию" for "use a regression model") swaps nothing, nor the model for its task
    ("نموذج الانحدار", a regression model, for "regression"). Only "model": "root mean squared error" holds "mean
    squared error", another metric."""
    def model_of(narrow: Entry, broad: Entry) -> bool:
        broader = [form.casefold() for form in broad.forms.get("en", ()) if not form.startswith("re:")]
        return any(form.casefold() in (f"{inner} model", f"{inner} models") for form in narrow.forms.get("en", ())
                   for inner in broader)
    return model_of(term, other) or model_of(other, term)


def check_terms(glossary: Glossary, source: str, translation: str, language: str,
                names: Iterable[str] = ()) -> CheckResult:
    """No English glossary term rendered with another term of its group."""
    names, language = tuple(names), parse_language(language).code
    if not glossary.entries or language not in glossary.languages:
        return CheckResult(name=NAME, passed=True, detail=f"no glossary terms for {language}")
    english, translated = finds(glossary, source, "en", names), finds(glossary, translation, language, names)
    e, t = _counts(english), _counts(translated)
    terms = glossary.by_term()
    problems = []
    kept = set(words(lower(prose(translation, names), language)))
    for term, count in e.items():
        short = not t[term] if terms[term].group in LOOSE_GROUPS else t[term] < count
        if not short or language not in terms[term].forms:
            continue
        if not t[term] and any(set(words(find.text)) <= kept for find in english if term in find.concepts):
            # the English word kept as a loanword ("onu feature olarak kullanmayın"); one the translation also renders
            # is a gloss in brackets ("полнота (recall)"), and a second mention swapped is still a swap
            continue
        group = terms[term].group
        # a word that also says a term of the English ("دقة" and "дәлдік" are precision and accuracy both) is no
        # evidence that another term replaced this one
        apart = Counter(other for find in translated for other in find.concepts
                        if not any(e[concept] for concept in find.concepts - {other}))
        others = [other for other in t if other != term and terms[other].group == group and apart[other] > e[other]
                  and not _task_and_model(terms[term], terms[other])]
        for other in others:
            if t[term]:  # one of two mentions swapped ("the recall of each class, and the recall of the minority")
                problems.append(f"term: the English says {_said(english, term)} ({term}) {_times(count)}, the "
                                f"translation {_times(t[term])}, and {_said(translated, other)} ({other}) "
                                f"{_times(t[other])}, " + (f"the English {_times(e[other])}" if e[other]
                                                           else "which the English does not say"))
                continue
            problems.append(f"term: the English says {_said(english, term)} ({term}), the translation has none of "
                            f"{' | '.join(form.replace('*', '') for form in terms[term].forms[language])} but "
                            f"{_said(translated, other)} ({other})")
    groups = {entry.term: entry.group for entry in glossary.entries}
    problems += term_partners(groups, matcher(glossary, "en"), matcher(glossary, language), source, translation,
                              language, names)
    if problems:
        return CheckResult(name=NAME, passed=False, detail="; ".join(problems))
    return CheckResult(name=NAME, passed=True, detail=f"{len(e)} glossary term(s) rendered as their own")


def term_changes(glossary: Glossary, source: str, machine: str, fix: str, language: str,
                 names: Iterable[str] = ()) -> list[tuple[str, str, str]]:
    """(term, the machine's words for it, the fix's new words) for each glossary term of the English text whose
    rendering the machine text has and an annotator's fix no longer has."""
    if not glossary.entries or language not in glossary.languages:
        return []
    said = _counts(finds(glossary, source, "en", names))
    before, after = finds(glossary, machine, language, names), finds(glossary, fix, language, names)
    kept = _counts(after)
    old_words = set(words(lower(prose(machine, names), language)))
    new = [word for word in words(lower(prose(fix, names), language)) if word not in old_words]
    changes = []
    for term in said:
        if _counts(before)[term] and not kept[term]:
            changes.append((term, _said(before, term).replace("'", ""), quote(" ".join(new[:4]), 40).strip("'\"")))
    return changes
