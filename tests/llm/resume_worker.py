"""Run the example stage in its own process, so a test can kill or interrupt it mid-run:
python -m tests.llm.resume_worker [--cli] PROJECT_DIR SERVER_URL SLUG...
With --cli it runs through the command-line helper (run_llm_stage), as a `curate` command would."""

from __future__ import annotations

import asyncio
import sys
from types import SimpleNamespace

import typer

from curation.cli.llm import run_llm_stage
from curation.config import load_settings
from curation.llm import LLM
from curation.stages.runner import run_stage
from curation.store import Store
from tests.fakes.llm_server import pointed_at
from tests.llm.example_stage import DomainStage


def settings_for(project: str, url: str):
    server = SimpleNamespace(openai_base_url=f"{url}/v1", anthropic_base_url=url)
    return pointed_at(load_settings(f"{project}/curate.toml"), server, max_concurrent=1)


def main_cli(project: str, url: str, slugs: list[str]) -> None:
    settings = settings_for(project, url)
    with Store(settings.path("store")) as store:
        try:
            run_llm_stage(DomainStage(slugs), settings, store, None)
        except typer.Exit as exit_:
            sys.exit(exit_.exit_code)


async def main(project: str, url: str, slugs: list[str]) -> None:
    settings = settings_for(project, url)
    with Store(settings.path("store")) as store:
        async with LLM(settings, store, stage="example-tag") as llm:
            summary = await run_stage(DomainStage(slugs), store, settings, llm)
    print("\n".join(summary.lines()), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "--cli":
        main_cli(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
