"""The typer app, its consoles, and the helpers and options every command shares."""

from __future__ import annotations

import logging
import os
import re
import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperGroup

from curation.config import ConfigError, Settings, load_settings
from curation.languages import UnknownLanguage, parse_language
from curation.store import Store, StoreError, StoreWriteError, cannot_write


class _Commands(TyperGroup):
    """The commands of `curate`: a Ctrl-C that no command turned into its own line is said as they say it."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:  # typer would exit 130 without a word
            raise interrupted() from None


app = typer.Typer(cls=_Commands, no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                  help="Build multilingual ML benchmarks from Kaggle competitions.")
console = Console()
errors = Console(stderr=True)

ConfigOption = Annotated[Path | None, typer.Option(
    "--config", "-c", help="curate.toml to use (default: the nearest one in this folder or a folder above it).")]
CompetitionOption = Annotated[str | None, typer.Option("--competition", metavar="SLUG", help="Only this competition.")]
ForceOption = Annotated[bool, typer.Option("--force", help="Redo finished competitions too (cached LLM answers are reused).")]
LangOption = Annotated[str | None, typer.Option("--lang", help="ISO code(s), comma-separated, or 'all' (default: all).")]
BackendOption = Annotated[str | None, typer.Option(
    "--backend", help="Review sheets backend: xlsx or sheets (default: [review] backend in curate.toml, xlsx unless set).")]
VerboseOption = Annotated[bool, typer.Option("--verbose", "-v", help="List everything instead of a few examples per kind.")]
BatchOption = Annotated[bool, typer.Option(
    "--batch", help="Send uncached requests through the providers' batch APIs (half price, answers within 24 h).")]
BatchFallbackOption = Annotated[str | None, typer.Option(
    "--batch-fallback", metavar="online",
    help="'online': ask online at once what a batch did not answer (default: leave those items pending).")]
MaxCostOption = Annotated[float | None, typer.Option(
    "--max-cost", min=0, metavar="USD", help="Stop starting LLM calls once the spend would pass this many USD.")]


class _StderrLines(logging.Handler):
    """Warnings from the package (e.g. an LLM provider backing off) as plain stderr lines, like the CLI's own."""

    def emit(self, record: logging.LogRecord) -> None:
        complain(self.format(record))


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"curate {version('curation')}")
        raise typer.Exit()


@app.callback()
def _setup(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                 help="Print the version and exit.")] = False) -> None:
    """Build multilingual ML benchmarks from Kaggle competitions."""
    # Output fits the terminal; when piped, COLUMNS (read now, not at import) sets the width, else rich's 80.
    columns = os.environ.get("COLUMNS", "")
    for shown in (console, errors):
        shown.width = int(columns) if columns.isdigit() else None  # type: ignore[assignment]  (None: ask again)
    logger = logging.getLogger("curation")
    if not any(isinstance(handler, _StderrLines) for handler in logger.handlers):
        logger.addHandler(_StderrLines(logging.WARNING))


def say(line: str) -> None:
    """A line of output, printed as written (no markup: paths and model text may hold brackets)."""
    console.print(line, markup=False, highlight=False, soft_wrap=True)


def complain(line: str) -> None:
    """A line on stderr: a problem, a warning, or what a person should do."""
    errors.print(line, markup=False, highlight=False, soft_wrap=True)


def say_some(lines: list[str], more: str, verbose: bool, *, stderr: bool = False) -> None:
    """A few of `lines` (all with -v), then "… N more — `more`". A shortened list is wrapped to the terminal so it
    fits a screen; a whole one is printed as written (paths stay on one line for copying)."""
    from curation.excerpt import excerpt

    shown = excerpt(lines, more, verbose=verbose)
    for line in shown:
        (errors if stderr else console).print(line, markup=False, highlight=False, soft_wrap=shown == lines)


def said_once(notes: list[tuple[str, str]]) -> list[str]:
    """Notes that differ only in their language, as one note naming the languages: (language, note) -> lines."""
    from curation.excerpt import named, plural

    grouped: dict[str, list[str]] = {}
    for language, note in notes:
        grouped.setdefault(re.sub(rf"\b{re.escape(language)}\b", "{lang}", note), []).append(language)
    lines = []
    for template, languages in grouped.items():
        prefix = f"{languages[0]}: " if len(languages) == 1 else f"{plural(len(languages), 'language')}: "
        lines.append(prefix + template.replace("{lang}", named(languages), 1).replace("{lang}", languages[0]))
    return lines


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one error line for the user and return the exit to raise."""
    errors.print(Text("error: ", style="red") + Text(message), highlight=False, soft_wrap=True)
    return typer.Exit(code)


def interrupted(kept: str = "every finished item and LLM answer is") -> typer.Exit:
    """Print the one line for Ctrl-C (what is kept, how to go on) and return the exit to raise: 130, what a shell
    reports for a command that SIGINT ended. Nothing else is said: there is nothing to fix."""
    complain(f"interrupted; {kept} kept in the store: run {_this_command()} again to continue where it stopped")
    return typer.Exit(130)


def _this_command() -> str:
    """The command line of this process when it is the `curate` console script (else: 'the same command')."""
    if os.path.basename(sys.argv[0]) != "curate":
        return "the same command"
    return f"`{shlex.join(['curate', *sys.argv[1:]])}`"


def settings_from(config: Path | None, batch: bool = False, batch_fallback: str | None = None) -> Settings:
    """The project's settings; --batch and --batch-fallback override [llm] mode and batch_fallback for this run."""
    try:
        settings = load_settings(config)
    except ConfigError as error:
        raise fail(str(error)) from None
    if batch_fallback is not None and batch_fallback not in ("online", "pending"):
        raise fail(f"--batch-fallback {batch_fallback}: use 'online' (or 'pending', the default)")
    update = {"mode": "batch"} if batch else {}
    if batch_fallback is not None:
        update["batch_fallback"] = batch_fallback
    return settings.model_copy(update={"llm": settings.llm.model_copy(update=update)}) if update else settings


@contextmanager
def open_store(settings: Settings) -> Iterator[Store]:
    """`with open_store(settings) as store:` the project's store; a store that cannot be opened, or that stops
    taking writes (read-only, disk full), ends the command with one line and exit 2 instead of a traceback."""
    try:
        store = Store(settings.path("store"), root=settings.root)
    except StoreError as error:
        raise fail(str(error)) from None
    with store:
        try:
            yield store
        except StoreWriteError as error:
            raise fail(cannot_write(store.path, error)) from None


def languages_from(value: str, settings: Settings, include_source: bool = False) -> list[str]:
    """ISO codes from a --lang option: 'all', or comma-separated codes; unknown codes are refused with the valid list."""
    if value.strip().lower() == "all":
        return settings.project.languages if include_source else settings.project.targets
    try:
        codes = [parse_language(code).code for code in value.split(",") if code.strip()]
    except UnknownLanguage as error:
        raise fail(str(error)) from None
    if not codes:  # `--lang ''` selects nothing: doing nothing and exiting 0 would look like success
        raise fail(f"--lang {value!r} names no language; give ISO codes (e.g. kk,ru) or 'all'")
    return codes


def known_competition(store: Store, slug: str | None) -> None:
    """Refuse a --competition that the store does not hold."""
    if slug is not None and store.competition(slug) is None:
        raise fail(f"{slug}: no such competition in the store; see `curate status` for the slugs, or run `curate ingest`")
