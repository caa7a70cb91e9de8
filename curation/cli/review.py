"""The review loop: `curate review push|pull|import`, `curate merge` and `curate report`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from curation.cli.base import ConfigOption, LangOption, app, complain, fail, languages_from, open_store, say, settings_from


review_app = typer.Typer(no_args_is_help=True, help="Review sheets for native-speaker annotators: push, pull, import.")
app.add_typer(review_app, name="review")


@review_app.command("push")
def review_push(
    lang: Annotated[str, typer.Option("--lang", help="ISO code(s), or 'all'; the source language (en) pushes the rubric sheet.")],
    annotator: Annotated[str | None, typer.Option("--annotator", help="Push to this annotator only (name or e-mail).")] = None,
    backend: Annotated[str | None, typer.Option("--backend", help="xlsx (default) or sheets.")] = None,
    config: ConfigOption = None,
) -> None:
    """Write review sheets: new and changed items only; rows an annotator filled are never touched."""
    from curation.review.backends import backend_for
    from curation.review.push import push
    from curation.review.sheet import ReviewError

    settings = settings_from(config)
    if backend not in (None, "xlsx", "sheets"):
        raise fail(f"unknown backend {backend!r}; use xlsx or sheets")
    languages = languages_from(lang, settings, include_source=True)
    failed = 0
    with open_store(settings) as store:
        try:
            sheets = backend_for(settings, backend)
        except ReviewError as error:
            raise fail(str(error)) from None
        for language in languages:
            try:
                report = push(store, settings, language, sheets, annotator)
            except ReviewError as error:  # one language's problem does not stop the others
                complain(f"error: {error}")
                failed += 1
                continue
            for sheet in report.sheets:
                say(f"{language} {sheet.line()}")
            for note in report.notes:
                complain(f"{language}: {note}")
    if failed:
        raise typer.Exit(1)


@review_app.command("pull")
def review_pull(
    lang: LangOption = None,
    file: Annotated[Path | None, typer.Option("--file", help="A returned .xlsx workbook to read instead of the pushed sheets.")] = None,
    backend: Annotated[str | None, typer.Option("--backend", help="xlsx (default) or sheets.")] = None,
    config: ConfigOption = None,
) -> None:
    """Read verdicts and rubric scores back; report bad rows by tab and row; store the valid ones."""
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
        try:
            sheets = backend_for(settings, backend) if file is None else XlsxBackend(settings.path("review_sheets"), settings.root)
            for language in languages:
                report = pull(store, settings, language, sheets, file)
                for problem in report.problems:
                    complain(problem)
                for note in report.notes:
                    complain(f"note: {note}")
                problems += len(report.problems)
                say(f"{language}: {report.verdicts} new verdicts, {report.scores} new rubric scores, "
                     f"{report.repeated} already stored, {len(report.problems)} rows not taken until corrected"
                     + (f"; written to {', '.join(str(p) for p in report.files)}" if report.files else ""))
        except ReviewError as error:
            raise fail(str(error)) from None
    if problems:
        raise typer.Exit(1)


@review_app.command("import")
def review_import(
    folder: Annotated[Path, typer.Argument(help="The annotations folder (or one language's folder) to read.")],
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
    say(f"{report.files} files: {report.verdicts} verdicts and {report.scores} rubric scores added, "
         f"{report.repeated} already stored")
    if report.problems:
        raise typer.Exit(1)


@app.command()
def merge(lang: LangOption = None, config: ConfigOption = None) -> None:
    """Final texts from verdicts and fixes; NOs without a fix go back to translate; final rubric scores."""
    from curation.stages.merge import merge as merge_stage

    settings = settings_from(config)
    languages = languages_from("all" if lang is None else lang, settings, include_source=True)
    with open_store(settings) as store:
        for summary in merge_stage(store, settings, languages):
            say(summary.line())
            for line in summary.open:
                say(f"  open: {line}")


@app.command()
def report(config: ConfigOption = None) -> None:
    """Write the review report (markdown and PNG plots) under reports/."""
    from curation.report import write_report

    settings = settings_from(config)
    with open_store(settings) as store:
        path = write_report(store, settings)
    say(f"report written to {path}")
