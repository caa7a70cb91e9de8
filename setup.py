"""Build hook: the wheel carries curate.toml, glossary.csv, prompts/ and cards/ as curation/scaffold/.

`curate init` copies those templates into a new project. An editable install reads them from the repository
itself; a plain install (`pip install .`, a wheel) has no repository next to the package, so the build puts a
copy inside it. Everything else about the package lives in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SCAFFOLD = ("curate.toml", "glossary.csv", "prompts", "cards")


class BuildWithScaffold(build_py):
    """build_py, plus the project templates copied to <build>/curation/scaffold/."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install finds the templates in the repository
        target = Path(self.build_lib) / "curation" / "scaffold"
        for name in SCAFFOLD:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, target / name, dirs_exist_ok=True)
            elif source.is_file():
                target.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / name)


setup(cmdclass={"build_py": BuildWithScaffold})
