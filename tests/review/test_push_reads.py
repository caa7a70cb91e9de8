"""What a push reads: nothing it can prove unchanged, every sheet a person may have touched, the store once a language.

A workbook is skipped only when every item's latest pushed row holds its current text and the file's bytes are the
ones push last saw with all those rows in it; an edited workbook (whatever its mtime says) is read, and a push never
writes over what an annotator entered, even in a tab whose columns she moved.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from curation.review.backends import backend_for
from curation.review.push import push
from curation.review.sheet import ReviewError, Target, safe_text
from curation.review.xlsx_backend import XlsxBackend

from tests.review.seeding import fill, seed_competition, seed_translation
from tests.review.test_sheets_backend import AIGERIM, DANA, api, backend_on, sheets_settings  # noqa: F401 (fixtures)


@pytest.fixture
def parsed(monkeypatch) -> list[object]:
    """Every workbook openpyxl parses (the cost a push with nothing new should not pay)."""
    seen: list[object] = []
    original = openpyxl.load_workbook

    def load_workbook(source, *args, **kwargs):
        seen.append(source)
        return original(source, *args, **kwargs)

    monkeypatch.setattr(openpyxl, "load_workbook", load_workbook)
    return seen


def _path(settings, annotator: str) -> Path:
    return settings.root / backend_for(settings).locate(Target("kk", annotator))


def _rows(path: Path, tab: str) -> dict[str, tuple]:
    return {row[0]: row for row in openpyxl.load_workbook(path)[tab].iter_rows(min_row=2, values_only=True) if row[0]}


def test_nothing_new_reads_and_writes_no_workbook(seeded, review_settings, parsed):
    backend = backend_for(review_settings)
    push(seeded, review_settings, "kk", backend)
    first = _path(review_settings, "aigerim")
    before = first.read_bytes(), first.stat().st_mtime_ns
    parsed.clear()

    again = push(seeded, review_settings, "kk", backend)

    assert [(s.added, s.updated, s.unchanged, s.restored) for s in again.sheets] == [(0, 0, 6, 0), (0, 0, 2, 0)]
    assert parsed == []  # neither workbook opened
    assert (first.read_bytes(), first.stat().st_mtime_ns) == before

    # one new text: only the workbook that gets it is opened, once, and the row lands below the others
    seed_competition(seeded, "house-prices")
    seed_translation(seeded, "house-prices", "domain", "kk", "жылжымайтын мүлік")
    third = push(seeded, review_settings, "kk", backend, annotator="aigerim")
    assert [(s.added, s.unchanged) for s in third.sheets] == [(1, 6)]
    assert len(parsed) == 1
    assert list(_rows(first, "domain")) == ["spaceship-titanic/domain/kk", "titanic/domain/kk", "house-prices/domain/kk"]


def test_an_edited_workbook_is_read_whatever_its_mtime(seeded, review_settings, parsed):
    backend = backend_for(review_settings)
    push(seeded, review_settings, "kk", backend, annotator="aigerim")
    path = _path(review_settings, "aigerim")
    stat = path.stat()
    # The annotator fills one row and deletes another; the file's times are put back as they were.
    fill(path, "description", "titanic/description/kk", verdict="NO and YES", own_version="Менің нұсқам", comment="стиль")
    book = openpyxl.load_workbook(path)
    book["domain"].delete_rows(2)  # spaceship-titanic/domain/kk
    book.save(path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    parsed.clear()

    [sheet] = push(seeded, review_settings, "kk", backend, annotator="aigerim").sheets

    assert (sheet.restored, sheet.unchanged, sheet.added, sheet.updated) == (1, 5, 0, 0)
    assert parsed  # read, because its bytes changed
    rows = _rows(path, "description")
    assert rows["titanic/description/kk"][4:7] == ("NO and YES", "Менің нұсқам", "стиль")
    assert "spaceship-titanic/domain/kk" in _rows(path, "domain")

    # Once the restored workbook is what push saved, the next push with nothing new reads it no more.
    parsed.clear()
    [sheet] = push(seeded, review_settings, "kk", backend, annotator="aigerim").sheets
    assert (sheet.unchanged, parsed) == (6, [])
    # A retranslation of the filled row's text: read again, the filled row kept, the new version below it.
    seed_translation(seeded, "titanic", "description", "kk", "Жаңа аударма", provenance="retranslated", round=2)
    [sheet] = push(seeded, review_settings, "kk", backend, annotator="aigerim").sheets
    assert (sheet.added, sheet.kept_filled) == (1, 1)
    rows = _rows(path, "description")
    assert rows["titanic/description/kk"][4:7] == ("NO and YES", "Менің нұсқам", "стиль")
    assert rows["titanic/description/kk #2"][1] == "Жаңа аударма"


def test_a_returned_workbook_copied_over_is_read(seeded, review_settings, parsed, tmp_path):
    backend = backend_for(review_settings)
    push(seeded, review_settings, "kk", backend, annotator="aigerim")
    path = _path(review_settings, "aigerim")
    returned = tmp_path / "returned.xlsx"
    returned.write_bytes(path.read_bytes())
    fill(returned, "domain", "titanic/domain/kk", verdict="YES and YES")
    returned.replace(path)
    seed_translation(seeded, "titanic", "domain", "kk", "деректер туралы ғылым", provenance="retranslated", round=2)

    [sheet] = push(seeded, review_settings, "kk", backend, annotator="aigerim").sheets

    assert (sheet.added, sheet.kept_filled, sheet.updated) == (1, 1, 0)
    rows = _rows(path, "domain")
    assert rows["titanic/domain/kk"][4] == "YES and YES" and rows["titanic/domain/kk #2"][1] == "деректер туралы ғылым"


class EditedWhileReading(XlsxBackend):
    """The xlsx backend, with an annotator saving the workbook right after push read it and before push writes."""

    def __init__(self, settings, edit):
        super().__init__(settings.path("review_sheets"), settings.root)
        self.edit = edit

    def read(self, ref):
        content = super().read(ref)
        if content is not None and self.edit:
            self.edit(self.root / ref)
            self.edit = None
        return content


def test_a_workbook_saved_between_read_and_write_is_not_written_over(seeded, review_settings, parsed):
    def fill_and_delete(path: Path) -> None:
        fill(path, "description", "titanic/description/kk", verdict="NO and YES", own_version="Менің нұсқам")
        book = openpyxl.load_workbook(path)
        book["description"].delete_rows(2)  # spaceship-titanic/description/kk: the rows below move up
        book.save(path)

    push(seeded, review_settings, "kk", backend_for(review_settings), annotator="aigerim")
    path = _path(review_settings, "aigerim")
    seed_translation(seeded, "spaceship-titanic", "description", "kk", "Жаңа аударма", provenance="retranslated",
                     round=2)
    with pytest.raises(ReviewError, match=r"changed while push was writing to it .* push again"):
        push(seeded, review_settings, "kk", EditedWhileReading(review_settings, fill_and_delete), annotator="aigerim")
    # row 2 is now the annotator's filled titanic row; the update meant for the old row 2 did not land on it
    assert _rows(path, "description")["titanic/description/kk"][4:6] == ("NO and YES", "Менің нұсқам")

    parsed.clear()
    [sheet] = push(seeded, review_settings, "kk", backend_for(review_settings), annotator="aigerim").sheets
    assert (sheet.added, sheet.unchanged) == (1, 5) and parsed  # the deleted row's item comes back with its new text
    rows = _rows(path, "description")
    assert rows["titanic/description/kk"][4:6] == ("NO and YES", "Менің нұсқам")
    assert rows["spaceship-titanic/description/kk #2"][1] == "Жаңа аударма"


def test_a_reshaped_tab_is_held_back_not_written_over(seeded, review_settings):
    backend = backend_for(review_settings)
    push(seeded, review_settings, "kk", backend, annotator="aigerim")
    path = _path(review_settings, "aigerim")
    fill(path, "description", "spaceship-titanic/description/kk", verdict="NO and YES", own_version="Менің нұсқам",
         comment="стиль")
    book = openpyxl.load_workbook(path)
    book["description"].cell(1, 7).value = "Notes"  # the annotator renamed 'Comment'
    book.save(path)
    seed_translation(seeded, "titanic", "description", "kk", "Жаңа аударма", provenance="retranslated", round=2)

    report = push(seeded, review_settings, "kk", backend, annotator="aigerim")

    [sheet] = report.sheets
    assert (sheet.held, sheet.added, sheet.restored, sheet.unchanged) == (2, 0, 0, 4)
    assert "2 held back (tab reshaped)" in sheet.line()
    [note] = report.notes
    assert "tab 'description' was not pushed to: the column 'Comment' is missing" in note and "push again" in note
    rows = list(openpyxl.load_workbook(path)["description"].iter_rows(min_row=2, max_row=4, values_only=True))
    assert rows[0][4:7] == ("NO and YES", "Менің нұсқам", "стиль") and rows[1][0] == "titanic/description/kk"
    assert rows[2][0] is None  # nothing restored below: the rows were never gone

    book = openpyxl.load_workbook(path)
    book["description"].cell(1, 7).value = "Comment"
    book.save(path)
    [sheet] = push(seeded, review_settings, "kk", backend, annotator="aigerim").sheets
    assert (sheet.held, sheet.updated) == (0, 1)  # the unfilled row takes the new text in place
    assert _rows(path, "description")["spaceship-titanic/description/kk"][4:7] == ("NO and YES", "Менің нұсқам", "стиль")


def test_the_store_is_read_once_a_language_not_once_a_row(seeded, settings):
    queries: list[str] = []
    seeded.db.set_trace_callback(lambda sql: queries.append(sql) if sql.lstrip().upper().startswith("SELECT") else None)
    push(seeded, settings, "en", backend_for(settings))
    two = len(queries)
    for slug in ("house-prices", "digit-recognizer", "store-sales"):
        seed_competition(seeded, slug)
    queries.clear()
    push(seeded, settings, "en", backend_for(settings))  # 3 more descriptions, on two rubric sheets
    assert len(queries) == two
    seeded.db.set_trace_callback(None)


def test_google_sheets_one_read_per_spreadsheet_and_no_annotators_fix_overwritten(seeded, sheets_settings, api):
    backend = backend_on(api, sheets_settings)
    push(seeded, sheets_settings, "kk", backend)
    start = len(api.calls)
    push(seeded, sheets_settings, "kk", backend)
    # nothing new: the language's spreadsheet read once for both annotators (tabs, values, formulas), nothing written
    assert [method for method, _ in api.calls[start:]] == ["GET", "GET", "GET"]

    # Dana fixed her copy of an item; it is retranslated, and pushed to her alone: Aigerim's untouched row of the
    # same item (same id, another tab) must not be taken for hers.
    tab = f"description - {DANA}"
    [key] = [row[0] for row in api.spreadsheets["sheet-kk"].tab(tab).rows()[1:]]
    competition, field, _ = key.split("/")
    api.type_into("sheet-kk", tab, 2, 5, "NO and NO")
    api.type_into("sheet-kk", tab, 2, 6, "Данының нұсқасы")
    seed_translation(seeded, competition, field, "kk", "Жаңа аударма", provenance="retranslated", round=2)
    [sheet] = push(seeded, sheets_settings, "kk", backend, annotator=DANA).sheets
    assert (sheet.added, sheet.kept_filled, sheet.updated) == (1, 1, 0)
    rows = api.spreadsheets["sheet-kk"].tab(tab).rows()
    assert rows[1][4:6] == ["NO and NO", "Данының нұсқасы"]
    assert rows[2][:2] == [f"{key} #2", "Жаңа аударма"]


# `curate review push --lang kk` in a fresh interpreter, then whether it loaded openpyxl.
PUSH = """
import sys
from curation.cli import app
try:
    app(["review", "push", "--lang", "kk"], standalone_mode=False)
except SystemExit as stop:
    assert not stop.code, stop.code
print("OPENPYXL", "openpyxl" in sys.modules)
"""


def test_a_push_with_nothing_new_does_not_even_load_openpyxl(project, seeded):
    def loaded() -> bool:
        done = subprocess.run([sys.executable, "-c", PUSH], cwd=project, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
        assert done.returncode == 0, done.stdout + done.stderr
        return [line for line in done.stdout.splitlines() if line.startswith("OPENPYXL ")] == ["OPENPYXL True"]

    assert loaded()  # the first push writes the workbooks
    assert not loaded()  # the second proves they get nothing, without opening one (~0.6 s of imports saved)


def test_safe_text_drops_exactly_what_openpyxl_refuses():
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    every = "".join(chr(code) for code in range(0x250))
    assert safe_text(every) == ILLEGAL_CHARACTERS_RE.sub("", every)
