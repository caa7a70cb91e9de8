"""Files written whole into the project's folders (curation/output_folders.py): a partial file being written by a
live process is left alone; one a killed writer left is removed by the next write into its folder. `curate init`
into a folder that cannot take the project is one line, exit 2, and leaves nothing of it (issue 27)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.output_folders import clear_partials, write_whole
from tests.unwritable import unwritable_folder

fcntl = pytest.importorskip("fcntl")


def test_a_live_writers_partial_file_stays_and_a_dead_ones_goes(tmp_path):
    live, dead = tmp_path / ".a.csv.1111.partial", tmp_path / ".b.csv.2222.partial"
    dead.write_bytes(b"half")
    with open(live, "xb") as writing:
        fcntl.flock(writing, fcntl.LOCK_EX)  # as write_whole holds it while writing

        write_whole(tmp_path / "c.csv", b"whole")

        assert live.exists() and not dead.exists()
        assert clear_partials(tmp_path) == 0
    assert clear_partials(tmp_path) == 1  # its writer is gone (closed, or killed)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["c.csv"]
    assert (tmp_path / "c.csv").read_bytes() == b"whole"


def test_init_into_a_folder_that_cannot_take_the_project_is_one_line_and_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    result = CliRunner().invoke(app, ["init", "notes.txt/ml2b"], env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert result.output.strip() == ("error: notes.txt: is a file where a folder should be; move it aside, then run "
                                     "`curate init notes.txt/ml2b` again")

    (tmp_path / "ml2b").mkdir()
    (tmp_path / "ml2b" / "data").write_text("mine", encoding="utf-8")  # the scaffold stops partway through
    result = CliRunner().invoke(app, ["init", "ml2b"], env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert result.output.strip() == ("error: ml2b/data: is a file where a folder should be; move it aside, then run "
                                     "`curate init ml2b` again")
    assert sorted(path.name for path in (tmp_path / "ml2b").iterdir()) == ["data"]  # what was there before, only

    undo = unwritable_folder(tmp_path / "ro")
    try:
        result = CliRunner().invoke(app, ["init", "ro/ml2b"], env={"COLUMNS": "300"})
    finally:
        undo()
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ro: cannot be written (") and result.output.strip().endswith(
        "); make it writable by you, then run `curate init ro/ml2b` again"), result.output
    assert list((tmp_path / "ro").iterdir()) == []
