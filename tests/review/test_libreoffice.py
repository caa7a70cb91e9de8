"""A workbook that went through LibreOffice (xlsx -> ods -> xlsx) still pulls correctly."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from curation.review.backends import backend_for
from curation.review.pull import pull
from curation.review.push import push

from tests.review.seeding import KK, fill, seed_translation

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
pytestmark = pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed; "
                                                        "apt-get install libreoffice-calc-nogui to run this test")
FIX = "Жолаушылардың қайсысы апаттан аман қалғанын `Survived` бағаны бойынша train.csv деректерінен болжаңыз."


def convert(path: Path, to: str, folder: Path) -> Path:
    folder.mkdir(exist_ok=True)
    subprocess.run([SOFFICE, "--headless", f"-env:UserInstallation=file://{folder.parent / 'lo-profile'}",
                    "--convert-to", to, "--outdir", str(folder), str(path)],
                   check=True, capture_output=True, timeout=180)
    return folder / f"{path.stem}.{to.split(':')[0]}"


def test_a_libreoffice_round_trip_pulls_the_same_answers(seeded, review_settings, tmp_path):
    seed_translation(seeded, "titanic", "domain", "kk", "=деректер ғылымы")  # formula-looking text survives too
    report = push(seeded, review_settings, "kk", backend_for(review_settings), annotator="aigerim")
    pushed = Path(report.sheets[0].ref)
    fill(pushed, "description", "titanic/description/kk", verdict="NO and YES", own_version=FIX, comment="стиль\nжәне сөздер")
    fill(pushed, "domain", "titanic/domain/kk", verdict="YES and YES")

    ods = convert(pushed, "ods", tmp_path / "ods")
    back = convert(ods, "xlsx:Calc MS Excel 2007 XML", tmp_path / "back")
    assert openpyxl.load_workbook(back)["domain"]["B3"].value == "=деректер ғылымы"

    pulled = pull(seeded, review_settings, "kk", backend_for(review_settings), file=back)

    assert pulled.problems == []
    assert {(v.item_id, v.verdict, v.own_version, v.comment) for v in seeded.verdicts("kk")} == {
        ("titanic/description/kk", "NO and YES", FIX, "стиль\nжәне сөздер"),
        ("titanic/domain/kk", "YES and YES", "", ""),
    }


# A Basic macro that opens the workbook in LibreOffice, edits cells as an annotator would, and saves it as .xlsx.
MACRO = """Sub Edit
  Dim load(0) As New com.sun.star.beans.PropertyValue
  load(0).Name = "Hidden" : load(0).Value = True
  doc = StarDesktop.loadComponentFromURL({source}, "_blank", 0, load())
{edits}
  Dim save(0) As New com.sun.star.beans.PropertyValue
  save(0).Name = "FilterName" : save(0).Value = "Calc MS Excel 2007 XML"
  doc.storeToURL({target}, save())
  doc.close(True)
  StarDesktop.terminate()
End Sub

Function RowOf(sheet, key)
  RowOf = -1
  For r = 1 To 1000
    If sheet.getCellByPosition(0, r).getString() = key Then
      RowOf = r
      Exit Function
    End If
  Next r
End Function
"""
MODULE = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument '
          '1.0//EN" "module.dtd">\n<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" '
          'script:language="StarBasic">{code}</script:module>\n')


def _basic(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def edit_in_libreoffice(path: Path, folder: Path, edits: list[tuple[str, ...]]) -> Path:
    """Open `path` in headless LibreOffice, apply (tab, key, column key, "set", text) and (..., "replace", word, by)
    edits through its API, and save it as .xlsx in `folder`; returns the saved file."""
    from xml.sax.saxutils import escape

    from curation.review.layout import columns_for

    profile = folder.parent / "lo-profile"
    # The first start creates the profile and its Standard Basic library; the macro then takes Module1's place.
    subprocess.run([SOFFICE, "--headless", f"-env:UserInstallation=file://{profile}", "--terminate_after_init"],
                   check=True, capture_output=True, timeout=180)
    lines = []
    for tab, key, column, how, *texts in edits:
        sheet = f"doc.Sheets.getByName({_basic(tab)})"
        index = [c.key for c in columns_for(tab)].index(column)
        cell = f"{sheet}.getCellByPosition({index}, RowOf({sheet}, {_basic(key)}))"
        value = _basic(texts[0]) if how == "set" else f"Replace({cell}.getString(), {_basic(texts[0])}, {_basic(texts[1])})"
        lines.append(f"  {cell}.setString({value})")
    folder.mkdir(exist_ok=True)
    target = folder / path.name
    code = MACRO.format(source=_basic(path.resolve().as_uri()), target=_basic(target.resolve().as_uri()),
                        edits="\n".join(lines))
    library = profile / "user" / "basic" / "Standard"
    assert (library / "script.xlb").exists(), "LibreOffice laid out no Standard Basic library in its new profile"
    (library / "Module1.xba").write_text(MODULE.format(code=escape(code)), encoding="utf-8")
    subprocess.run([SOFFICE, "--headless", f"-env:UserInstallation=file://{profile}", "macro:///Standard.Module1.Edit"],
                   check=True, capture_output=True, timeout=180)
    assert target.exists(), "LibreOffice did not save the edited workbook"
    return target


def test_a_one_word_fix_made_in_libreoffice_pulls_as_that_fix(seeded, review_settings, tmp_path):
    report = push(seeded, review_settings, "kk", backend_for(review_settings), annotator="aigerim")
    pushed = Path(report.sheets[0].ref)
    assert "болжаңыз" in KK["description"]
    back = edit_in_libreoffice(pushed, tmp_path / "back", [
        # the annotator fixes one word of the prefilled version and answers NO ...
        ("description", "titanic/description/kk", "verdict", "set", "NO and YES"),
        ("description", "titanic/description/kk", "own_version", "replace", "болжаңыз", "анықтаңыз"),
        # ... answers NO without touching the prefilled version (no fix given) ...
        ("data_card", "titanic/data_card/kk", "verdict", "set", "NO and NO"),
        ("data_card", "titanic/data_card/kk", "comment", "set", "мағынасы басқа"),
        # ... and approves another row as it stands
        ("domain", "titanic/domain/kk", "verdict", "set", "YES and YES"),
    ])

    pulled = pull(seeded, review_settings, "kk", backend_for(review_settings), file=back)

    assert pulled.problems == []
    assert {(v.item_id, v.verdict, v.own_version, v.comment) for v in seeded.verdicts("kk")} == {
        ("titanic/description/kk", "NO and YES", KK["description"].replace("болжаңыз", "анықтаңыз"), ""),
        ("titanic/data_card/kk", "NO and NO", "", "мағынасы басқа"),
        ("titanic/domain/kk", "YES and YES", "", ""),
    }
    [note] = pulled.notes
    assert "titanic/data_card/kk" in note and "without your version" in note
