"""Operands: two identifiers the English puts in an order with an operator ("`pax` / `seats`", "`present` divided by
`enrolled`", "the ratio of `a` to `b`", "`a` minus `b`"), named side by side the other way round in the translation and
never in the English order, were swapped. The roles check (curation/checks/roles.py) reports it with the other swaps.
"""

from __future__ import annotations

import re
from functools import lru_cache

from curation.checks.prose import quote
from curation.checks.senses import Senses, compile_words, language_data, lower


# English operators that order two identifiers: "`a` / `b`", "`a` divided by `b`", "divide `a` by `b`", "the ratio of
# `a` to `b`", "`a` minus `b`". On the calibration and validation sets every correct translation names the operands
# in the English order wherever it names them side by side, in all 12 languages (a fraction is read numerator first:
# "`a` diviso per `b`", "`a` мәнін `b` мәніне бөліп", "`a` değerinin `b` değerine oranı").
_NAME = r"(`[^`\n]+`)"
_OPERATIONS = tuple(re.compile(pattern, re.IGNORECASE) for pattern in (
    _NAME + r"\s*[/÷]\s*" + _NAME,
    _NAME + r",?\s+(?:is\s+)?divided\s+by\s+(?:the\s+)?" + _NAME,
    r"\bdivide\s+(?:the\s+)?" + _NAME + r"\s+by\s+(?:the\s+)?" + _NAME,
    r"\bratio\s+(?:of\s+)?(?:the\s+)?" + _NAME + r"\s+(?:to|and|over)\s+(?:the\s+)?" + _NAME,
    _NAME + r"\s+(?:minus|−)\s+" + _NAME))
# What may stand between two operands side by side: an operator's few words, no clause punctuation but a comma right
# after the first ("`a`, делённому на `b`"). Further apart, or across a clause, two names are not one operation.
_SIDE_BY_SIDE = re.compile(r",?[^,.;:!?()（）。；，、\n]{0,25}")
_LIST_MARKS = " \t,、，"


@lru_cache(maxsize=None)
def _joined(code: str) -> Senses:
    """The words that join names in a list ([lists] of the language's word file): "`b` and `a`" orders nothing."""
    return compile_words(code, {"joined": language_data(code).get("lists", {}).get("joined", [])})


def _places(name: str, text: str) -> list[int]:
    return [match.start() for match in re.finditer(re.escape(name), text)]


def _between(text: str, a: int, first: str, b: int, second: str) -> str:
    """The text between the two names, whichever comes first."""
    return text[a + len(first):b] if a < b else text[b + len(second):a]


def listed(between: str, code: str) -> bool:
    """Whether two names or words stand in a list: nothing but a comma or a list's "and" between them."""
    words = lower(between.strip(_LIST_MARKS), code)
    return not words or any(word.compiled.fullmatch(words) for word in _joined(code).patterns.get("joined", ()))


def operand_swaps(source: str, translation: str, code: str) -> list[str]:
    """Two operands the English orders, named side by side in the other order and never in the English one."""
    problems = []
    for operation in _OPERATIONS:
        for match in operation.finditer(source):
            first, second = match.groups()
            if first == second:
                continue
            side_by_side = [(a < b, a, b) for a in _places(first, translation) for b in _places(second, translation)
                            if _SIDE_BY_SIDE.fullmatch(_between(translation, a, first, b, second))]
            if any(in_order for in_order, _, _ in side_by_side):
                continue
            swapped = next((translation[b:a + len(first)] for _, a, b in side_by_side
                            if not listed(_between(translation, a, first, b, second), code)), None)
            if swapped:
                problems.append(f"role: {quote(swapped)} names {second} before {first}, where the English has "
                                f"{quote(match.group(0))}: the two are swapped")
    return problems
