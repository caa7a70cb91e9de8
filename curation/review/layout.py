"""What annotators see: tab names, columns, the question, the answers they may give, and the instructions.

Both backends (xlsx and Google Sheets) lay sheets out from these definitions, and pull reads them back by them.
"""

from __future__ import annotations

from dataclasses import dataclass

from curation.records import FIELDS, RUBRIC_SCORES, VERDICTS

QUESTION = "Does the translation (1) sound native and (2) convey the same meaning as the original?"
INSTRUCTIONS_TAB = "Instructions"
RUBRIC_TAB = "rubric"
TAB_TITLES = {field: field for field in FIELDS}  # tab names are the field names, so pull maps them back directly


@dataclass(frozen=True)
class Column:
    key: str
    header: str
    editable: bool
    width: int


REVIEW_COLUMNS = (
    Column("key", "Item id", False, 30),
    Column("translation", "Translation", False, 60),
    Column("original", "English original", False, 60),
    Column("question", "Question", False, 28),
    Column("verdict", "Your answer", True, 16),
    Column("own_version", "Your version (required when any answer is NO)", True, 60),
    Column("comment", "Comment", True, 30),
    Column("check_failed", "Check failed", False, 18),
)
RUBRIC_COLUMNS = (
    Column("key", "Competition", False, 30),
    Column("text", "English description", False, 90),
    Column("score", "Score: 0 unusable, 1 needs revision, 2 good", True, 18),
    Column("comment", "Comment", True, 40),
)
RUBRIC_CHOICES = tuple(f"{score} - {meaning}" for score, meaning in RUBRIC_SCORES.items())
VERDICT_CHOICES = VERDICTS


def columns_for(tab: str) -> tuple[Column, ...]:
    return RUBRIC_COLUMNS if tab == RUBRIC_TAB else REVIEW_COLUMNS


def column_letter(index: int) -> str:
    """A1-notation letter of a 0-based column index (the layouts have fewer than 27 columns)."""
    return chr(ord("A") + index)


def instructions(language_name: str, annotator: str, language: str, rubric: bool) -> list[tuple[str, str]]:
    """The Instructions tab as (label, text) rows; its Language and Annotator rows also tell pull whose sheet it is."""
    if rubric:
        body = [
            ("What to do", "Read each English task description in the 'rubric' tab and score it."),
            ("Scores", "2 - good: clear, complete, neutral; 1 - needs revision: usable but with gaps or errors; "
                       "0 - unusable: wrong task, missing the target or the expected output, or hints at a solution."),
            ("Comment", "Say what is wrong whenever you give 0 or 1; a 0 sends the description back to be rewritten "
                        "with your comment."),
        ]
    else:
        body = [
            ("What to do", f"Each row holds a machine translation into {language_name} next to its English original. "
                           "Answer the question in the 'Your answer' column with the dropdown."),
            ("The question", QUESTION),
            ("Answers", "YES and YES: sounds native and means the same. NO and YES: not native, same meaning. "
                        "YES and NO: native, but the meaning differs. NO and NO: neither."),
            ("Your version", "Whenever an answer is NO, write the corrected text in 'Your version'. Keep column "
                             "names, file names, code and numbers exactly as in the English original. If you cannot "
                             "fix it, leave it empty and say why in 'Comment': the text goes back to be translated "
                             "again and comes back to you."),
            ("Check failed", "Names the automatic checks the translation did not pass; look closely at those rows."),
        ]
    return [
        *body,
        ("Do not", "Edit the grey columns (item id, translation, English original), delete rows or reorder tabs."),
        ("Language", language),
        ("Annotator", annotator),
    ]
