"""Protected spans: what must come back from a translation byte-identical is swapped for numbered placeholders.

Before a text goes to the translator, code, identifiers, file names, URLs, numbers with units and metric names
are replaced by placeholders `⟦1⟧`, `⟦2⟧`, ... (one per occurrence, numbered in reading order); afterwards
`restore_identifiers` puts the originals back.

Why `⟦n⟧`: the brackets (U+27E6/U+27E7) belong to no script and are no punctuation of any of our languages,
so a model has no reason to translate or localize them; they survive Unicode normalization, and sit next to
Cyrillic, Arabic or CJK text without a space without merging into a word. Models sometimes put spaces or
direction marks inside (`⟦ 3 ⟧`), write the digits in their own numerals (`⟦٣⟧`, `⟦３⟧`) or swap in the CJK
look-alike brackets (`〚3〛`); restoring accepts those too, so only a placeholder that is really lost, doubled or
invented shows up as a failure of the placeholders check.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from curation.records import Competition

OPEN, CLOSE = "⟦", "⟧"

# A placeholder as a model may return it: any Unicode decimal digits; spaces, zero-width and direction marks
# inside (Arabic output); the CJK look-alike brackets 〚〛 that Chinese and Japanese text may swap in.
_INSIDE = r"[\s\u200b-\u200f\u2066-\u2069]*"
PLACEHOLDER = re.compile(rf"[{OPEN}〚]{_INSIDE}(\d+){_INSIDE}[{CLOSE}〛]")
# Anything that still looks like a placeholder (or a broken one) after restoring.
PLACEHOLDER_DEBRIS = re.compile(rf"[{OPEN}{CLOSE}〚〛]")

_DATA_EXTENSIONS = (
    "csv", "tsv", "json", "jsonl", "parquet", "feather", "pkl", "pickle", "npy", "npz", "h5", "hdf5", "txt",
    "xml", "yaml", "yml", "zip", "gz", "tar", "7z", "rar", "bz2", "xz", "jpg", "jpeg", "png", "gif", "bmp", "tif",
    "tiff", "dcm", "nii", "wav", "mp3", "flac", "ogg", "mp4", "avi", "mov", "py", "ipynb", "r", "sql", "db",
    "sqlite", "xlsx", "xls", "pdf", "html", "md", "geojson", "shp", "tfrecord", "tfrecords", "arrow", "avro",
)
_EXT = "|".join(sorted(_DATA_EXTENSIONS, key=len, reverse=True))

# Units written as symbols or abbreviations (words such as "hours" are translated, so they are not here).
_UNITS = ("%", "٪", "％", "‰", "°C", "°F", "°", "GB", "MB", "KB", "kB", "TB", "GiB", "MiB", "px", "ms", "µs", "ns", "Hz",
          "kHz", "MHz", "GHz", "kg", "mg", "km", "cm", "mm", "µm", "nm", "m²", "km²", "dB", "kW", "kWh", "MW", "fps",
          "dpi", "bp", "USD", "EUR", "GBP")
_UNIT = "|".join(re.escape(unit) for unit in sorted(_UNITS, key=len, reverse=True))

# Metric names as they appear in task texts when written as identifiers, not as words.
_METRICS = ("RMSLE", "RMSE", "MSLE", "MSE", "MAE", "MAPE", "SMAPE", "WMAE", "WRMSSE", "MCC", "QWK", "AUC", "ROC",
            "PR-AUC", "ROC-AUC", "ROC AUC", "NDCG", "MAP", "mAP", "IoU", "mIoU", "BLEU", "ROUGE", "WER", "CER",
            "logloss", "LogLoss", "R2", "R²", "F1", "F2", "F-beta", "MRR")
_METRIC = "|".join(re.escape(metric) for metric in sorted(_METRICS, key=len, reverse=True))

# Boundaries are against Latin letters and digits only: in a translation an identifier may sit glued to
# Cyrillic, Arabic or CJK letters ("значэннеRMSLE", "列Survived") and is still one identifier.
_B = r"(?<![A-Za-z0-9_])"
_E = r"(?![A-Za-z0-9_])"

# Order matters: earlier patterns win where matches overlap (a URL holding a file name is one span).
_RULES: tuple[re.Pattern[str], ...] = (
    re.compile(r"```.*?```", re.DOTALL),                                      # fenced code
    re.compile(r"`[^`\n]+`"),                                                 # inline code
    re.compile(r"(?:https?://|www\.)[^\s<>()\[\]`\"']+[^\s<>()\[\]`\"'.,;:!?]"),  # URLs
    re.compile(rf"(?<![A-Za-z0-9_/.\-])(?:[A-Za-z0-9_\-]+/)*[A-Za-z0-9_\-]*[A-Za-z0-9_]\.(?:{_EXT}){_E}",
               re.IGNORECASE),                                                # file names and paths: data/train.csv
    re.compile(rf"(?<![A-Za-z0-9_.])\.(?:{_EXT}){_E}", re.IGNORECASE),         # bare extensions: ".csv"
    re.compile(r"(?<![A-Za-z0-9_\-/])(?:[A-Za-z0-9_\-]+/)+(?=[\s,;:.)]|$)"),    # folders: "train_images/"
    re.compile(rf"{_B}[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+{_E}"),           # snake_case: roc_auc, target_col
    re.compile(rf"{_B}[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+{_E}"),                # CamelCase: SalePrice, PassengerId
    re.compile(rf"{_B}[a-z]{{2,}}(?:[A-Z][a-z0-9]+)+{_E}"),                   # lowerCamel: isFraud (not eCommerce)
    re.compile(rf"(?<![A-Za-z0-9_@])(?:{_METRIC})(?:@\d+)?{_E}"),             # metric names: RMSLE, MAP@5
    re.compile(rf"[$€£]\s?\d[\d,]*(?:\.\d+)?|(?<![A-Za-z0-9_.])\d[\d,]*(?:\.\d+)?\s?(?:{_UNIT})(?![A-Za-z])"),  # amounts
)


@dataclass(frozen=True)
class Masked:
    """A text with its protected spans replaced by placeholders; spans[n - 1] is what ⟦n⟧ stands for."""

    text: str
    spans: tuple[str, ...]


def placeholder(number: int) -> str:
    """The placeholder for the n-th protected span (1-based)."""
    return f"{OPEN}{number}{CLOSE}"


_IDENTIFIER = re.compile(r"`([^`\n]+)`")


def protected_names(competition: Competition) -> tuple[str, ...]:
    """Names kept verbatim in this competition's texts: the grading block's columns and the data card's code names."""
    grading = competition.grading or {}
    names = {str(value) for key, value in grading.items() if key.endswith(("_col", "_column")) and value}
    # Backticked in the data card, a column is a name wherever it appears (`Age` -> "Age" in the description);
    # snake_case and CamelCase names are protected by the masking rules anyway. Multi-word code stays as it is.
    names |= set(_IDENTIFIER.findall(competition.data_card))
    return tuple(sorted(name for name in names if name and " " not in name))


def _name_pattern(name: str) -> re.Pattern[str] | None:
    # A name that is a plain lowercase word ("target", "text") is also an ordinary word of the prose; it is
    # protected only when backticked, which the rules above already do, so prose around it is still translated.
    name = name.strip()
    if not name or re.fullmatch(r"[a-z]+", name):
        return None
    return re.compile(rf"(?<![A-Za-z0-9_`]){re.escape(name)}(?![A-Za-z0-9_`])")


@lru_cache(maxsize=1024)
def _patterns(names: frozenset[str]) -> tuple[re.Pattern[str], ...]:
    # Compiled once per set of names: a run masks and checks every text of a competition with the same names, and
    # building them for each text was a tenth of the checks' time (re.escape and re's compile cache, per name and text).
    ordered = sorted(names, key=lambda name: (-len(name), name))  # a longer name first: it holds a shorter one
    return tuple(_RULES) + tuple(p for p in map(_name_pattern, ordered) if p)


def _protected_ranges(text: str, names: Iterable[str]) -> tuple[tuple[int, int], ...]:
    return _ranges(text, frozenset(names))


@lru_cache(maxsize=4096)
def _ranges(text: str, names: frozenset[str]) -> tuple[tuple[int, int], ...]:
    # Kept: the checks mask the same sentence again and again (each check, each unit of the alignment, each
    # language of a source), and with every rule and name tried in turn this was a tenth of their time.
    patterns = _patterns(names)
    taken: list[tuple[int, int]] = []
    for pattern in patterns:
        for match in pattern.finditer(text):
            start, end = match.span()
            if start == end or any(start < t_end and t_start < end for t_start, t_end in taken):
                continue
            taken.append((start, end))
    return tuple(sorted(taken))


def clear_cache() -> None:
    """Forget the texts masked so far (a benchmark timing texts as new)."""
    _ranges.cache_clear()


def protected_spans(text: str, names: Iterable[str] = ()) -> list[str]:
    """The substrings of a text that masking would protect, in reading order."""
    return [text[start:end] for start, end in _protected_ranges(text, names)]


def mask_identifiers(text: str, names: Iterable[str] = ()) -> Masked:
    """Replace code, identifiers, file names, URLs, numbers with units, metric names and the given names by ⟦n⟧."""
    pieces: list[str] = []
    spans: list[str] = []
    at = 0
    for start, end in _protected_ranges(text, names):
        pieces.append(text[at:start])
        spans.append(text[start:end])
        pieces.append(placeholder(len(spans)))
        at = end
    pieces.append(text[at:])
    return Masked("".join(pieces), tuple(spans))


def restore_identifiers(text: str, spans: Iterable[str]) -> str:
    """Put the protected spans back; a placeholder whose number has no span is left as written, for the checks."""
    spans = tuple(spans)

    def original(match: re.Match[str]) -> str:
        number = int(match.group(1))  # int() reads any Unicode decimal digits: ٣, ３
        return spans[number - 1] if 1 <= number <= len(spans) else match.group(0)

    return PLACEHOLDER.sub(original, text)


def placeholder_numbers(text: str) -> list[int]:
    """The numbers of the placeholders in a (masked) text, in order, repeats included."""
    return [int(match.group(1)) for match in PLACEHOLDER.finditer(text)]
