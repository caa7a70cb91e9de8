"""Running an LLM stage from a command (summary, exit codes, missing keys) and `curate costs`."""

from __future__ import annotations

import typing
from typing import Annotated

import typer

from curation.cli.base import (ConfigOption, app, complain, errors, fail, interrupted, open_store, say, say_some,
                               settings_from)
from curation.config import Settings
from curation.store import Store, StoreError

if typing.TYPE_CHECKING:
    from curation.cli.progress import StageProgress
    from curation.stages.runner import RunSummary, Stage


def print_summary(summary: RunSummary, verbose: bool = False) -> None:
    """A stage run's summary: the headline on stdout, failures and what was left on stderr."""
    print_summaries([summary], verbose)


def print_summaries(summaries: list[RunSummary], verbose: bool = False,
                    more: str = "every item and why: `curate status --detail`") -> None:
    """Each run's headline on stdout; on stderr its failures and items left pending, those that share a reason said
    once for all the runs (languages) they happened in, with a few of the items (-v: one line per item)."""
    from curation.excerpt import EXAMPLES, named, plural

    groups: dict[tuple[str, str], list[tuple[str, str]]] = {}  # (kind, reason) -> [(stage, item key)]
    resting = [summary for summary in summaries if idle(summary)]
    if len(resting) > 1:  # a rerun of twelve finished languages is one line, not twelve of "0 done, 0 failed"
        stages = [summary.stage for summary in resting]
        families = list(dict.fromkeys(stage.partition(":")[0] for stage in stages))
        say(f"{'/'.join(families)}: nothing to do in {named([stage.partition(':')[2] or stage for stage in stages], 12)}")
    for summary in summaries:
        if len(resting) > 1 and any(summary is other for other in resting):
            continue
        say(summary.lines()[0])
        for kind, items in (("failed", summary.failed), ("pending", summary.left_pending)):
            for key, reason in items:
                groups.setdefault((kind, reason), []).append((summary.stage, key))
    lines = []
    for (kind, reason), items in groups.items():
        if verbose or len(items) == 1:
            lines += [f"  {kind} {key}: {reason}" for _, key in items]
            continue
        # A stage run per language is named "translate:kk": the languages say where the reason came up.
        where = list(dict.fromkeys(stage.partition(":")[2] or stage for stage, _ in items))
        keys = [key for _, key in items]
        lines.append(f"  {kind}: {plural(len(keys), 'item')}" + (f" in {named(where)}" if len(where) > 1 else "")
                     + f": {reason} (e.g. {', '.join(keys[:EXAMPLES - 1])})")
    say_some(lines, more, verbose, stderr=True)
    for stopped in dict.fromkeys(summary.lines()[-1] for summary in summaries if summary.stopped):
        complain(stopped)  # a budget or a provider that stopped every language is said once


def idle(summary: RunSummary) -> bool:
    """A run that found nothing to do: no item done, failed, left or stopped, no call."""
    return not (summary.done or summary.failed or summary.not_started or summary.left_pending or summary.calls
                or summary.stopped)


def report_run(summary: RunSummary) -> None:
    """Print a stage run's summary; exit 1 when any item failed or was not started."""
    print_summary(summary)
    if not summary.complete:
        raise typer.Exit(1)


# The roles of the automatic stages (describe, tag, translate): a run that lacks a key for one of them lacks it for
# the others as surely, so the missing-key message names them all, not only the stage that found it.
PIPELINE_ROLES = ("describe", "score", "refine", "tag", "translate")


def keyless_roles(settings: Settings, roles: tuple[str, ...]) -> list[str]:
    """One line per unset key variable, naming every role that needs it: those of `roles` and, when they are
    automatic-stage roles, the other automatic stages' roles too (qe when it is on)."""
    from curation.doctor import missing_key

    wanted = list(roles)
    if set(roles) & set(PIPELINE_ROLES):
        wanted += settings.roles_in_use(PIPELINE_ROLES)
    by_provider: dict[str, list[str]] = {}
    for role in dict.fromkeys(wanted):
        by_provider.setdefault(settings.provider_for(role)[0], []).append(role)
    return [todo for name, used in by_provider.items() if (todo := missing_key(settings, name, used)) is not None]


def stage_progress(title: str, steps: bool = False) -> StageProgress:
    """One live display for a whole stage (all its languages), as the runner's progress callback; `watch(llm)`
    adds the client's requests, tokens, spend and failures. Plain lines every 30 s when not on a terminal. With
    `steps`, named after the step under way (see StageProgress)."""
    from curation.cli.progress import StageProgress

    return StageProgress(title, errors, steps=steps)


def cannot_run(error: Exception, settings: Settings, roles: tuple[str, ...]) -> typer.Exit:
    """The one line for a run that cannot go on (missing or rejected key, dead server, bad prompt); for a missing
    key, also which of `roles` need which variable."""
    from curation.llm import MissingKey

    exit_ = fail(str(error))
    if isinstance(error, MissingKey):
        for line in keyless_roles(settings, roles):
            complain(f"  {line}")
        complain("  `curate doctor` checks every key, endpoint and model the configuration uses, without paying for a call")
    return exit_


def run_llm_stage(stage: Stage, settings: Settings, store: Store, max_cost: float | None,
                  roles: tuple[str, ...] = ()) -> RunSummary:
    """Run an LLM stage with the runner, print its summary, and exit non-zero when anything failed or was left.

    When the run cannot start for want of a key, say for which of `roles` and what to set.
    """
    import asyncio

    from curation.llm import LLM, LLMConfigError
    from curation.prompts import PromptError
    from curation.stages.runner import run_stage

    async def run(progress: StageProgress) -> RunSummary:
        async with LLM(settings, store, max_cost=max_cost, stage=stage.name) as llm:
            progress.watch(llm)
            return await run_stage(stage, store, settings, llm, progress=progress)

    try:
        with stage_progress(stage.name) as progress:
            summary = asyncio.run(run(progress))
    except (LLMConfigError, PromptError) as error:
        raise cannot_run(error, settings, roles) from None
    except StoreError as error:  # found before the first call: the store or its disk cannot record answers
        raise fail(str(error)) from None
    except KeyboardInterrupt:
        raise interrupted() from None
    report_run(summary)
    return summary


@app.command()
def costs(
    as_json: Annotated[bool, typer.Option("--json", help="Print the lines and totals as one JSON object, for scripts.")] = False,
    config: ConfigOption = None,
) -> None:
    """Spend and tokens by stage, role and model, what the answer cache saved and what prompt caching saved."""
    from curation.status import ASK_ANEW, failure_lines

    settings = settings_from(config)
    with open_store(settings) as store:
        lines = store.llm_costs()
        # Items are counted where they fail, in the stage states; the call log's errors are calls, not items.
        tallies = {stage: tally for stage, tally in store.status_tallies()[1].items()
                   if tally.get("failed") and stage.partition(":")[0] in ASK_ANEW}
        repeats = store.failures_from_answers() if tallies else {}
    from curation.llm.pricing import prompt_cache_saving_usd

    # The prompt cache's saving comes from today's [prices]: the call log keeps tokens, not rates.
    cache_saved = [prompt_cache_saving_usd(settings.prices.get(line.model), line.tokens_cached,
                                           line.tokens_cache_write) for line in lines]
    if as_json:
        import json

        typer.echo(json.dumps({"lines": [{**line.model_dump(), "prompt_cache_saved_usd": saved}
                                         for line, saved in zip(lines, cache_saved)],
                               "spent_usd": sum(line.cost_usd for line in lines),
                               "saved_usd": sum(line.saved_usd for line in lines),
                               "prompt_cache_saved_usd": sum(cache_saved),
                               "failed_competitions": {stage: tally["failed"] for stage, tally in tallies.items()}},
                              indent=2))
        return
    if not lines:
        say("no LLM calls logged yet")
        return
    header = f"{'stage':<12} {'role':<13} {'model':<36} {'calls':>6} {'cached':>6} {'errors':>6} " \
             f"{'tokens in':>10} {'out':>9} {'cached in':>9} {'cost USD':>10} {'saved USD':>10} {'cache USD':>10}"
    say(header)
    for line, saved_by_prefix in zip(lines, cache_saved):
        say(f"{line.stage:<12} {line.role:<13} {line.model:<36} {line.calls:>6} {line.cache_hits:>6} "
            f"{line.call_errors:>6} {line.tokens_in:>10} {line.tokens_out:>9} {line.tokens_cached:>9} "
            f"{line.cost_usd:>10.4f} {line.saved_usd:>10.4f} {saved_by_prefix:>10.4f}")
    spent = sum(line.cost_usd for line in lines)
    saved = sum(line.saved_usd for line in lines)
    if tallies:
        say("errors: calls that got no answer (HTTP errors, refusals, no valid answer), not the items that failed:")
        for failed in failure_lines(tallies, repeats):
            say(f"  {failed}")
    say(f"total: ${spent:.4f} spent, ${saved:.4f} saved by the cache "
        f"({sum(line.cache_hits for line in lines)} cached answers)")
    say(f"prompt caching: {sum(line.tokens_cached for line in lines)} input tokens served from the providers' "
        f"prompt caches, ${sum(cache_saved):.4f} saved at [prices] (cache writes counted against it)")
