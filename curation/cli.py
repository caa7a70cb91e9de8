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
    errors.print(f"[red]error:[/red] {message}", markup=True, highlight=False)
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
        (console if number == 0 else errors).print(line, markup=False, highlight=False)
    if not summary.complete:
        raise typer.Exit(1)


def run_llm_stage(stage: Stage, settings: Settings, store: Store, max_cost: float | None) -> RunSummary:
    """Run an LLM stage with the runner, print its summary, and exit non-zero when anything failed or was left."""
    import asyncio

    from curation.llm import LLM, LLMConfigError
    from curation.stages.runner import run_stage

    async def run() -> RunSummary:
        async with LLM(settings, store, max_cost=max_cost, stage=stage.name) as llm:
            return await run_stage(stage, store, settings, llm)

    try:
        summary = asyncio.run(run())
    except LLMConfigError as error:
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
    console.print(header, markup=False, highlight=False)
    for line in lines:
        console.print(f"{line.stage:<12} {line.role:<10} {line.model:<36} {line.calls:>6} {line.cache_hits:>6} "
                      f"{line.failed:>6} {line.tokens_in:>10} {line.tokens_out:>9} {line.tokens_cached:>9} "
                      f"{line.cost_usd:>10.4f} {line.saved_usd:>10.4f}", markup=False, highlight=False)
    spent = sum(line.cost_usd for line in lines)
    saved = sum(line.saved_usd for line in lines)
    console.print(f"total: ${spent:.4f} spent, ${saved:.4f} saved by the cache "
                  f"({sum(line.cache_hits for line in lines)} cached answers)", markup=False, highlight=False)
