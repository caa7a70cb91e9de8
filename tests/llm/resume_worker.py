"""Run the example stage in its own process (so a test can SIGKILL it mid-run):
python -m tests.llm.resume_worker PROJECT_DIR SERVER_URL SLUG..."""

from __future__ import annotations

import asyncio
import sys
from types import SimpleNamespace

from curation.config import load_settings
from curation.llm import LLM
from curation.stages.runner import run_stage
from curation.store import Store
from tests.fakes.llm_server import pointed_at
from tests.llm.example_stage import DomainStage


async def main(project: str, url: str, slugs: list[str]) -> None:
    server = SimpleNamespace(openai_base_url=f"{url}/v1", anthropic_base_url=url)
    settings = pointed_at(load_settings(f"{project}/curate.toml"), server, max_concurrent=1)
    with Store(settings.path("store")) as store:
        async with LLM(settings, store, stage="example-tag") as llm:
            summary = await run_stage(DomainStage(slugs), store, settings, llm)
    print("\n".join(summary.lines()), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
