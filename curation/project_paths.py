"""Paths the store keeps are relative to the project root, so a project copied, moved or cloned works in place.

`stored_path` turns a path into what the store keeps; `resolved_path` turns it back into a path to open;
`relocated_path` repairs an absolute path written by an older curation, including one that still points into
the folder the project was copied from.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath


def stored_path(path: Path | str, root: Path) -> str:
    """`path` as the store keeps it: relative to `root` (with / separators) when inside it, else as given."""
    candidate = Path(path)
    if not candidate.is_absolute():
        return PurePosixPath(*candidate.parts).as_posix() if candidate.parts else str(path)
    try:
        return candidate.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def resolved_path(stored: str, root: Path | None) -> Path:
    """The file a stored path names: relative ones against the project root (not the working folder)."""
    path = Path(stored)
    return path if path.is_absolute() or root is None else root / path


def relocated_path(stored: str, root: Path) -> str:
    """An absolute path from an older store, made relative to `root`.

    Inside the root it simply becomes relative. Outside it (the project was copied or moved, and the path still
    names the old folder), the longest tail of it that exists under the new root is taken: /old/proj/review/kk/x.xlsx
    becomes review/kk/x.xlsx when the copy holds that file. A path with no such tail is left as it was.
    """
    path = Path(stored)
    if not path.is_absolute():
        return stored
    relative = stored_path(path, root)
    if relative != stored:
        return relative
    parts = path.parts[1:]
    for start in range(len(parts)):
        tail = Path(*parts[start:])
        if (root / tail).exists():
            return PurePosixPath(*tail.parts).as_posix()
    return stored
