"""`curate ingest`, `curate status` and `curate init`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from curation.cli.base import (
    ConfigOption,
    VerboseOption,
    app,
    complain,
    console,
    fail,
    languages_from,
    open_store,
    say,
    settings_from,
)
from curation.excerpt import plural


@app.command()
def ingest(
    source: Annotated[Path | None, typer.Option("--source", "-s", help="A folder of competition folders, or a Meta Kaggle dump (a folder with Competitions.csv). Default: paths.competitions.")] = None,
    top: Annotated[int | None, typer.Option("--top", min=1, help="Notebooks to keep per competition (default: ingest.top_notebooks).")] = None,
    code: Annotated[Path | None, typer.Option("--code", help="The Meta Kaggle Code folder, when it is not next to the dump.")] = None,
    config: ConfigOption = None,
) -> None:
    """Read competitions and their top notebooks into the store; unchanged ones are left as they are."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from curation.sources import SourceError, shown_path
    from curation.sources.folders import CompetitionFolders
    from curation.sources.meta_kaggle import MetaKaggleDump, is_meta_kaggle
    from curation.stages.ingest import STAGE, problems_of_other_sources, run_ingest

    settings = settings_from(config)
    root = source if source is not None else settings.path("competitions")
    if not root.is_dir():
        raise fail(f"{root}: no such folder; pass --source or set paths.competitions in curate.toml")
    with open_store(settings) as store:
        progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TimeElapsedColumn(), console=console, transient=True,
                            disable=not console.is_terminal)
        with progress:
            try:
                if is_meta_kaggle(root):
                    task = progress.add_task("scanning the Meta Kaggle tables", total=None)
                    reader = MetaKaggleDump(root, settings.ingest, code_root=code, top_notebooks=top, cards=settings.path("competitions"),
                                            base=settings.root)
                else:
                    task = progress.add_task("reading competition folders", total=None)
                    reader = CompetitionFolders(root, settings.ingest, top_notebooks=top, base=settings.root)
                progress.update(task, total=len(reader), description=f"ingesting {shown_path(root)}")
            except SourceError as error:
                store.replace_problems(STAGE, problems_of_other_sources(store, root) + error.problems)
                progress.stop()
                for problem in error.problems:
                    complain(f"error: {problem.line()}")
                raise typer.Exit(2) from None
            report = run_ingest(reader, store, source=root, source_problems=reader.problems,
                                on_item=lambda slug: progress.advance(task))
    say(f"{plural(report.seen, 'competition')} from {shown_path(root)}: {len(report.added)} added, "
        f"{len(report.updated)} updated, {len(report.unchanged)} unchanged, {len(report.failed)} failed; "
        f"{plural(report.notebooks, 'notebook')}.")
    if getattr(reader, "without_notebooks", 0):
        say(f"{plural(reader.without_notebooks, 'competition')} passed the filters but "
            f"{'has' if reader.without_notebooks == 1 else 'have'} no notebook in the dump; skipped.")
    for slug, reason in report.failed.items():
        complain(f"failed: {slug}: {reason}")
    for slug, what in report.needs_human.items():
        complain(f"needs a person: {slug}: {what}")
    for slug in report.gone:
        complain(f"gone: {slug} is no longer in {shown_path(root)} (kept in the store)")
    if report.problems:
        complain(f"{len(report.problems)} problem{'s' if len(report.problems) != 1 else ''}:")
        for problem in report.problems:
            complain(f"  {problem.line()}")


@app.command()
def status(
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object, for scripts.")] = False,
    lang: Annotated[str, typer.Option("--lang", help="Per competition, for these languages: ISO codes, e.g. kk,be (default: the overview of all).")] = "all",
    comp: Annotated[str | None, typer.Option("--comp", metavar="SLUG", help="Every stage and language of one competition.")] = None,
    detail: Annotated[bool, typer.Option("--detail", help="One row per competition, and the per-stage sections.")] = False,
    why: Annotated[bool, typer.Option("--why", help="Each failed or flagged competition and its reasons, whole "
                                                    "(with --lang: in those languages; -v: open ones too).")] = False,
    verbose: VerboseOption = False,
    config: ConfigOption = None,
) -> None:
    """One screen: competitions done/flagged/open/failed per stage and language, spend, and the next command."""

    from curation.status import build_status
    from curation.status_view import render_status

    settings = settings_from(config)
    languages = languages_from(lang, settings, include_source=True)
    # The overview shows counts only: it is built without the per-competition rows, columns and sections.
    overview = not (as_json or detail or why or comp is not None or lang.strip().lower() != "all")
    with open_store(settings) as store:
        report = build_status(store, settings, languages, detail=not overview)
    if as_json:
        typer.echo(report.json_text())
    else:
        render_status(report, console, detail=detail or lang.strip().lower() != "all", competition=comp,
                      verbose=verbose, why=why)


@app.command()
def init(directory: Annotated[Path, typer.Argument(metavar="DIRECTORY", help="Folder for the new benchmark project (created if missing).")]) -> None:
    """Scaffold a benchmark project: curate.toml, prompts/, cards/, data/competitions/, annotations/."""
    from curation.new_project import ProjectExists, create_project
    from curation.output_folders import FolderError

    try:
        created = create_project(directory)
    except (ProjectExists, FolderError) as error:
        raise fail(str(error)) from None
    for path in created:
        say(f"created {path}")
    say(f"Next: put competition folders under {directory / 'data' / 'competitions'}, then run "
                  f"`curate ingest` and `curate status` inside {directory}.")
