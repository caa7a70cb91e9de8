"""Making a file unwritable in a test, also when the tests run as root (who ignores file modes)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest


def unwritable(path: Path) -> Callable[[], None]:
    """Make `path` impossible to write, replace or delete; return the function that undoes it. A normal user gets
    a read-only file in a read-only folder; root an immutable file (chattr +i), or the test is skipped."""
    if os.geteuid() != 0:
        modes = [(target, target.stat().st_mode) for target in (path, path.parent)]
        path.chmod(0o444)
        path.parent.chmod(0o555)  # replacing a file means unlinking it from its folder
        return lambda: [target.chmod(mode) for target, mode in reversed(modes)] and None
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
        pytest.skip("running as root without chattr +i: no way to make a file unwritable")
    return lambda: subprocess.run(["chattr", "-i", str(path)], check=True) and None


def unwritable_folder(folder: Path) -> Callable[[], None]:
    """Make `folder` refuse new files, renames and deletions (its files stay readable); return the function that
    undoes it. A normal user gets a read-only folder; root an immutable one (chattr +i), or the test is skipped."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        mode = folder.stat().st_mode
        folder.chmod(0o555)
        return lambda: folder.chmod(mode)
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode:
        pytest.skip("running as root without chattr +i: no way to make a folder unwritable")
    return lambda: subprocess.run(["chattr", "-i", str(folder)], check=True) and None


def disk_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file written from now on fails as on a full disk: flushing it to disk raises ENOSPC, after its bytes
    went into the page cache (as a full disk with delayed allocation answers)."""
    import errno

    def full(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
