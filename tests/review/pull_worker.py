"""Run `curate` in a process of its own against the Google Sheets fake, and kill it at a chosen point:
python -m tests.review.pull_worker SHEETS_FILE REQUEST INSERT ARGS...

SHEETS_FILE holds the fake's spreadsheets (FakeSheetsAPI.save). REQUEST > 0: the fake SIGKILLs this process on
its REQUESTth request (the first is the OAuth token grant). INSERT as TABLE:N (or "-"): SIGKILL when the store is
about to run its Nth INSERT into TABLE, seen through SQLite's statement trace. Either way the kill point is the
same on every run; nothing in curation knows it is being tested.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import sys

from tests.fakes.sheets_api import FakeSheetsAPI, route_google_to


def kill_before_insert(table: str, nth: int) -> None:
    """SIGKILL this process when any store connection starts its `nth` INSERT INTO `table`."""
    connect, seen = sqlite3.connect, [0]
    prefix = f"INSERT INTO {table} ".upper()

    def trace(statement: str) -> None:
        if statement.lstrip().upper().startswith(prefix):
            seen[0] += 1
            if seen[0] == nth:
                os.kill(os.getpid(), signal.SIGKILL)

    def traced(*args, **kwargs):
        db = connect(*args, **kwargs)
        db.set_trace_callback(trace)
        return db

    sqlite3.connect = traced


def main(sheets: str, request: str, insert: str, args: list[str]) -> None:
    fake = FakeSheetsAPI.load(sheets)
    fake.kill_at = int(request) or None
    route_google_to(fake)
    if insert != "-":
        table, _, nth = insert.partition(":")
        kill_before_insert(table, int(nth))
    from curation.cli import app

    app(args, prog_name="curate")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
