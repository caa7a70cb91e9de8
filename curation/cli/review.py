"""The review loop: `curate review push|pull|import`, `curate merge` and `curate report`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from curation.cli.base import (
    BackendOption,
    ConfigOption,
    LangOption,
    VerboseOption,
    app,
    complain,
    fail,
    languages_from,
    open_store,
    said_once,
    say,
    say_some,
    settings_from,
)
from curation.excerpt import plural

if TYPE_CHECKING:  # push imports openpyxl, which `curate --help` and commands without sheets need not load
    from curation.review.push import PushReport, SheetPush


review_app = typer.Typer(no_args_is_help=True, help="Review sheets for native-speaker annotators: push, pull, import.")
app.add_typer(review_app, name="review")


@review_app.command("push")
def review_push(
    lang: Annotated[str | None, typer.Option("--lang", help="ISO code(s), or 'all'; the source language (en) pushes the rubric sheet (default: every language with items to review).")] = None,
    annotator: Annotated[str | None, typer.Option("--annotator", help="Push to this annotator only (name or e-mail).")] = None,
    backend: BackendOption = None,
    verbose: VerboseOption = False,
    config: ConfigOption = None,
) -> None:
    """Write review sheets: new and changed items only; rows an annotator filled are never touched."""
    from curation.output_folders import FolderError
    from curation.review.backends import backend_for
    from curation.review.push import push
    from curation.review.sheet import ReviewError

    settings = settings_from(config)
    try:  # an unknown name or missing credentials: said before anything is read
        sheets = backend_for(settings, backend)
    except ReviewError as error:
        raise fail(str(error)) from None
    stopped = None
    with open_store(settings) as store:
        languages = languages_from(lang, settings, include_source=True) if lang is not None else _with_items(store, settings)
        if not languages:
            say("nothing to review yet: no descriptions or translations in the store; run `curate run` first")
            return
        pushed: list[tuple[str, PushReport | ReviewError]] = []
        for language in languages:
            try:
                pushed.append((language, push(store, settings, language, sheets, annotator)))
            except ReviewError as error:  # one language's problem does not stop the others
                pushed.append((language, error))
            except FolderError as error:  # a full or unwritable folder: the other languages' sheets go there too
                stopped = error
                break
    shown = show_pushes(pushed, verbose)
    if stopped is not None:
        raise fail(str(stopped))
    if not shown:
        raise typer.Exit(1)


def show_pushes(pushed: list[tuple[str, PushReport | Exception]], verbose: bool) -> bool:
    """Print what a push of these languages did (a line per sheet, or one line for many; notes said once);
    whether every language was pushed."""
    notes: list[tuple[str, str]] = []
    unchanged = []
    changed: list[tuple[str, SheetPush]] = []
    for language, report in pushed:
        if isinstance(report, Exception):
            complain(f"error: {report}")
            continue
        if not verbose and len(pushed) > 1 and report.sheets and not any(
                sheet.added or sheet.updated or sheet.restored or sheet.held for sheet in report.sheets):
            unchanged.append(language)
        else:
            changed.extend((language, sheet) for sheet in report.sheets)
        notes.extend((language, note) for note in report.notes)
    if verbose or len(changed) <= SHEET_LINES:
        for language, sheet in changed:
            say(f"{language} {sheet.line()}")
    else:
        say(_pushed_in_sum(changed))
    if unchanged:
        say(f"{plural(len(unchanged), 'language')} with nothing new to push: {', '.join(unchanged)}")
    for note in said_once(notes):
        complain(note)
    return not any(isinstance(report, Exception) for _, report in pushed)


# Up to this many sheets are listed one per line (each path whole, for copying); more would fill the screen, so
# they are summed up in one line and `-v` lists them.
SHEET_LINES = 12


def _pushed_in_sum(changed: list[tuple[str, SheetPush]]) -> str:
    """One line for many pushed sheets: their rows added, updated and unchanged, and how to see each sheet."""
    from curation.review.push import SheetPush

    languages = {language for language, _ in changed}
    total = SheetPush.summed([sheet for _, sheet in changed])
    return (f"{plural(len(changed), 'sheet')} in {plural(len(languages), 'language')}, rows: {total.counts()} "
            "(`-v` lists each sheet)")


def _with_items(store, settings) -> list[str]:
    """The languages with something to review: targets with translations, and the source when it has descriptions."""
    return [code for code in settings.project.languages if has_items(store, settings, code)]


def has_items(store, settings, language: str) -> bool:
    """Whether `language` has something to review: descriptions for the source, translations for a target."""
    if language == settings.project.source_language:
        return bool(store.descriptions())
    return bool(store.translations(language=language))


@review_app.command("pull")
def review_pull(
    lang: Annotated[str | None, typer.Option("--lang", help="ISO code(s), comma-separated, or 'all' (default: every "
                                                            "language with pushed sheets).")] = None,
    file: Annotated[Path | None, typer.Option("--file", help="A returned .xlsx workbook to read instead of the pushed sheets.")] = None,
    backend: BackendOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per language, for scripts.")] = False,
    verbose: VerboseOption = False,
    config: ConfigOption = None,
) -> None:
    """Read verdicts and rubric scores back; report bad rows by tab and row; store the valid ones."""
    from curation.output_folders import FolderError
    from curation.review.backends import backend_for
    from curation.review.pull import pull
    from curation.review.sheet import ReviewError
    from curation.review.xlsx_backend import XlsxBackend

    settings = settings_from(config)
    with open_store(settings) as store:
        if file is not None and lang is None:
            try:
                content = XlsxBackend(file.parent).read(str(file)) if file.exists() else None
            except ReviewError as error:
                raise fail(str(error)) from None
            if content is None:
                raise fail(f"{file}: no such workbook")
            if not content.meta.get("Language"):
                raise fail(f"{file}: the Instructions tab does not say the language; pass --lang")
            languages = [content.meta["Language"]]
        elif lang is not None:
            languages = languages_from(lang, settings, include_source=True)
        else:
            languages = sorted({row.language for row in store.pushed_rows()})
        problems = 0
        reports = []
        try:
            sheets = backend_for(settings, backend) if file is None else XlsxBackend(settings.path("review_sheets"), settings.root)
            for language in languages:
                report = pull(store, settings, language, sheets, file)
                reports.append(report)
                if as_json:
                    continue
                for problem in report.problems:
                    complain(problem)
                for note in report.notes:
                    complain(f"note: {note}")
                problems += len(report.problems)
                if verbose or len(languages) == 1 or report.verdicts or report.scores or report.problems:
                    say(_pulled_line(report))
        except (ReviewError, FolderError) as error:
            raise fail(str(error)) from None
    if as_json:
        import json

        typer.echo(json.dumps([{"language": r.language, "verdicts": r.verdicts, "scores": r.scores,
                                "already_stored": r.repeated, "rows_not_taken": r.not_taken, "problems": r.problems,
                                "notes": r.notes,
                                "files": [str(path) for path in r.files]} for r in reports], ensure_ascii=False, indent=2))
        problems = sum(len(r.problems) for r in reports)
    elif quiet := [r.language for r in reports if not (verbose or len(reports) == 1 or r.verdicts or r.scores or r.problems)]:
        stored = sum(r.repeated for r in reports if r.language in quiet)
        say(f"nothing new from {plural(len(quiet), 'language')} ({', '.join(quiet)})"
            + (f"; {plural(stored, 'answer')} already stored" if stored else ""))
    if problems:
        raise typer.Exit(1)


def _pulled_line(report) -> str:
    return (f"{report.language}: {plural(report.verdicts, 'new verdict')}, {plural(report.scores, 'new rubric score')}, "
            f"{report.repeated} already stored, {plural(report.not_taken, 'row')} not taken until corrected"
            + (f"; written to {', '.join(str(p) for p in report.files)}" if report.files else ""))


@review_app.command("import")
def review_import(
    folder: Annotated[Path, typer.Argument(metavar="FOLDER", help="The annotations folder (or one language's folder) to read.")],
    config: ConfigOption = None,
) -> None:
    """Rebuild verdicts and rubric scores in the store from annotations/*.csv (e.g. after losing the store)."""
    from curation.review.annotations import import_annotations

    settings = settings_from(config)
    if not folder.is_dir():
        raise fail(f"{folder}: no such folder")
    with open_store(settings) as store:
        report = import_annotations(store, folder)
    for problem in report.problems:
        complain(problem)
    say(f"{plural(report.files, 'file')}: {plural(report.verdicts, 'verdict')} and {plural(report.scores, 'rubric score')} added, "
         f"{report.repeated} already stored")
    if report.problems:
        raise typer.Exit(1)


@app.command()
def merge(lang: LangOption = None, verbose: VerboseOption = False, config: ConfigOption = None) -> None:
    """Final texts from verdicts and fixes; NOs without a fix go back to translate; final rubric scores."""
    from curation.stages.merge import merge as merge_stage

    settings = settings_from(config)
    languages = languages_from("all" if lang is None else lang, settings, include_source=True)
    with open_store(settings) as store:
        summaries = merge_stage(store, settings, languages)
    for summary in summaries:
        say(summary.line())
    waiting = [summary for summary in summaries if summary.open]
    if waiting:
        busiest = max(waiting, key=lambda summary: len(summary.open)).language
        say_some([f"  open: {line}" for summary in waiting for line in summary.open],
                 f"`-v` lists all; per competition: `curate status --detail --lang {busiest}`",
                 verbose)


@app.command()
def report(config: ConfigOption = None) -> None:
    """Write the review report, review.md with PNG plots, under reports/ (paths.reports in curate.toml)."""
    from curation.output_folders import FolderError
    from curation.report import write_report

    settings = settings_from(config)
    with open_store(settings) as store:
        try:
            path = write_report(store, settings)
        except FolderError as error:
            raise fail(str(error)) from None
    say(f"report written to {path}")
