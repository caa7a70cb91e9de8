"""`curate outline`: solution outlines from the top notebooks (and their translations when [outline] translate)."""

from __future__ import annotations

import typer

from curation.cli.base import (BatchFallbackOption, BatchOption, CompetitionOption, ConfigOption, ForceOption,
                               MaxCostOption, VerboseOption, app, complain, fail, interrupted, known_competition,
                               open_store, say, settings_from)
from curation.cli.dry_run import DryRunJsonOption, DryRunOption, show_dry_run, wants_dry_run
from curation.cli.llm import cannot_run, idle, print_summaries, stage_progress
from curation.config import Settings
from curation.excerpt import named, plural

ROLES = ("outline", "outline_judge")


def outline_steps(settings: Settings, only: str | None = None, force: bool = False) -> list:
    """The pipeline steps of outlines: the outline stage, then (with [outline] translate) each target language's
    translation of the kept outlines, all logged under "outline"."""
    from curation.stages.outline import OutlineStage
    from curation.stages.outline_translate import OutlineTranslateStage
    from curation.stages.pipeline import Step

    stage = OutlineStage(settings, only=only, force=force)
    steps = [Step(stage, logged_as=stage.name)]
    if settings.outline.translate:
        steps += [Step(OutlineTranslateStage(settings, code, only=only, force=force), after=(stage.name,),
                       logged_as=stage.name) for code in settings.project.targets]
    return steps


def outline_report(store, runs, verbose: bool = False) -> bool:
    """After an outline run: the summaries, the competitions waiting for notebooks, the outlines that need a person;
    whether every run was complete."""
    summaries = [summary for _, summary in runs]
    if all(idle(summary) for summary in summaries):
        say("outline: nothing to do")
    else:
        print_summaries(summaries, verbose)
    stage = runs[0][0]
    if stage.waiting:
        complain(f"waiting: {plural(len(stage.waiting), 'competition')} without notebooks to outline from (add "
                 f"notebooks and run `curate ingest`): {named(stage.waiting)}")
    for outline in store.outlines():
        if outline.needs_human and stage.only in (None, outline.competition):
            complain(f"needs a person: {outline.competition}: " + "; ".join(outline.reasons))
    return all(summary.complete for summary in summaries)


def run_outlines(settings: Settings, store, steps: list, max_cost: float | None, verbose: bool = False) -> bool:
    """Run the outline steps on one client and report them; whether every run was complete."""
    import asyncio

    from curation.llm import LLM, LLMConfigError
    from curation.prompts import PromptError
    from curation.stages.pipeline import Pipeline
    from curation.store import StoreError

    async def run(progress):
        async with LLM(settings, store, max_cost=max_cost, stage="outline") as llm:
            progress.watch(llm)
            return await Pipeline(store, settings, llm, steps, progress=progress).run()

    try:
        with stage_progress("outline") as progress:
            runs = asyncio.run(run(progress))
    except (LLMConfigError, PromptError) as error:
        raise cannot_run(error, settings, ROLES + (("translate",) if settings.outline.translate else ())) from None
    except StoreError as error:
        raise fail(str(error)) from None
    except KeyboardInterrupt:
        raise interrupted() from None
    return outline_report(store, runs, verbose)


@app.command()
def outline(
    competition: CompetitionOption = None,
    force: ForceOption = False,
    max_cost: MaxCostOption = None,
    verbose: VerboseOption = False,
    batch: BatchOption = False,
    batch_fallback: BatchFallbackOption = None,
    dry_run: DryRunOption = False,
    as_json: DryRunJsonOption = False,
    config: ConfigOption = None,
) -> None:
    """Write a code-free solution outline per competition from its top notebooks: K candidates, a judge keeps one."""
    from curation.prompts import PromptError

    settings = settings_from(config, batch, batch_fallback)
    targets = settings.project.targets if settings.outline.translate else []
    if wants_dry_run(dry_run, as_json):
        return show_dry_run(settings, ("outline",), targets, competition=competition, force=force, as_json=as_json)
    with open_store(settings) as store:
        known_competition(store, competition)
        try:
            steps = outline_steps(settings, competition, force)
        except PromptError as error:
            raise fail(str(error)) from None
        complete = run_outlines(settings, store, steps, max_cost, verbose)
    if not complete:
        raise typer.Exit(1)
