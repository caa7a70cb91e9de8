"""Content fingerprints: one stable hash of everything that changes an output, used for caches and staleness."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any


def _default(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"cannot fingerprint {type(value).__name__}")


def fingerprint(value: Any) -> str:
    """sha256 of the canonical JSON of a value (sorted keys, no whitespace)."""
    canonical = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=_default)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def file_hash(path: Path) -> str:
    """sha256 of a file's bytes, e.g. a prompt template whose hash is part of every cache key (read in chunks, so a
    multi-GB dataset file is hashed in bounded memory)."""
    with Path(path).open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()
