"""Data-card lint: sentences about the submission format or the test files, which the method removes from cards.

A benchmark's data card describes the data a solver trains on; how predictions were submitted to Kaggle and
which files held the hidden test set belong to the competition, not to the task. The lint reports such
sentences (report only: the curator edits the card, nothing is rewritten automatically).
"""

from __future__ import annotations

import re

from curation.records import LintFinding

_I = re.IGNORECASE

_SUBMISSION_FORMAT = re.compile(
    r"\bsample[\s_-]?submission\w*|\bsubmission\w*\b|\bsubmit(?:s|ted|ting)?\b|\bleader-?boards?\b"
    r"|\b(?:public|private)\s+lb\b",
    _I,
)
_TEST_FILES = re.compile(
    r"\btest(?:_[\w-]+)?\.(?:csv|tsv|parquet|json|jsonl|zip|npy|h5|txt|feather)\b"
    r"|\btest[\s_-]+(?:set|data|files?|folders?|directory|images|split|csv)\b|\b[\w-]*test[\w-]*/"
    r"|\bhidden\s+(?:test|labels)\b|\bheld[\s-]out\s+(?:test|data)\b",
    _I,
)

RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("submission_format", _SUBMISSION_FORMAT),
    ("test_files", _TEST_FILES),
)

# Sentence ends: a full stop, question or exclamation mark before a space and a capital or a quote or bracket,
# or a line break (cards are often bullet lists). File names like "train.csv" do not end a sentence.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(\[`*-])|\n+")


def sentences(text: str) -> list[str]:
    """The card split into sentences and list items, stripped of bullets and blank pieces."""
    pieces = (piece.strip().lstrip("-*• ").strip() for piece in _SENTENCE_END.split(text))
    return [piece for piece in pieces if piece]


def lint_data_card(text: str) -> list[LintFinding]:
    """One finding per sentence that talks about submission format or test files, naming the first rule it broke."""
    findings: list[LintFinding] = []
    for sentence in sentences(text):
        for rule, pattern in RULES:
            if pattern.search(sentence):
                findings.append(LintFinding(rule=rule, matched=sentence))
                break
    return findings
