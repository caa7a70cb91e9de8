"""`curate batches`: the provider batches batch mode submitted, their state and counts; `--cancel ID` cancels one."""

from __future__ import annotations

from typing import Annotated

import typer

from curation.cli.base import ConfigOption, app, complain, fail, open_store, say, settings_from


@app.command()
def batches(
    cancel: Annotated[str | None, typer.Option("--cancel", metavar="ID", help="Cancel this batch (its provider id, "
                                                "or the number in the first column).")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Also list batches whose results are in.")] = False,
    config: ConfigOption = None,
) -> None:
    """List open provider batches (state, request counts); the next run collects them without paying again."""
    settings = settings_from(config)
    with open_store(settings) as store:
        if cancel is not None:
            _cancel(store, settings, cancel)
            return
        rows = store.batches(open_only=not all_)
        if not rows:
            say("no open batches" if not all_ else "no batches")
            return
        say(f"{'#':>4} {'batch':<28} {'model':<36} {'requests':>8}  {'state':<14} counts")
        for row in rows:
            counts = ", ".join(f"{n} {name}" for name, n in row.counts.items())
            state = row.state + (" (results in)" if row.closed else "")
            say(f"{row.id:>4} {row.remote_id or '-':<28} {row.provider + ':' + row.model:<36} {row.requests:>8}  "
                f"{state:<14} {counts}")
        if not all_:
            say("rerun the command that submitted them (e.g. `curate run --batch`) to collect their answers")


def _cancel(store, settings, wanted: str) -> None:
    import asyncio

    from curation.llm import LLM, LLMConfigError
    from curation.llm.batch_api import BatchAPIError
    from curation.llm.batching import cancel_batch

    row = next((b for b in store.batches() if wanted in (b.remote_id, str(b.id))), None)
    if row is None:
        raise fail(f"{wanted}: no such batch; `curate batches --all` lists them")
    if row.closed or row.remote_id is None:
        raise fail(f"{wanted}: this batch has {'ended' if row.closed else 'not been submitted'}; nothing to cancel")

    async def run():
        async with LLM(settings, store, stage="batches") as llm:
            return await cancel_batch(store, row.id, llm.batch_api(row.provider))

    try:
        status = asyncio.run(run())
    except (LLMConfigError, BatchAPIError) as error:
        raise fail(f"{wanted}: cannot cancel it ({getattr(error, 'reason', error)})") from None
    say(f"batch {row.remote_id}: {status.line()}")
    complain("the next run collects what it finished and submits the rest again (or asks it online with "
             "--batch-fallback online)")
