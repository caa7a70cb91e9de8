"""The LLM stages: `curate describe`, `curate tag` and `curate translate`."""

from __future__ import annotations

from typing import Annotated

import typer

from curation.cli.base import (
    BatchFallbackOption,
    BatchOption,
    CompetitionOption,
    ConfigOption,
    ForceOption,
    MaxCostOption,
    VerboseOption,
    app,
    complain,
    fail,
    interrupted,
    known_competition,
    languages_from,
    open_store,
    say,
    settings_from,
)
from curation.cli.confirm import YesOption, confirm_redo
from curation.cli.dry_run import DryRunJsonOption, DryRunOption, show_dry_run, wants_dry_run
from curation.cli.llm import cannot_run, print_summaries, run_llm_stage, stage_progress
from curation.excerpt import named, plural


def _run_stage(store, settings, competition, make_stage, roles, max_cost):
    """Build the stage (a broken prompt file is one line), then run it; the caller reports in a finally."""
    from curation.prompts import PromptError

    known_competition(store, competition)
    try:
        stage = make_stage()
    except PromptError as error:
        raise fail(str(error)) from None
    return stage, lambda: run_llm_stage(stage, settings, store, max_cost, roles=roles)


@app.command()
def describe(
    competition: CompetitionOption = None,
    max_rounds: Annotated[int | None, typer.Option("--max-rounds", min=1, help="Graded versions at most (default: describe.max_rounds).")] = None,
    force: ForceOption = False,
    redo_reviewed: Annotated[bool, typer.Option(
        "--redo-reviewed", help="Also describe again descriptions the rubric approved under an older prompt or model "
                                "(the old version and its scores stay in the history; the new one goes to review).")] = False,
    yes: YesOption = False,
    max_cost: MaxCostOption = None,
    batch: BatchOption = False,
    batch_fallback: BatchFallbackOption = None,
    dry_run: DryRunOption = False,
    as_json: DryRunJsonOption = False,
    config: ConfigOption = None,
) -> None:
    """Reverse-infer task descriptions from the top notebooks: generate, grade A-D, refine until C/D."""
    from curation.stages.describe import ROLES, DescribeStage
    from curation.stages.redo import describe_redo

    settings = settings_from(config, batch, batch_fallback)
    if wants_dry_run(dry_run, as_json):
        return show_dry_run(settings, ("describe",), competition=competition, force=force, max_rounds=max_rounds,
                            redo_reviewed=redo_reviewed, as_json=as_json)
    with open_store(settings) as store:
        stage, run = _run_stage(store, settings, competition, lambda: DescribeStage(
            settings, only=competition, max_rounds=max_rounds, force=force, redo_reviewed=redo_reviewed), ROLES, max_cost)
        confirm_redo(describe_redo(store, settings, stage), yes)
        try:
            run()
        finally:
            describe_report(store, settings, stage, competition)


@app.command()
def tag(
    competition: CompetitionOption = None,
    force: ForceOption = False,
    max_cost: MaxCostOption = None,
    batch: BatchOption = False,
    batch_fallback: BatchFallbackOption = None,
    dry_run: DryRunOption = False,
    as_json: DryRunJsonOption = False,
    config: ConfigOption = None,
) -> None:
    """Give every described competition one domain from [tag] vocabulary."""
    from curation.stages.tag import TagStage

    settings = settings_from(config, batch, batch_fallback)
    if wants_dry_run(dry_run, as_json):
        return show_dry_run(settings, ("tag",), competition=competition, force=force, as_json=as_json)
    with open_store(settings) as store:
        stage, run = _run_stage(store, settings, competition, lambda: TagStage(settings, only=competition, force=force),
                                ("tag",), max_cost)
        try:
            run()
        finally:
            tag_report(store, stage, competition)


@app.command()
def translate(
    lang: Annotated[str, typer.Option("--lang", help="'all' (every target in curate.toml, the default) or ISO codes, e.g. be,kk.")] = "all",
    competition: CompetitionOption = None,
    force: ForceOption = False,
    redo_reviewed: Annotated[bool, typer.Option(
        "--redo-reviewed", help="Also translate again texts a person approved or wrote under an older prompt or model "
                                "(the old version and its verdicts stay in the history; the new one goes to review).")] = False,
    yes: YesOption = False,
    max_cost: MaxCostOption = None,
    verbose: VerboseOption = False,
    batch: BatchOption = False,
    batch_fallback: BatchFallbackOption = None,
    dry_run: DryRunOption = False,
    as_json: DryRunJsonOption = False,
    config: ConfigOption = None,
) -> None:
    """Translate descriptions, data cards and domains into the target languages, with automatic checks."""
    import asyncio

    from curation.llm import LLM, LLMConfigError
    from curation.prompts import PromptError
    from curation.stages.redo import translate_redo
    from curation.stages.translate import TranslateStage, translate_languages

    settings = settings_from(config, batch, batch_fallback)
    languages = target_languages(lang, settings)
    if settings.project.source_language in languages_from(lang, settings):
        complain(f"{settings.project.source_language} is the source language: nothing to translate")
    if wants_dry_run(dry_run, as_json):
        return show_dry_run(settings, ("translate",), languages, competition=competition, force=force,
                            redo_reviewed=redo_reviewed, as_json=as_json)
    with open_store(settings) as store:
        known_competition(store, competition)
        try:
            planned = [TranslateStage(settings, code, only=competition, force=force, redo_reviewed=redo_reviewed)
                       for code in languages]
        except PromptError as error:
            raise fail(str(error)) from None
        confirm_redo(translate_redo(store, settings, planned), yes)

        async def run(progress):
            async with LLM(settings, store, max_cost=max_cost, stage="translate") as llm:
                progress.watch(llm)
                # The stages planned for the confirmation: their pending lists are not computed a second time.
                return await translate_languages(store, settings, llm, languages, progress=progress, stages=planned)

        try:
            with stage_progress("translate") as progress:
                runs = asyncio.run(run(progress))
        except (LLMConfigError, PromptError) as error:
            raise cannot_run(error, settings, tuple(settings.roles_in_use(("translate",)))) from None
        except KeyboardInterrupt:
            raise interrupted("every finished translation and LLM answer is") from None
        complete = translate_report(store, runs, verbose, competition)
    if not complete:
        raise typer.Exit(1)


def target_languages(lang: str, settings) -> list[str]:
    """The languages a --lang value translates into: each once, the source left out; a code not under [project]
    languages stops the command (its texts would be paid for but never reviewed, merged or published)."""
    codes = list(dict.fromkeys(languages_from(lang, settings)))
    for code in codes:
        if code not in settings.project.languages:
            raise fail(f"{code} is not under [project] languages in curate.toml; add it there to translate into it")
    return [code for code in codes if code != settings.project.source_language]


def describe_report(store, settings, stage, competition: str | None = None) -> None:
    """After a describe run: descriptions kept though stale, what needs a person, and the rubric figures."""
    from curation.stages.describe_report import describe_figures

    if stage.pinned:
        say(f"kept {plural(len(stage.pinned), 'description')} reviewed under an older prompt or model: the "
            "rubric annotators approved them; `curate describe --redo-reviewed` describes them again and "
            "sends them back to review")
    for problem in store.problems("describe"):
        complain(f"needs a person: {problem.line()}")
    for described in store.descriptions():
        if described.needs_human and (competition is None or described.competition == competition):
            complain(f"needs a person: {described.competition}: " + "; ".join(described.reasons))
    figures = describe_figures(store, settings.describe.good_grades)
    if figures.machine or figures.person_written:
        say(figures.line())


# Where the texts a stage waits for are listed when its line names only a few.
WAITING_MORE = "`curate status --detail` lists them"


def tag_report(store, stage, competition: str | None = None) -> None:
    """After a tag run: competitions still without a description (one line), and domains outside the vocabulary."""
    if stage.waiting:
        shortened = named(stage.waiting) != ", ".join(stage.waiting)
        complain(f"waiting: {plural(len(stage.waiting), 'competition')} with no description yet (run `curate "
                 f"describe`): {named(stage.waiting)}" + (f"; {WAITING_MORE}" if shortened else ""))
    for domain in store.domains():
        if domain.is_new and (competition is None or domain.competition == competition):
            complain(f"new domain for {domain.competition}: {domain.domain!r}; add it to [tag] vocabulary "
                     "in curate.toml to accept it")


def translate_report(store, runs, verbose: bool, competition: str | None = None) -> bool:
    """After a translate run of one or more languages: each language's summary, flagged texts, what waits (one line,
    or one per text with `verbose`) and what was kept; whether every language's run was complete."""
    print_summaries([summary for _, summary in runs], verbose, "`-v` lists every item")
    flagged: dict[str, list[str]] = {}
    for stage, _ in runs:
        texts = store.translations(language=stage.language, competition=competition)
        if ids := [f"{t.competition}/{t.field}" for t in texts if t.flagged]:
            flagged[stage.language] = ids
    if len(flagged) == 1 or verbose:
        for code, ids in flagged.items():
            complain(f"{code}: {plural(len(ids), 'text')} flagged for the annotator (checks still failing): "
                     + (", ".join(ids) if verbose else named(ids)))
    elif flagged:
        # Several languages: one line with a count per language and a few ids of the one with the most.
        worst = max(flagged, key=lambda code: len(flagged[code]))
        complain(f"{plural(sum(map(len, flagged.values())), 'text')} flagged for the annotator (checks still "
                 f"failing): {', '.join(f'{code} {len(ids)}' for code, ids in flagged.items())}; e.g. "
                 f"{', '.join(f'{key}/{worst}' for key in flagged[worst][:2])}; which ones: `-v`, or "
                 f"`curate status --detail --lang {worst}`")
    waiting = runs[0][0].waiting if runs else []  # the same texts wait in every language
    if verbose or len(waiting) == 1:
        for line in waiting:
            complain(f"waiting: {line}")
    elif waiting:
        complain(waiting_line(waiting))
    kept = {stage.language: len(stage.pinned) for stage, _ in runs if stage.pinned}
    if kept:
        say(f"kept {plural(sum(kept.values()), 'text')} reviewed under an older prompt or model ("
            + ", ".join(f"{code} {count}" for code, count in kept.items()) + "): a person approved or wrote them; "
            "`curate translate --redo-reviewed` translates them again and sends them back to review")
    return all(summary.complete for _, summary in runs)


def waiting_line(waiting: list[str]) -> str:
    """Texts a translate run waits for ("slug/field: why (what to run)"), as one line: how many of each field and
    why, a few of their competitions, and where they are all listed."""
    fields: dict[tuple[str, str], int] = {}
    for line in waiting:
        key, _, reason = line.partition(": ")
        name = key.rpartition("/")[2]
        fields[name, reason] = fields.get((name, reason), 0) + 1
    whys = {reason.partition(" (")[0] for _, reason in fields}
    said = whys.pop() if len(whys) == 1 else None  # one reason for all ("no English text yet"): said once
    parts = ", ".join(plural(count, name) + (f" ({reason.partition(' (')[2].removesuffix(')')})" if said else
                                             f": {reason}") for (name, reason), count in fields.items())
    slugs = list(dict.fromkeys(line.partition("/")[0] for line in waiting))
    return (f"waiting: {plural(len(waiting), 'text')}" + (f" with {said}" if said else "") + f": {parts}; "
            f"in {named(slugs)}; {WAITING_MORE}")
