"""The checks' process never outlives the run that started it, even when the run is killed mid-check."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

RUN = """
import os, sys, time
from curation.checks import off_loop

if __name__ == "__main__":
    pool = off_loop._checks_process()
    print(pool.submit(os.getpid).result(), flush=True)
    pool.submit(time.sleep, 120)  # the worker is busy (as with a model load) when the run is killed
    time.sleep(120)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has exited; only its parent's bookkeeping is left
        return stat.read().split(")")[-1].split()[0] != "Z"


def test_a_killed_run_takes_its_busy_checks_process_with_it(tmp_path: Path):
    script = tmp_path / "run.py"
    script.write_text(RUN)
    run = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    worker = int(run.stdout.readline())
    assert alive(worker)
    run.send_signal(signal.SIGKILL)  # no exit hook runs: the worker must notice by itself
    run.wait()
    deadline = time.monotonic() + 30  # a generous bound for a loaded machine; it is gone within a second normally
    while alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    gone = not alive(worker)
    if not gone:
        os.kill(worker, signal.SIGKILL)
    assert gone, "the checks' process outlived the run that started it"
