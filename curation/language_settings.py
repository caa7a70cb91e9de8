"""[languages.<code>]: how a project names a language where the registry's names do not suit it, and the rules those
names must keep (a configured language, one harness file per language)."""

from __future__ import annotations

from dataclasses import replace

from pydantic import Field, field_validator

from curation.languages import Language, UnknownLanguage, parse_language
from curation.model_settings import Strict


class LanguageNames(Strict):
    """One language's names in this project: the harness's file name and the native name the translate prompt uses."""

    harness: str | None = Field(
        default=None, description="The grading harness's file name stem: `tasks/<harness>.csv`; unset: the registry's "
                                  "(the harness's names for ML²B's languages, the English name for an added one).")
    native: str | None = Field(default=None, description="The name the translate prompt gives the language; unset: "
                                                         "the registry's native name.")

    @field_validator("harness")
    @classmethod
    def _file_name(cls, name: str | None) -> str | None:
        if name is not None and (not name.strip() or any(char in name for char in '/\\:*?"<>|') or name.startswith(".")):
            raise ValueError(f"{name!r} is not a file name; give the name the harness reads, e.g. \"German\" for "
                             "tasks/German.csv")
        return name


def with_project_names(code: str, names: dict[str, LanguageNames]) -> Language:
    """The registry's entry for a language with the project's names for it."""
    language = parse_language(code)
    own = names.get(language.code)
    if own is None:
        return language
    return replace(language, harness=own.harness or language.harness, native=own.native or language.native)


def check_names(configured: list[str], names: dict[str, LanguageNames]) -> None:
    """Refuse [languages.<code>] tables for a language that is not configured, and two languages sharing a harness file."""
    for written in names:
        try:
            code = parse_language(written).code
        except UnknownLanguage as error:
            raise ValueError(f"languages.{written}: {error}") from None
        if code != written:
            raise ValueError(f"languages.{written}: write the code as {code}")
        if code not in configured:
            raise ValueError(f"languages.{code}: {code} is not in [project] languages; add it there or remove "
                             f"[languages.{code}]")
    files: dict[str, str] = {}
    for code in sorted(configured, key=lambda code: code in names):  # the language the project renamed is the one named
        harness = with_project_names(code, names).harness
        if harness.casefold() in files:
            raise ValueError(f"languages.{code}.harness: {code} and {files[harness.casefold()]} would both write "
                             f"tasks/{harness}.csv; give [languages.{code}] harness a name of its own")
        files[harness.casefold()] = code
