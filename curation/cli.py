"""The `curate` command line. Thin: parse options, call a stage, print its report."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from curation.config import ConfigError, Settings, load_settings
from curation.languages import UnknownLanguage, parse_language
from curation.store import Store, StoreError

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Build multilingual ML benchmarks from Kaggle competitions.")
console = Console()
errors = Console(stderr=True)

ConfigOption = Annotated[Path | None, typer.Option("--config", "-c", help="curate.toml to use (default: ./curate.toml).")]


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one line for the user and return the exit to raise."""
    errors.print(f"[red]error:[/red] {message}", markup=True, highlight=False)
    return typer.Exit(code)


def settings_from(config: Path | None) -> Settings:
    try:
        return load_settings(config)
    except ConfigError as error:
        raise fail(str(error)) from None


def open_store(settings: Settings) -> Store:
    try:
        return Store(settings.path("store"))
    except StoreError as error:
        raise fail(str(error)) from None


def languages_from(value: str, settings: Settings, include_source: bool = False) -> list[str]:
    """ISO codes from a --lang option: 'all', or comma-separated codes; unknown codes are refused with the valid list."""
    if value.strip().lower() == "all":
        return settings.project.languages if include_source else settings.project.targets
    try:
        return [parse_language(code).code for code in value.split(",") if code.strip()]
    except UnknownLanguage as error:
        raise fail(str(error)) from None


def main() -> None:
    app()
