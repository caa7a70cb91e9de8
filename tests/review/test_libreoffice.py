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

from tests.review.seeding import fill, seed_translation

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
