"""The words that carry meaning the checks compare across languages: negations, opposites, units, conditions.

Read from curation/checks/meaning_words/: concepts.toml says how the concepts relate (which are opposites, which
units measure the same quantity), <code>.toml lists each concept's words in one language. A text is read in
lowercase, its protected spans (identifiers, file names, numbers with units) left out, and every concept word found;
where two finds overlap the longer one wins ("не менее" is "at least", not a negation), and a language's `ignore`
words take theirs out of the count ("少ない" is "few", not the negation ない). A word may stand for several concepts
(English "excluding" is both a condition and a weak negation).
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

FOLDER = Path(__file__).with_name("meaning_words")
IGNORE = "ignore"
# Scripts written without spaces: their words are found inside the text, with no word boundaries.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class Find:
    """One concept word found in a text: where, what it says, and the concepts it stands for."""

    start: int
    end: int
    text: str
    concepts: frozenset[str]


@dataclass(frozen=True)
class Relations:
    """How the concepts relate (concepts.toml)."""

    strong: str = "not"
    absent: str = "absent"
    soft: str = "soft"
    instead: tuple[str, ...] = ()  # what a translation says instead of a negation ("only")
    bounds: dict[str, str] = field(default_factory=dict)  # a bound -> the side of `amount` it says under negation
    only: str = "only"  # the restricting one of `instead`
    kept: str = "kept"  # "were kept" for "were not removed"
    ensure: str = "ensure"  # "make sure it is in" for "do not omit it"
    alter: str = "alter"  # "keep their order" for "do not shuffle them"
    always: str = "always"  # "always" for "never": a flip where a negation is lost
    range: str = "between"  # "between 10% and 95%" for "never below 10% or above 95%"
    implies: dict[str, frozenset[str]] = field(default_factory=dict)
    axes: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # name -> (class, one side, the other)
    units: dict[str, tuple[str, ...]] = field(default_factory=dict)  # quantity -> its units
    conditions: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    clause: str = "clause"


@lru_cache(maxsize=1)
def relations() -> Relations:
    """concepts.toml, read once."""
    data = tomllib.loads((FOLDER / "concepts.toml").read_text(encoding="utf-8"))
    return Relations(strong=data["negation"]["strong"], absent=data["negation"]["absent"], soft=data["negation"]["soft"],
                     instead=tuple(data["negation"].get("instead", ())),
                     bounds=dict(data["negation"].get("bounds", {})),
                     only=data["negation"].get("only", "only"), kept=data["negation"].get("kept", "kept"),
                     ensure=data["negation"].get("ensure", "ensure"), alter=data["negation"].get("alter", "alter"),
                     always=data["negation"].get("always", "always"),
                     range=data["negation"].get("range", "between"),
                     implies={name: frozenset(more) for name, more in data.get("implies", {}).items()},
                     axes={name: tuple(value) for name, value in data["axes"].items()},
                     units={name: tuple(value) for name, value in data["units"].items()},
                     conditions=tuple(data["conditions"]["concepts"]),
                     roles=tuple(data["roles"]["partners"]), clause=data["roles"]["clause"])


_READ_AT_MOST = 4096  # texts whose finds a language keeps (a long run's retries bring new ones)
_VOWELS = "aeiouyáéíóúàèìòùâêîôûäëïöüăâîıаеёиоуыэюяьйіўәөұүі"


def _word(token: str, ending: int | None = None, loan_ending: int | None = None) -> tuple[str, str]:
    """A pattern word as a regular expression and the number of letters it spells out: `*` at either end stands for
    letters; with `ending`, a word without `*` loses its final vowels and takes up to that many letters of ending
    (glossary forms: "полнота" also matches "полноты"), or `loan_ending` letters if it ends in a consonant (in
    Italian such a word is a loan and does not change: "test" is not the stem of "testo", text)."""
    head, tail = token.startswith("*"), token.endswith("*") and len(token) > 1
    core = token.strip("*")
    if ending is not None and not head and not tail and core[-1:].isalpha() and not _UNSPACED.match(core[-1]):
        stem = core.rstrip(_VOWELS)
        if loan_ending is not None and stem == core:
            return re.escape(core) + f"\\w{{0,{loan_ending}}}", core
        if len(stem) < 4:  # "мода" is not the stem of "модельдер": a short word keeps its letters, a short ending
            return re.escape(core) + f"\\w{{0,{min(ending, 2)}}}", core
        return re.escape(stem) + f"\\w{{0,{ending + len(core) - len(stem)}}}", stem
    return ("\\w*" if head else "") + re.escape(core) + ("\\w*" if tail else ""), core


def pattern(text: str, prefix: str = "", ending: int | None = None, loan_ending: int | None = None) -> tuple[str, str]:
    """One pattern of a word list as a regular expression (see the header of meaning_words/en.toml), and the letters
    it spells out (of two finds of the same words, the more specific pattern names the concept)."""
    if text.startswith("re:"):
        return text[3:], ""  # a regular expression yields to a word list's word over the same letters
    tokens = text.split()
    parts = [_word(token, ending, loan_ending) for token in tokens]
    # a hyphen inside a word is as often written with an en or em dash ("точность–полнота")
    body = r"[\s\-–—]+".join(part.replace(r"\-", "[-–—]") for part, _ in parts)
    first, last = tokens[0].lstrip("*")[:1], tokens[-1].rstrip("*")[-1:]
    before = "" if _UNSPACED.match(first) or not first.isalpha() else r"(?<![^\W\d_])"
    # a word glued to a digit after it is a name (NO2, CO2, P95), not the word; a digit before it is a number's unit
    after = "" if _UNSPACED.match(last) or not last.isalpha() else r"(?![^\W_])"
    if prefix and before:
        body = f"(?:{prefix})?{body}"
    return before + body + after, " ".join(spelled for _, spelled in parts)


class Word:
    """One pattern of a word list: its regular expression, what it spells out, and the longest run of letters every
    match of it contains ("" for a regular expression).

    Compiled the first time a text holds its needle: most words of a list never occur in a run's texts, and compiling
    all of a language's patterns up front cost 0.13 s per word list and process (3.4 s of a 12-language run's checks,
    paid again by every process that checks a text)."""

    __slots__ = ("regex", "spelled", "needle", "ending", "_compiled")

    def __init__(self, regex: str, spelled: str, needle: str, ending: bool = False) -> None:
        # ending: a regular expression or a word that begins with `*` ("*mayın"), which may end a longer word
        self.regex, self.spelled, self.needle, self.ending = regex, spelled, needle, ending
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.regex)
        return self._compiled


@dataclass(frozen=True)
class Senses:
    """One language's concept words, compiled: per concept each pattern with the letters it spells out."""

    code: str
    patterns: dict[str, tuple[Word, ...]]
    side: str = "before"  # where a language marks an identifier's role: prepositions (before) or case endings (after)
    term_before_number: bool = True  # "a precision of 0.9"; Turkish "0.9 sabit kesinlik" has it after
    term_before_negation: bool = False  # "not a regression"; Japanese "回帰ではなく" has it before
    # text -> its finds: the checks read a sentence many times (meaning per sentence and in the whole text, roles per
    # clause, terms), and an English sentence once for each language: 8 readings of each text on the calibration set
    _read: dict[str, tuple[Find, ...]] = field(default_factory=dict, compare=False, repr=False)

    def finds(self, text: str) -> list[Find]:
        """Every concept word of a (lowercase, identifier-free) text, longest first where finds overlap. Of two finds
        of the same letters, one whose pattern spells out a longer form of the other's ("mediana" over "media*",
        any word over a regular expression) names the concept; unrelated patterns both count ("бұзылса" is broke
        down, and a condition)."""
        known = self._read.get(text)
        if known is None:
            if len(self._read) >= _READ_AT_MOST:
                self._read.clear()
            known = self._read[text] = tuple(self._read_anew(text))
        return list(known)

    def _read_anew(self, text: str) -> list[Find]:
        # A pattern whose needle is not in the text cannot match: a substring test costs a fraction of a regular
        # expression's search, which starts at every letter (its lookbehind leaves `re` no prefix to skip ahead by).
        # Screening each concept with one search of all its patterns was half the meaning and terms checks' time.
        spans: dict[tuple[int, int], list[tuple[str, str]]] = {}
        endings: set[tuple[int, int]] = set()
        strong = relations().strong
        for concept, words in self.patterns.items():
            for word in words:
                if word.needle not in text:
                    continue
                for match in word.compiled.finditer(text):
                    if match.end() > match.start():
                        spans.setdefault(match.span(), []).append((word.spelled, concept))
                        if concept == strong and word.ending:
                            endings.add(match.span())
        # A negating ending ("тастамаңыз", "bırakmayın": a negation's regular expression or `*` word) at the end
        # of a longer phrase ("алып таста*", "dışarıda bırak*": remove) negates the phrase, which would hide it.
        return _chosen(text, {span: _specific(found) for span, found in spans.items()}, endings)

    def count(self, text: str) -> Counter:
        """How often each concept is said in a text."""
        counts: Counter = Counter()
        for find in self.finds(text):
            counts.update(sorted(find.concepts))
        return counts


def _specific(found: list[tuple[str, str]]) -> set[str]:
    """The concepts of the patterns that matched the same letters, without those another one spells out further. A
    regular expression (it spells out nothing) yields only to a word of its own concept or an `ignore` word: Kazakh
    "бағаланбайды" is "evaluate" and a negation, "орындалмаса" a condition and a negation."""
    return {concept for spelled, concept in found
            if not any(other != spelled and (other.startswith(spelled) or other.endswith(spelled))
                       and (spelled or other_concept in (concept, IGNORE))
                       for other, other_concept in found)}


def _chosen(text: str, spans: dict[tuple[int, int], set[str]],
            endings: Collection[tuple[int, int]] = ()) -> list[Find]:
    """The longest finds that do not overlap, in reading order; `ignore` words count for nothing. A negating ending
    (one of `endings`) that ends a longer find adds the negation to it."""
    chosen: list[Find] = []
    taken = [False] * (len(text) + 1)
    negated = {end for start, end in endings}
    for (start, end), concepts in sorted(spans.items(), key=lambda kv: (kv[0][0] - kv[0][1], kv[0][0])):
        if any(taken[start:end]):
            continue
        if end in negated and (start, end) not in endings and IGNORE not in concepts:
            concepts = set(concepts) | {relations().strong}
        for i in range(start, end):
            taken[i] = True
        concepts = set(concepts) - {IGNORE}  # a phrase listed under ignore and under a concept counts for the concept
        for concept in list(concepts):
            concepts |= relations().implies.get(concept, frozenset())
        if concepts:
            chosen.append(Find(start, end, text[start:end], frozenset(concepts)))
    return sorted(chosen, key=lambda find: find.start)


def compile_words(code: str, concepts: dict[str, list[str]], prefix: str = "", ending: int | None = None,
                  side: str = "before", loan_ending: int | None = None, **order: bool) -> Senses:
    """Concept word lists of a language as a Senses."""
    patterns = {}
    for concept, words in concepts.items():
        compiled = sorted({(*pattern(word if word.startswith("re:") else lower(word, code), prefix, ending, loan_ending),
                            word.startswith(("re:", "*")))  # a negation of this shape may end a longer word
                           for word in words if word.strip()}, key=lambda item: -len(item[0]))
        if compiled:
            # each spelled-out part is a token's letters as the regular expression matches them, unchanged; the needle
            # is a run of letters every match holds: not across a hyphen, which a dash may stand for
            patterns[concept] = tuple(Word(regex, spelled, _needle(spelled), suffix) for regex, spelled, suffix in compiled)
    return Senses(code, patterns, side, **order)


def _needle(spelled: str) -> str:
    return max(re.split(r"[\s\-]+", spelled), key=len, default="")


_ROMANIAN = str.maketrans("şţŞŢ", "șțȘȚ")
# Arabic short vowels, shadda, sukun and the tatweel: read as if not written ("درّب" is "درب").
_ARABIC_MARKS = re.compile("[\u064b-\u065f\u0670\u0640]")


def lower(text: str, code: str) -> str:
    """Lowercase as the language writes it (Turkish İ/I are i/ı; Arabic without its short vowels)."""
    if code in ("ar", "fa", "ur"):
        text = _ARABIC_MARKS.sub("", text)
    elif code in ("tr", "az"):
        text = text.replace("İ", "i").replace("I", "ı")
    elif code == "ro":  # the cedilla letters older keyboards write are the same letters
        text = text.translate(_ROMANIAN)
    lowered = text.lower()
    if len(lowered) == len(text) and "Σ" not in text:  # as letter by letter: none became two (İ), no final sigma
        return lowered
    return "".join(char.lower() if len(char.lower()) == 1 else char for char in text)


@lru_cache(maxsize=None)
def language_data(code: str) -> dict:
    """The raw contents of a language's word file (empty for a language without one)."""
    path = FOLDER / f"{code}.toml"
    return tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


@lru_cache(maxsize=None)
def senses(code: str) -> Senses | None:
    """A language's concept words, or None for a language without a file."""
    data = language_data(code)
    if not data:
        return None
    order = {key: data[key] for key in ("term_before_number", "term_before_negation") if key in data}
    return compile_words(code, data.get("concepts", {}), data.get("word_prefix", ""),
                         side=data.get("role_side", "before"), **order)
