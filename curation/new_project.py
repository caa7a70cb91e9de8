"""`curate init DIR`: a new benchmark project with the repository's config, glossary, prompts and card templates."""

from __future__ import annotations

import contextlib
import re
import shutil
from pathlib import Path

import curation
from curation.config import CONFIG_FILE
from curation.output_folders import cannot_write

TEMPLATE_FOLDERS = ("prompts", "cards")
TEMPLATE_FILES = ("glossary.csv",)  # the ML glossary a curator edits (docs/curator/translate.md)
EMPTY_FOLDERS = ("data/competitions", "annotations")
GITIGNORE = "# the working store is rebuilt from data/ and annotations/; never commit it\ndata/curation.sqlite*\nreports/\n"


class ProjectExists(Exception):
    """The target already holds a project, or the templates cannot be found; the message says which."""


def template_root() -> Path:
    """Where curate.toml, prompts/ and cards/ come from: the package's scaffold/ (wheel) or the repository (editable)."""
    package = Path(curation.__file__).resolve().parent
    for candidate in (package / "scaffold", package.parent):
        if (candidate / CONFIG_FILE).exists():
            return candidate
    raise ProjectExists(f"no {CONFIG_FILE} template next to the installed package ({package}); "
                        "install curation from a clone of its repository (pip install -e .)")


def create_project(directory: Path) -> list[Path]:
    """Copy the templates into `directory` and create the empty folders; refuses to overwrite a curate.toml. A folder
    that cannot take them is a FolderError, and nothing of the project is left."""
    directory = Path(directory)
    config = directory / CONFIG_FILE
    if config.exists():
        raise ProjectExists(f"{config} already exists; nothing was changed (pick an empty folder to start a new project)")
    source = template_root()
    created: list[Path] = []
    fresh = not directory.exists()
    try:
        _scaffold(source, directory, config, created)
    except OSError as error:
        # A half-made project would pass for a whole one on the next try: take back what this call made.
        for path in reversed(created):
            with contextlib.suppress(OSError):
                shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)
        if fresh:
            shutil.rmtree(directory, ignore_errors=True)
        raise cannot_write(config, error, None, f"run `curate init {directory}` again") from None
    return created


def _scaffold(source: Path, directory: Path, config: Path, created: list[Path]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    text = (source / CONFIG_FILE).read_text(encoding="utf-8")
    # The repository's own config reads the bundled sample; a new project reads its own competitions.
    text = re.sub(r'(?m)^competitions\s*=\s*"[^"]*"', 'competitions = "data/competitions"', text, count=1)
    created.append(config)  # before it is written: a cut-off file is taken back too
    config.write_text(text, encoding="utf-8")
    for name in TEMPLATE_FOLDERS:
        if (source / name).is_dir() and not (directory / name).exists():
            created.append(directory / name)
            shutil.copytree(source / name, directory / name)
    for name in TEMPLATE_FILES:
        if (source / name).is_file() and not (directory / name).exists():
            created.append(directory / name)
            shutil.copy2(source / name, directory / name)
    for name in EMPTY_FOLDERS:
        if not (directory / name).exists():
            created.append(directory / name)
            (directory / name).mkdir(parents=True)
    if not (directory / ".gitignore").exists():
        created.append(directory / ".gitignore")
        (directory / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
