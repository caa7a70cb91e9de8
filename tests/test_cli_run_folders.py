"""`curate run` when the folders it writes into cannot take a file, and when the store's side files cannot be written:
one line naming the folder or file and what to do, exit 2, and no advice to send workbooks that were not written
(issue 27)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys

from typer.testing import CliRunner

from curation.cli import app
from tests.test_cli_run import russian_project  # noqa: F401 (a fixture)
from tests.unwritable import unwritable, unwritable_folder


def curate(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "400"})


def test_run_with_an_unwritable_review_folder_says_so_once_and_stops(russian_project, llm_server):
    folder = russian_project / "review"
    undo = unwritable_folder(folder)
    try:
        result = curate("run")
    finally:
        undo()

    assert result.exit_code == 2, result.output
    assert "translate:ru: 21 done, 0 failed" in result.output  # the paid work is done and kept
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert errors == [f"error: {folder}: cannot be written ({os.strerror(1 if os.geteuid() == 0 else 13)}); make it "
                      "writable by you (or set paths.review_sheets in curate.toml), then push again"]
    assert "unexpected" not in result.output and "Traceback" not in result.output
    assert "stopped at describe · tag · translate · review push; fix the above and run `curate run` again" in result.output
    assert "Send each workbook" not in result.output  # nothing was written to send
    assert list(folder.rglob("*")) == []

    calls = llm_server.count()
    again = curate("run")  # writable again: the sheets are written, nothing is paid twice
    assert again.exit_code == 0, again.output
    assert llm_server.count() == calls
    assert sorted(path.name for path in (folder / "ru").iterdir()) == ["ru-annotator-1.xlsx", "ru-annotator-2.xlsx"]


def test_an_unwritable_side_file_of_the_store_is_named(russian_project):
    assert curate("ingest").exit_code == 0
    store = russian_project / "data" / "curation.sqlite"
    # A command killed while it had the store open leaves SQLite's shared-memory file beside it.
    killed = subprocess.run([sys.executable, "-c", "import os, signal, sqlite3, sys\n"
                             "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                             "db.execute('PRAGMA journal_mode=WAL'); db.execute('UPDATE schema_migrations SET name = name')\n"
                             "os.kill(os.getpid(), signal.SIGKILL)", str(store)])
    assert killed.returncode == -signal.SIGKILL
    shm = store.with_name("curation.sqlite-shm")
    if os.geteuid() == 0:
        undo = unwritable(shm)
    else:  # read-only, its folder left writable: only the side file is in the way
        shm.chmod(0o444)
        undo = lambda: shm.chmod(0o644)  # noqa: E731
    try:
        result = curate("describe")
    finally:
        undo()

    assert result.exit_code == 2, result.output
    [line] = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert line.startswith(f"error: {shm}: the store's shared-memory file cannot be written (attempt to write a "
                           "readonly database); make it writable by you (it belongs to curation.sqlite: do not delete "
                           "it) and rerun; everything recorded before is kept"), line
    with sqlite3.connect(store) as db:  # nothing was lost
        assert db.execute("SELECT COUNT(*) FROM competitions").fetchone()[0] == 7
