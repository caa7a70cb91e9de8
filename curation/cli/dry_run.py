"""`--dry-run` on run, describe, tag and translate: the calls a run would send per stage and language, and their
estimated cost, as one compact table (or JSON); nothing is sent."""

from __future__ import annotations

from typing import Annotated

import typer

from curation.cli.base import complain, fail, known_competition, open_store, say
from curation.config import Settings

DryRunOption = Annotated[bool, typer.Option(
    "--dry-run", help="Send nothing: print per stage and language the calls the cache cannot answer and their "
                      "estimated cost from [prices].")]
DryRunJsonOption = Annotated[bool, typer.Option("--json", help="With --dry-run: print the plan as JSON, for scripts.")]


def wants_dry_run(dry_run: bool, as_json: bool) -> bool:
    """Whether this is a dry run; --json alone is refused (the commands print their own reports)."""
    if as_json and not dry_run:
        raise fail("--json goes with --dry-run (for a finished run's figures: `curate costs --json`)")
    return dry_run


def show_dry_run(settings: Settings, stages: tuple[str, ...], languages: list[str] | None = None,
                 competition: str | None = None, force: bool = False, max_rounds: int | None = None,
                 redo_reviewed: bool = False, as_json: bool = False) -> None:
    """Plan `stages` without sending anything and print the table (or JSON)."""
    import asyncio

    from curation.dry_run import failing_again, plan_run

    with open_store(settings) as store:
        known_competition(store, competition)
        plan = asyncio.run(plan_run(store, settings, stages, languages or [], only=competition, force=force,
                                    max_rounds=max_rounds, redo_reviewed=redo_reviewed))
    if as_json:
        import json

        typer.echo(json.dumps(plan.as_dict(), indent=2))
        return
    estimated = any(row.estimated for row in plan.rows)
    batch = " (batch prices)" if settings.llm.mode == "batch" else ""
    say(f"dry run: nothing sent; calls the cache cannot answer and their estimated cost{batch}")
    say(f"{'stage':<10} {'lang':<5} {'items':>6} {'calls':>7} {'cached':>7} {'est. USD':>9}")
    for row in plan.rows:
        calls = f"~{row.calls}" if row.estimated else str(row.calls)
        say(f"{row.stage:<10} {row.language:<5} {row.items:>6} {calls:>7} {row.cached:>7} {row.cost_usd:>9.4f}")
    total = f"~{plan.calls}" if estimated else str(plan.calls)
    cached = sum(row.cached for row in plan.rows)
    say(f"{'total':<10} {'':<5} {sum(row.items for row in plan.rows):>6} {total:>7} {cached:>7} {plan.cost_usd:>9.4f}")
    if estimated:
        say("~: includes calls for texts not written yet, counted at a typical description's length")
    say("costs: rendered prompts' tokens in, a typical answer's out, at [prices]")
    for note in plan.notes:
        say(note)
    for line in failing_again(plan):
        complain(line)
    if plan.unpriced:
        complain(f"not priced (no [prices] entry, counted as $0): {', '.join(sorted(plan.unpriced))}")
