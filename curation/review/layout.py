"""What annotators see: tab names, columns, the question, the answers they may give, and the instructions.

Both backends (xlsx and Google Sheets) lay sheets out from these definitions, and pull reads them back by them.
"""

from __future__ import annotations

from dataclasses import dataclass

from curation.records import FIELDS, RUBRIC_SCORES, VERDICTS

QUESTION = "Does the translation (1) sound native and (2) convey the same meaning as the original?"
INSTRUCTIONS_TAB = "Instructions"
# Label and text columns of the Instructions tab, in characters: the text wraps within a screen and a printed page.
INSTRUCTIONS_WIDTHS = (16, 72)
RUBRIC_TAB = "rubric"
TAB_TITLES = {field: field for field in FIELDS}  # tab names are the field names, so pull maps them back directly


@dataclass(frozen=True)
class Column:
    key: str
    header: str
    editable: bool
    width: int
    former: tuple[str, ...] = ()  # headers older sheets carry for this column: they read the same




REVIEW_COLUMNS = (
    Column("key", "Item id", False, 30),
    Column("translation", "Translation", False, 60),
    Column("original", "English original", False, 60),
    Column("question", "Question", False, 28),
    Column("verdict", "Your answer", True, 16),
    Column("own_version", "Your version (a copy of the translation: edit it to fix it)", True, 60,
           former=("Your version (required when any answer is NO)",)),
    Column("comment", "Comment", True, 30),
    Column("check_failed", "Check failed", False, 40),
)
RUBRIC_COLUMNS = (
    Column("key", "Competition", False, 30),
    Column("text", "English description", False, 90),
    Column("score", "Score: 0 unusable, 1 needs revision, 2 good", True, 18),
    Column("comment", "Comment", True, 40),
    # Context for judging the description; after the answer columns so sheets pushed without them read as before.
    Column("data_card", "Data card", False, 60),
    Column("link", "Competition link", False, 30),
    # The solution outline of the competition (curate outline), scored on the same scale; empty without one.
    Column("outline", "Solution outline", False, 90),
    Column("outline_score", "Outline score: 0 unusable, 1 needs revision, 2 good", True, 18),
    Column("outline_comment", "Outline comment", True, 40),
)
# Columns that sheets pushed before them lack: push writes their header into such a tab with the next rows, and pull
# reads such a tab as before (their cells empty).
LATER_COLUMNS = frozenset({"data_card", "link", "outline", "outline_score", "outline_comment"})
# The columns with a dropdown of answers.
ANSWER_COLUMNS = ("verdict", "score", "outline_score")
RUBRIC_CHOICES = tuple(f"{score} - {meaning}" for score, meaning in RUBRIC_SCORES.items())
VERDICT_CHOICES = VERDICTS


def columns_for(tab: str) -> tuple[Column, ...]:
    return RUBRIC_COLUMNS if tab == RUBRIC_TAB else REVIEW_COLUMNS


def column_letter(index: int) -> str:
    """A1-notation letter of a 0-based column index (the layouts have fewer than 27 columns)."""
    return chr(ord("A") + index)


KEEP_EXACTLY = ("Code and anything in `backticks`, column and file names (train.csv, PassengerId), URLs, metric "
                "names (RMSE, F1), amounts with units (10%, 5 GB) and every number (0.5, 2011-01-20) stay exactly "
                "as in the English: not translated, transliterated or reformatted (0.5, not 0,5). Each must appear "
                "as many times as in the English, no more and no fewer: a version that drops, changes or repeats "
                "one cannot be taken, and its row comes back to you to correct.")
SEND_BACK = {
    "xlsx": ("Save the file in Excel or LibreOffice (File > Save; keep the .xlsx format when asked) and send it "
             "back as it is: the same file name, tabs and columns. Do not rename the file, add, delete or reorder "
             "tabs or columns."),
    "sheets": "Nothing to send: Google Sheets keeps your answers as you type. Tell the curator when you are done.",
}


def _locked(columns: tuple[Column, ...]) -> str:
    return ", ".join(f"'{column.header}'" for column in columns if not column.editable and column.key != "question")


def instructions(language_name: str, annotator: str, language: str, rubric: bool,
                 backend: str = "xlsx") -> list[tuple[str, str]]:
    """The Instructions tab as (label, text) rows; its Language and Annotator rows also tell pull whose sheet it is.
    `backend` ("xlsx" or "sheets") decides how the sheet goes back to the curator."""
    columns = RUBRIC_COLUMNS if rubric else REVIEW_COLUMNS
    header = {column.key: column.header for column in columns}
    if rubric:
        body = [
            ("What to do", f"Read each English task description in the '{RUBRIC_TAB}' tab (column "
                           f"'{header['text']}') and score it in the '{header['score']}' column with the dropdown. "
                           f"The '{header['data_card']}' and '{header['link']}' columns at the right show what the "
                           "competition's data holds and where the competition is, to judge the description against."),
            ("Scores", "2 - good: clear, complete, neutral; 1 - needs revision: usable but with gaps or errors; "
                       "0 - unusable: wrong task, missing the target or the expected output, or hints at a solution."),
            ("Comment", f"Say in '{header['comment']}' what is wrong whenever you give 0 or 1; a 0 sends the "
                        "description back to be rewritten with your comment."),
            ("Outline", f"Where '{header['outline']}' holds a text, it is a plan, in words, of how the best public "
                        "solutions solve the task. Score it on the same scale in "
                        f"'{header['outline_score']}': 2 - good: faithful to what strong solutions do, complete and "
                        "clear enough to follow; 1 - needs revision; 0 - unusable: wrong, code instead of words, or it "
                        f"uses the test answers. Say why in '{header['outline_comment']}' for 0 or 1. An empty "
                        "outline needs no score."),
        ]
    else:
        body = [
            ("What to do", f"Each row holds a machine translation into {language_name} next to its English original. "
                           f"Answer the question in the '{header['verdict']}' column with the dropdown."),
            ("The question", QUESTION),
            ("Answers", "YES and YES: sounds native and means the same. NO and YES: not native, same meaning. "
                        "YES and NO: native, but the meaning differs. NO and NO: neither."),
            ("Your version", "The 'Your version' column starts as a copy of the translation. Whenever an answer is "
                             "NO, edit it there into the text you would publish: change only what is wrong. With "
                             "YES and YES leave it as it is. If you cannot fix it, leave it unchanged (or empty) and "
                             f"say why in '{header['comment']}': the text goes back to be translated again and comes "
                             "back to you."),
            ("Keep exactly", KEEP_EXACTLY),
            ("Check failed", f"'{header['check_failed']}' says in a sentence what the automatic checks found wrong "
                             "with the translation; look closely at those rows."),
        ]
    return [
        *body,
        ("Sending it back", SEND_BACK[backend]),
        ("Do not", f"Edit the locked columns ({_locked(columns)}), delete rows or reorder tabs."),
        ("Language", language),
        ("Annotator", annotator),
    ]
