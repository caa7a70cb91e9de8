"""Run `curate` in a process of its own and SIGKILL it at a fixed point of writing a file under a folder:
python -m tests.review.push_worker FOLDER POINT ARGS...

POINT "opened": right after the process opened its first file under FOLDER for writing (the file exists, its bytes
not written yet); "renaming": just before it first renames a file into place under FOLDER (the file is whole, not in
place). Both are seen through Python's audit events (open, os.rename), so the kill point is the same on every run
and nothing in curation knows it is being tested.
"""

from __future__ import annotations

import os
import signal
import sys

WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT


def kill_at(folder: str, point: str) -> None:
    """SIGKILL this process at `point` of its first write under `folder`."""
    root = os.path.abspath(folder) + os.sep
    opened = False

    def under(path: object) -> bool:
        return isinstance(path, (str, bytes, os.PathLike)) and os.path.abspath(os.fsdecode(path)).startswith(root)

    def hook(event: str, args: tuple) -> None:
        nonlocal opened
        if opened:  # the first event after the open: the file was created by now
            opened = False  # os.kill is an audit event too
            os.kill(os.getpid(), signal.SIGKILL)
        if point == "opened" and event == "open" and under(args[0]) and (args[2] or 0) & WRITING:
            opened = True
        if point == "renaming" and event == "os.rename" and under(args[1]):
            os.kill(os.getpid(), signal.SIGKILL)

    sys.addaudithook(hook)


def main(folder: str, point: str, args: list[str]) -> None:
    kill_at(folder, point)
    from curation.cli import app

    app(args, prog_name="curate")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
