"""Paths the store keeps are relative to the project root, so a project copied, moved or cloned works in place.

`stored_path` turns a path into what the store keeps; `resolved_path` turns it back into a path to open;
`relocated_path` repairs an absolute path written by an older curation, including one that still points into
the folder the project was copied from; `stored_target` names a release target (`publish --to`) in the store.
"""

from __future__ import annotations

import os
from collections.abc import Callable
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


def relocated_path(stored: str, root: Path, accept: Callable[[Path], bool] = Path.exists) -> str:
    """An absolute path from an older store, made relative to `root`.

    Inside the root it simply becomes relative. Outside it (the project was copied or moved, and the path still
    names the old folder), the longest tail of it that exists under the new root is taken: /old/proj/review/kk/x.xlsx
    becomes review/kk/x.xlsx when the copy holds that file (`accept` can ask more of it). A path with no such tail
    is left as it was.
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
        if accept(root / tail):
            return PurePosixPath(*tail.parts).as_posix()
    return stored


def stored_target(text: str, root: Path) -> str:
    """A release target as the store records it: hf:ORG/NAME as given; a folder (relative to the working folder, as
    typed) relative to the project root when inside it, else absolute. So `--to dist/ml2b`, `--to ../dist/ml2b` from
    a subfolder and `--to /path/to/project/dist/ml2b` are one target, and a moved or copied project keeps its own."""
    if text.startswith("hf:"):
        return text
    absolute = Path(os.path.abspath(Path(text).expanduser()))
    return stored_path(absolute, root)
