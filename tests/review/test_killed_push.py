"""A `curate review push` killed while it writes a workbook leaves nothing in the folder the curator sends to
annotators but whole workbooks, and the next push writes what the killed one did not and removes what it left
(issue 27).

The kill is deterministic: `curate` runs in a process of its own (tests/review/push_worker.py) that SIGKILLs itself
right after it opened a file under review/ for writing, or just before it renames one into place.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from curation.cli import app
from tests.review.seeding import seed_translation

REPO = Path(__file__).resolve().parents[2]
WORKBOOKS = ["kk/kk-annotator-1.xlsx", "kk/kk-annotator-2.xlsx"]


def curate(*args: str):
    return CliRunner().invoke(app, list(args))


def killed_push(project: Path, point: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tests.review.push_worker", str(project / "review"), point, "review",
                           "push", "--lang", "kk"], cwd=project, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)})


def files_under(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file())


@pytest.mark.parametrize("point", ["opened", "renaming"])
def test_a_push_killed_mid_write_leaves_only_whole_workbooks(project, seeded, point):
    assert curate("review", "push", "--lang", "kk").exit_code == 0
    seed_translation(seeded, "titanic", "domain", "kk", "деректер ғылымы мен талдау")  # something new to write
    review = project / "review"
    before = {name: (review / name).read_bytes() for name in WORKBOOKS}

    killed = killed_push(project, point)

    assert killed.returncode == -signal.SIGKILL, killed.stderr
    # What the curator sends out is untouched: the same workbooks, byte for byte, and nothing else beside them.
    assert sorted(str(path.relative_to(review)) for path in (review / "kk").iterdir()) == WORKBOOKS
    assert {name: (review / name).read_bytes() for name in WORKBOOKS} == before

    again = curate("review", "push", "--lang", "kk")

    assert again.exit_code == 0, again.output
    assert "1 updated" in again.output  # the killed push recorded nothing it did not write
    assert files_under(review) == WORKBOOKS  # the killed push's partial file is gone too
    for name in WORKBOOKS:
        assert zipfile.is_zipfile(review / name)
        openpyxl.load_workbook(review / name)


def test_the_next_push_removes_what_an_older_killed_push_left_among_the_workbooks(project, seeded):
    assert curate("review", "push", "--lang", "kk").exit_code == 0
    seed_translation(seeded, "titanic", "domain", "kk", "деректер ғылымы мен талдау")
    leftover = project / "review" / "kk" / "tmpa1b2c3d4.xlsx"  # as earlier versions' killed pushes left them
    leftover.write_bytes(b"")
    mine = project / "review" / "kk" / "tmp-notes.xlsx"  # a workbook of the curator's own stays
    mine.write_bytes(b"")

    assert curate("review", "push", "--lang", "kk").exit_code == 0

    assert not leftover.exists() and mine.exists()
