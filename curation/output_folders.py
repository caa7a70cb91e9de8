"""Files commands write into the project's folders (review workbooks, annotations, reports): whole or not at all,
and a folder that cannot take them is one line naming it and what to do.

A file is written under a partial name, then renamed over its place, so a full disk or a kill leaves the old file
(or none) where it belongs, never a cut-off one. The writer holds a lock on its partial file while writing: one
that nobody holds was left by a killed writer, and the next writer in that folder removes it.
"""

from __future__ import annotations

import errno
import os
import secrets
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: a file open in another process cannot be removed there, which is lock enough
    fcntl = None  # type: ignore[assignment]

PARTIAL = ".partial"
FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


class FolderError(Exception):
    """A folder a command writes into cannot take a file; the message names it and says what to do."""


def cannot_write(path: Path, error: OSError, setting: str | None, again: str, scratch: Path | None = None) -> FolderError:
    """A failed write of `path` as one line: what stands in the way (a full disk, a folder or file that cannot be
    written, a file where a folder should be) and what to do; `setting` names the curate.toml key that moves the
    folder (if any), `again` the command to run afterwards."""
    reason = error.strerror or str(error)
    moved = f" (or set {setting} in curate.toml)" if setting else ""
    if error.errno in FULL:
        return FolderError(f"{path.parent}: no room to write {path.name} ({reason}); free some disk space, then {again}")
    failed = [Path(os.fsdecode(name)) for name in (error.filename, error.filename2) if name is not None]
    blocker, kind = _in_the_way(path, [*failed, path, (scratch or path.parent) / path.name])
    if kind == "file":
        return FolderError(f"{blocker}: is a file where a folder should be; move it aside{moved}, then {again}")
    if kind == "unwritable" or error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return FolderError(f"{blocker}: cannot be written ({reason}); make it writable by you{moved}, then {again}")
    return FolderError(f"{path.parent}: cannot write {path.name} ({reason}); check the folder{moved}, then {again}")


def _in_the_way(path: Path, tried: list[Path]) -> tuple[Path, str]:
    """What keeps `path` from being written (`tried`: the paths the failed calls named): ("file") a file standing
    where a folder should be, ("unwritable") a folder or the file itself that cannot be written, else ("") the
    file's folder."""
    for folder in (attempt.parent for attempt in tried):
        existing = folder
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if not existing.is_dir():
            return existing, "file"
        if not os.access(existing, os.W_OK):
            return existing, "unwritable"
    if path.exists() and not os.access(path, os.W_OK):
        return path, "unwritable"
    return path.parent, ""


def write_whole(path: Path, data: bytes, scratch: Path | None = None) -> None:
    """Write `data` to `path` whole: into a partial file in `scratch` (default: a hidden name beside `path`; it must
    be on the same disk), then renamed over `path`. Leaves no partial file behind when it fails (OSError)."""
    folder = scratch or path.parent
    path.parent.mkdir(parents=True, exist_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    clear_partials(folder)
    while True:
        partial = folder / f"{'.' if scratch is None else ''}{path.name}.{secrets.token_hex(4)}{PARTIAL}"
        with open(partial, "xb") as handle:  # the umask's mode, as any file the user saves
            try:
                if fcntl is not None:
                    fcntl.flock(handle, fcntl.LOCK_EX)
                    if os.fstat(handle.fileno()).st_nlink == 0:
                        continue  # taken for a killed writer's and removed before the lock: start a new one
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
                os.replace(partial, path)
            except BaseException:
                partial.unlink(missing_ok=True)
                raise
            return


def clear_partials(folder: Path) -> int:
    """Remove the partial files killed writers left in `folder` (a live writer's are locked and stay); how many."""
    removed = 0
    for leftover in folder.glob(f"*{PARTIAL}"):
        try:
            with open(leftover, "rb") as handle:
                if fcntl is not None:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                leftover.unlink()
                removed += 1
        except OSError:
            continue  # being written now, or the folder cannot be changed: the write itself will say so
    return removed
