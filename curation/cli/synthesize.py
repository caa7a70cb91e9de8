"""`curate synthesize`: new competitions from raw tabular datasets."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from curation.cli.base import (ConfigOption, ForceOption, MaxCostOption, app, complain, fail, interrupted, open_store,
                               say)
from curation.cli.llm import cannot_run, print_summary, stage_progress
from curation.config import CONFIG_FILE, ConfigError, Settings, load_settings

ROLES = ("synthesize", "task_review")
OUTSIDE_STORE = ".curate-synthesis.sqlite"


def _settings(config: Path | None, out: Path | None) -> Settings:
    """The project's settings; outside a project, with --out, the defaults (templates from the package, the store
    beside the output) so a curator can try a dataset before making a project."""
    try:
        settings = load_settings(config)
    except ConfigError as error:
        raise fail(str(error)) from None
    if config is not None or out is None or (settings.root / CONFIG_FILE).exists():
        return settings
    from curation.new_project import ProjectExists, template_root

    try:
        templates = template_root()
    except ProjectExists as error:
        raise fail(str(error)) from None
    settings = load_settings(templates / CONFIG_FILE)
    out = out.resolve()
    return settings.model_copy(update={"paths": settings.paths.model_copy(update={
        "store": out / OUTSIDE_STORE, "competitions": out, "prompts": templates / "prompts"})})


@app.command()
def synthesize(
    dataset_dirs: Annotated[list[Path], typer.Argument(metavar="DATASET_DIR", help="Folders of tabular files (CSV, TSV, Parquet), with an optional README.")],
    tasks: Annotated[int | None, typer.Option("--tasks", min=1, help="Tasks proposed per dataset at most (default: synthesize.tasks).")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Where accepted tasks are written (default: the project's competitions folder).")] = None,
    force: ForceOption = False,
    max_cost: MaxCostOption = None,
    config: ConfigOption = None,
) -> None:
    """Turn raw datasets into verified competitions: profile, brainstorm, design, refactor, verify (baseline run)."""
    import asyncio

    from curation.llm import LLM, LLMConfigError
    from curation.prompts import PromptError
    from curation.synthesis.run import synthesize as run_synthesis

    settings = _settings(config, out)
    target = (out or settings.path("competitions")).resolve()
    folders = []
    for folder in dataset_dirs:
        if not folder.is_dir():
            complain(f"{folder}: not a folder of tabular files; skipped")
            continue
        folders.append(folder.resolve())
    if not folders:
        raise fail("no dataset folder to synthesize from")
    with open_store(settings) as store:
        async def run(progress):
            async with LLM(settings, store, max_cost=max_cost, stage="synthesize") as llm:
                progress.watch(llm)
                return await run_synthesis(folders, target, settings, store, llm, tasks or settings.synthesize.tasks,
                                           force=force, progress=progress)

        try:
            with stage_progress("synthesize", steps=True) as progress:
                report = asyncio.run(run(progress))
        except (LLMConfigError, PromptError) as error:
            raise cannot_run(error, settings, ROLES) from None
        except KeyboardInterrupt:
            raise interrupted("every finished step, verdict and LLM answer is") from None
    for problem in report.problems:
        complain(problem.line())
    for summary in report.summaries:
        print_summary(summary)
    for line in report.lines():
        say(line)
    accepted = sum(verdict.accepted for verdict in report.verdicts)
    if accepted:
        say(f"{accepted} verified task{'s' if accepted != 1 else ''} in {target}; next: `curate ingest` then `curate describe`")
    if not report.complete:
        raise typer.Exit(1)
