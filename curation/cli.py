"""The `curate` command line. Thin: parse options, call a stage, print its report."""

from __future__ import annotations

from pathlib import Path
import typing
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
    errors.print(f"[red]error:[/red] {message}", markup=True, highlight=False, soft_wrap=True)
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


# -- llm: --max-cost, running an LLM stage, `curate costs` ------------------------------------------

if typing.TYPE_CHECKING:
    from curation.stages.runner import RunSummary, Stage

MaxCostOption = Annotated[float | None, typer.Option(
    "--max-cost", min=0, metavar="USD", help="Stop starting LLM calls once the spend would pass this many USD.")]


def report_run(summary: RunSummary) -> None:
    """Print a stage run's summary; exit 1 when any item failed or was not started."""
    for number, line in enumerate(summary.lines()):
        (console if number == 0 else errors).print(line, markup=False, highlight=False, soft_wrap=True)
    if not summary.complete:
        raise typer.Exit(1)


def run_llm_stage(stage: Stage, settings: Settings, store: Store, max_cost: float | None) -> RunSummary:
    """Run an LLM stage with the runner, print its summary, and exit non-zero when anything failed or was left."""
    import asyncio

    from curation.llm import LLM, LLMConfigError
    from curation.prompts import PromptError
    from curation.stages.runner import run_stage

    async def run() -> RunSummary:
        async with LLM(settings, store, max_cost=max_cost, stage=stage.name) as llm:
            return await run_stage(stage, store, settings, llm)

    try:
        summary = asyncio.run(run())
    except (LLMConfigError, PromptError) as error:
        raise fail(str(error)) from None
    except KeyboardInterrupt:
        raise fail("interrupted; every finished item and LLM call is kept, rerun to continue", 130) from None
    report_run(summary)
    return summary


@app.command()
def costs(config: ConfigOption = None) -> None:
    """Spend and tokens by stage, role and model, and what the cache saved."""
    settings = settings_from(config)
    with open_store(settings) as store:
        lines = store.llm_costs()
    if not lines:
        console.print("no LLM calls logged yet", highlight=False)
        return
    header = f"{'stage':<12} {'role':<10} {'model':<36} {'calls':>6} {'cached':>6} {'failed':>6} " \
             f"{'tokens in':>10} {'out':>9} {'cached in':>9} {'cost USD':>10} {'saved USD':>10}"
    console.print(header, markup=False, highlight=False, soft_wrap=True)
    for line in lines:
        console.print(f"{line.stage:<12} {line.role:<10} {line.model:<36} {line.calls:>6} {line.cache_hits:>6} "
                      f"{line.failed:>6} {line.tokens_in:>10} {line.tokens_out:>9} {line.tokens_cached:>9} "
                      f"{line.cost_usd:>10.4f} {line.saved_usd:>10.4f}", markup=False, highlight=False, soft_wrap=True)
    spent = sum(line.cost_usd for line in lines)
    saved = sum(line.saved_usd for line in lines)
    console.print(f"total: ${spent:.4f} spent, ${saved:.4f} saved by the cache "
                  f"({sum(line.cache_hits for line in lines)} cached answers)", markup=False, highlight=False, soft_wrap=True)


# -- core: `curate ingest`, `curate status`, `curate init` --------------------------------------------


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
    from curation.stages.ingest import STAGE, run_ingest

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
                    reader = MetaKaggleDump(root, settings.ingest, code_root=code, top_notebooks=top, cards=settings.path("competitions"))
                else:
                    task = progress.add_task("reading competition folders", total=None)
                    reader = CompetitionFolders(root, settings.ingest, top_notebooks=top)
                progress.update(task, total=len(reader), description=f"ingesting {shown_path(root)}")
            except SourceError as error:
                store.replace_problems(STAGE, error.problems)
                progress.stop()
                for problem in error.problems:
                    errors.print(f"error: {problem.line()}", markup=False, highlight=False, soft_wrap=True)
                raise typer.Exit(2) from None
            report = run_ingest(reader, store, source=root, source_problems=reader.problems,
                                on_item=lambda slug: progress.advance(task))
    console.print(f"{report.seen} competitions from {shown_path(root)}: {len(report.added)} added, {len(report.updated)} updated, "
                  f"{len(report.unchanged)} unchanged, {len(report.failed)} failed; {report.notebooks} notebooks.", highlight=False, soft_wrap=True)
    if getattr(reader, "without_notebooks", 0):
        console.print(f"{reader.without_notebooks} competitions passed the filters but have no notebook in the dump; skipped.", highlight=False, soft_wrap=True)
    for slug, reason in report.failed.items():
        errors.print(f"failed: {slug}: {reason}", markup=False, highlight=False, soft_wrap=True)
    for slug, what in report.needs_human.items():
        errors.print(f"needs a person: {slug}: {what}", markup=False, highlight=False, soft_wrap=True)
    for slug in report.gone:
        errors.print(f"gone: {slug} is no longer in {shown_path(root)} (kept in the store)", markup=False, highlight=False, soft_wrap=True)
    if report.problems:
        errors.print(f"{len(report.problems)} problem{'s' if len(report.problems) != 1 else ''}:", highlight=False, soft_wrap=True)
        for problem in report.problems:
            errors.print(f"  {problem.line()}", markup=False, highlight=False, soft_wrap=True)


@app.command()
def status(
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object, for scripts.")] = False,
    lang: Annotated[str, typer.Option("--lang", help="Languages for the per-language sections: 'all' or ISO codes, e.g. kk,be.")] = "all",
    config: ConfigOption = None,
) -> None:
    """Per competition: which stages are done, pending or failed, and why; then the problems to fix."""
    import json

    from curation.status import build_status, render_status

    settings = settings_from(config)
    languages = languages_from(lang, settings, include_source=True)
    with open_store(settings) as store:
        report = build_status(store, settings, languages)
    if as_json:
        typer.echo(json.dumps(report.to_json(), ensure_ascii=False, indent=2, default=str))
    else:
        render_status(report, console)


@app.command()
def init(directory: Annotated[Path, typer.Argument(help="Folder for the new benchmark project (created if missing).")]) -> None:
    """Scaffold a benchmark project: curate.toml, prompts/, cards/, data/competitions/, annotations/."""
    from curation.new_project import ProjectExists, create_project

    try:
        created = create_project(directory)
    except ProjectExists as error:
        raise fail(str(error)) from None
    for path in created:
        console.print(f"created {path}", highlight=False, soft_wrap=True)
    console.print(f"Next: put competition folders under {directory / 'data' / 'competitions'}, then run "
                  f"`curate ingest` and `curate status` inside {directory}.", highlight=False, soft_wrap=True)


# -- publish: `curate publish`, `curate releases` ----------------------------------------------------


@app.command()
def publish(
    version: Annotated[str, typer.Option("--version", help="Semantic version of the release, e.g. 1.0.0 (tagged v1.0.0).")],
    to: Annotated[str, typer.Option("--to", help="A folder (a git repository, created if needed) or hf:ORG/NAME.")],
    allow_partial: Annotated[bool, typer.Option("--allow-partial", help="Publish what passes the gates; list the rest in the card and manifest.")] = False,
    public: Annotated[bool, typer.Option("--public", help="Create the Hub repository public (default: private).")] = False,
    config: ConfigOption = None,
) -> None:
    """Publish the merged texts as a versioned dataset release (HF configs, harness files, card, manifest)."""
    from curation.stages.publish import PublishRefused, publish as publish_release

    settings = settings_from(config)
    with open_store(settings) as store:
        try:
            report = publish_release(store, settings, version, to, allow_partial=allow_partial, public=public)
        except PublishRefused as refused:
            for line in refused.lines:
                errors.print(line, markup=False, highlight=False, soft_wrap=True)
            raise typer.Exit(1) from None
    release = report.release
    console.print(f"published {report.tag} to {release.target} (commit {release.commit[:12]}): "
                  f"{sum(release.counts.values())} rows in {len(release.counts)} languages", markup=False, highlight=False, soft_wrap=True)
    console.print("rows: " + ", ".join(f"{code} {count}" for code, count in release.counts.items()),
                  markup=False, highlight=False, soft_wrap=True)
    changes = report.changes
    if report.previous_version:
        changed = sum(len(entry["texts_changed"]) for entry in changes["languages"].values())
        console.print(f"since v{report.previous_version}: {len(changes['competitions_added'])} competitions added, "
                      f"{len(changes['competitions_removed'])} removed, {changed} texts changed", markup=False,
                      highlight=False)
    for offender in report.held_back:
        errors.print(f"held back: {offender.line()}", markup=False, highlight=False, soft_wrap=True)
    if report.without_grading:
        errors.print("not in competitions.json (no grading block): " + ", ".join(report.without_grading),
                     markup=False, highlight=False, soft_wrap=True)


@app.command()
def releases(config: ConfigOption = None) -> None:
    """Releases published from this store: version, date, target and rows per language."""
    settings = settings_from(config)
    with open_store(settings) as store:
        recorded = store.releases()
    if not recorded:
        console.print("no releases yet; publish one with `curate publish --version 1.0.0 --to dist/ml2b`",
                      highlight=False)
        return
    for release in recorded:
        counts = ", ".join(f"{code} {count}" for code, count in release.counts.items())
        partial = " (partial)" if release.partial else ""
        console.print(f"v{release.version}  {release.date}  {release.target}  {release.commit[:12]}{partial}  "
                      f"{counts}", markup=False, highlight=False, soft_wrap=True)


# -- describe / tag: `curate describe`, `curate tag` -------------------------------------------------

CompetitionOption = Annotated[str | None, typer.Option("--competition", metavar="SLUG", help="Only this competition.")]
ForceOption = Annotated[bool, typer.Option("--force", help="Redo finished competitions too (cached LLM answers are reused).")]


def _known_competition(store: Store, slug: str | None) -> None:
    if slug is not None and store.competition(slug) is None:
        raise fail(f"{slug}: no such competition in the store; see `curate status` for the slugs, or run `curate ingest`")


def _keyless_roles(settings: Settings, roles: tuple[str, ...]) -> list[str]:
    """One line per role whose provider has neither a key nor a base URL, saying what to set."""
    lines = []
    for role in roles:
        name, provider, model = settings.provider_for(role)
        if settings.api_key(provider) or settings.base_url(name, provider):
            continue
        endpoint = " or OPENAI_BASE_URL" if name == "openai" else (" or ANTHROPIC_BASE_URL" if name == "anthropic" else "")
        lines.append(f"models.{role} = {name}:{model} needs {provider.key_variable}{endpoint}; or point {role} under "
                     "[models] in curate.toml at a provider you have a key for")
    return lines


def _run_describe_or_tag(stage: Stage, roles: tuple[str, ...], settings: Settings, store: Store,
                         max_cost: float | None) -> None:
    """Run the stage; when a key is missing, say for which roles and what to set."""
    try:
        run_llm_stage(stage, settings, store, max_cost)
    except typer.Exit as exit_:
        if exit_.exit_code == 2:
            for line in _keyless_roles(settings, roles):
                errors.print(f"  {line}", markup=False, highlight=False, soft_wrap=True)
        raise


@app.command()
def describe(
    competition: CompetitionOption = None,
    max_rounds: Annotated[int | None, typer.Option("--max-rounds", min=1, help="Graded versions at most (default: describe.max_rounds).")] = None,
    force: ForceOption = False,
    max_cost: MaxCostOption = None,
    config: ConfigOption = None,
) -> None:
    """Reverse-infer task descriptions from the top notebooks: generate, grade A-D, refine until C/D."""
    from curation.prompts import PromptError
    from curation.stages.describe import ROLES, DescribeStage
    from curation.stages.describe_report import describe_figures

    settings = settings_from(config)
    with open_store(settings) as store:
        _known_competition(store, competition)
        try:
            stage = DescribeStage(settings, only=competition, max_rounds=max_rounds, force=force)
        except PromptError as error:
            raise fail(str(error)) from None
        try:
            _run_describe_or_tag(stage, ROLES, settings, store, max_cost)
        finally:
            for problem in store.problems("describe"):
                errors.print(f"needs a person: {problem.line()}", markup=False, highlight=False, soft_wrap=True)
            for described in store.descriptions():
                if described.needs_human and (competition is None or described.competition == competition):
                    errors.print(f"needs a person: {described.competition}: " + "; ".join(described.reasons),
                                 markup=False, highlight=False, soft_wrap=True)
            figures = describe_figures(store, settings.describe.good_grades)
            if figures.machine or figures.person_written:
                console.print(figures.line(), markup=False, highlight=False, soft_wrap=True)


@app.command()
def tag(
    competition: CompetitionOption = None,
    force: ForceOption = False,
    max_cost: MaxCostOption = None,
    config: ConfigOption = None,
) -> None:
    """Give every described competition one domain from [tag] vocabulary."""
    from curation.prompts import PromptError
    from curation.stages.tag import TagStage

    settings = settings_from(config)
    with open_store(settings) as store:
        _known_competition(store, competition)
        try:
            stage = TagStage(settings, only=competition, force=force)
        except PromptError as error:
            raise fail(str(error)) from None
        try:
            _run_describe_or_tag(stage, ("tag",), settings, store, max_cost)
        finally:
            if stage.waiting:
                errors.print(f"waiting for a description (run `curate describe`): {', '.join(stage.waiting)}",
                             markup=False, highlight=False, soft_wrap=True)
            for domain in store.domains():
                if domain.is_new and (competition is None or domain.competition == competition):
                    errors.print(f"new domain for {domain.competition}: {domain.domain!r}; add it to [tag] vocabulary "
                                 "in curate.toml to accept it", markup=False, highlight=False, soft_wrap=True)


# -- review, merge, report: `curate review push|pull|import`, `curate merge`, `curate report` ------------

review_app = typer.Typer(no_args_is_help=True, help="Review sheets for native-speaker annotators: push, pull, import.")
app.add_typer(review_app, name="review")
LangOption = Annotated[str | None, typer.Option("--lang", help="ISO code(s), comma-separated, or 'all' (default: all).")]


def _say(line: str) -> None:
    console.print(line, markup=False, highlight=False, soft_wrap=True)


def _complain(line: str) -> None:
    errors.print(line, markup=False, highlight=False, soft_wrap=True)


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
                _complain(f"error: {error}")
                failed += 1
                continue
            for sheet in report.sheets:
                _say(f"{language} {sheet.line()}")
            for note in report.notes:
                _complain(f"{language}: {note}")
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
        if file is not None and not lang:
            try:
                content = XlsxBackend(file.parent).read(str(file)) if file.exists() else None
            except ReviewError as error:
                raise fail(str(error)) from None
            if content is None:
                raise fail(f"{file}: no such workbook")
            if not content.meta.get("Language"):
                raise fail(f"{file}: the Instructions tab does not say the language; pass --lang")
            languages = [content.meta["Language"]]
        elif lang:
            languages = languages_from(lang, settings, include_source=True)
        else:
            languages = sorted({row.language for row in store.pushed_rows()})
        problems = 0
        try:
            sheets = backend_for(settings, backend) if file is None else XlsxBackend(settings.path("review_sheets"))
            for language in languages:
                report = pull(store, settings, language, sheets, file)
                for problem in report.problems:
                    _complain(problem)
                for note in report.notes:
                    _complain(f"note: {note}")
                problems += len(report.problems)
                _say(f"{language}: {report.verdicts} new verdicts, {report.scores} new rubric scores, "
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
        _complain(problem)
    _say(f"{report.files} files: {report.verdicts} verdicts and {report.scores} rubric scores added, "
         f"{report.repeated} already stored")
    if report.problems:
        raise typer.Exit(1)


@app.command()
def merge(lang: LangOption = None, config: ConfigOption = None) -> None:
    """Final texts from verdicts and fixes; NOs without a fix go back to translate; final rubric scores."""
    from curation.stages.merge import merge as merge_stage

    settings = settings_from(config)
    languages = languages_from(lang or "all", settings, include_source=True)
    with open_store(settings) as store:
        for summary in merge_stage(store, settings, languages):
            _say(summary.line())
            for line in summary.open:
                _say(f"  open: {line}")


@app.command()
def report(config: ConfigOption = None) -> None:
    """Write the review report (markdown and PNG plots) under reports/."""
    from curation.report import write_report

    settings = settings_from(config)
    with open_store(settings) as store:
        path = write_report(store, settings)
    _say(f"report written to {path}")


# -- translate: `curate translate` ---------------------------------------------------------------------


@app.command()
def translate(
    lang: Annotated[str, typer.Option("--lang", help="'all' (every target in curate.toml, the default) or ISO codes, e.g. be,kk.")] = "all",
    competition: CompetitionOption = None,
    force: ForceOption = False,
    max_cost: MaxCostOption = None,
    config: ConfigOption = None,
) -> None:
    """Translate descriptions, data cards and domains into the target languages, with automatic checks."""
    import asyncio

    from curation.llm import LLM, LLMConfigError
    from curation.prompts import PromptError
    from curation.stages.translate import translate_languages

    settings = settings_from(config)
    source = settings.project.source_language
    languages = languages_from(lang, settings)
    for code in languages:
        if code not in settings.project.languages:
            # fail() prints with markup on: escape the brackets of the section name
            raise fail(f"{code} is not under \\[project] languages in curate.toml; add it there to translate into it")
    if source in languages:
        errors.print(f"{source} is the source language: nothing to translate", markup=False, highlight=False)
        languages = [code for code in languages if code != source]
    with open_store(settings) as store:
        _known_competition(store, competition)

        async def run():
            async with LLM(settings, store, max_cost=max_cost, stage="translate") as llm:
                return await translate_languages(store, settings, llm, languages, only=competition, force=force)

        try:
            runs = asyncio.run(run())
        except (LLMConfigError, PromptError) as error:
            raise fail(str(error)) from None
        except KeyboardInterrupt:
            raise fail("interrupted; every finished translation and LLM call is kept, rerun to continue", 130) from None
        complete = True
        for stage, summary in runs:
            for number, line in enumerate(summary.lines()):
                (console if number == 0 else errors).print(line, markup=False, highlight=False, soft_wrap=True)
            flagged = [t for t in store.translations(language=stage.language, competition=competition) if t.flagged]
            if flagged:
                _complain(f"  {len(flagged)} flagged for the annotator (checks still failing): "
                          + ", ".join(f"{t.competition}/{t.field}" for t in flagged)
                          + f"; see `curate status --lang {stage.language}`")
            complete = complete and summary.complete
        for line in runs[0][0].waiting if runs else []:
            _complain(f"waiting: {line}")
    if not complete:
        raise typer.Exit(1)
