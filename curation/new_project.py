"""`curate init DIR`: a new benchmark project with the repository's config, prompts and card templates."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import curation
from curation.config import CONFIG_FILE

TEMPLATE_FOLDERS = ("prompts", "cards")
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
    """Copy the templates into `directory` and create the empty folders; refuses to overwrite a curate.toml."""
    directory = Path(directory)
    config = directory / CONFIG_FILE
    if config.exists():
        raise ProjectExists(f"{config} already exists; nothing was changed (pick an empty folder to start a new project)")
    source = template_root()
    directory.mkdir(parents=True, exist_ok=True)
    created = []
    text = (source / CONFIG_FILE).read_text(encoding="utf-8")
    # The repository's own config reads the bundled sample; a new project reads its own competitions.
    text = re.sub(r'(?m)^competitions\s*=\s*"[^"]*"', 'competitions = "data/competitions"', text, count=1)
    config.write_text(text, encoding="utf-8")
    created.append(config)
    for name in TEMPLATE_FOLDERS:
        if (source / name).is_dir() and not (directory / name).exists():
            shutil.copytree(source / name, directory / name)
            created.append(directory / name)
    for name in EMPTY_FOLDERS:
        if not (directory / name).exists():
            (directory / name).mkdir(parents=True)
            created.append(directory / name)
    if not (directory / ".gitignore").exists():
        (directory / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
        created.append(directory / ".gitignore")
    return created
