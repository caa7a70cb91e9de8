"""Cost per competition of the sample, online vs batch vs batch + prompt caching, from a fake-server run.

    python scripts/bench_batch_cost.py

Runs `curate run` on data/sample (all 13 languages) against the fake OpenAI/Anthropic server in a throwaway
project, reads every call's input and output tokens from the call log, and prices them with the [prices] of this
repository's curate.toml three ways: online, at the batch prices, and at the batch prices with each call's
system message (the prompt's stable instructions, which come first) read from the provider's prompt cache after
its first use. Token counts are the fake's (about four characters a token), so the figures are estimates of the
order of magnitude; one translation attempt per text is counted (translate.max_attempts = 1), retries add in
proportion. Cache writes, minimum cacheable prefix lengths and cache lifetimes are ignored: the third figure is
the most caching could save.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from typer.testing import CliRunner  # noqa: E402

from curation.cli import app  # noqa: E402
from curation.config import load_settings  # noqa: E402
from curation.llm.answer import Usage  # noqa: E402
from curation.llm.pricing import cost_usd  # noqa: E402
from curation.store import Store  # noqa: E402
from tests.fakes.llm_server import FakeLLMServer  # noqa: E402
from tests.stages.scripted_models import TaskWriter, role_of  # noqa: E402


def model(request, writer=TaskWriter(domains={})):
    """describe/score/refine/tag as the tests' TaskWriter; a translation is the source text itself (the same
    length, which is what the cost depends on)."""
    if request.user_text.startswith("Translate this"):
        text = request.user_text.split("<<<\n", 1)[-1].split("\n>>>", 1)[0]
        return text
    return writer(request)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, FakeLLMServer() as server:
        project = Path(folder)
        shutil.copy(REPO / "curate.toml", project / "curate.toml")
        for name in ("prompts", "cards"):
            shutil.copytree(REPO / name, project / name)
        shutil.copytree(REPO / "data" / "sample", project / "data" / "sample")
        toml = project / "curate.toml"
        toml.write_text(re.sub(r"(?m)^max_attempts = \d+$", "max_attempts = 1", toml.read_text(encoding="utf-8")),
                        encoding="utf-8")
        server.respond_with(model)
        os.chdir(project)
        env = {"OPENAI_BASE_URL": server.openai_base_url, "ANTHROPIC_BASE_URL": server.anthropic_base_url}
        result = CliRunner().invoke(app, ["run"], env=env)
        settings = load_settings(toml)
        with Store(project / "data" / "curation.sqlite") as store:
            calls = [c for c in store.llm_calls() if not c.cached and c.error is None]
            competitions = len(store.competitions())
        # The stable part each role's prompt puts first (its system message), in the fake's tokens, per role.
        system_tokens: dict[str, list[int]] = defaultdict(list)
        for request in server.requests:
            role = "translate" if request.user_text.startswith("Translate this") else role_of(request)
            system_tokens[role].append(len(request.system_text) // 4)
    prefix = {role: sum(sizes) // len(sizes) for role, sizes in system_tokens.items()}
    print(f"curate run exit code {result.exit_code}; {len(calls)} paid calls over {competitions} competitions, "
          f"{len(settings.project.languages)} languages")
    totals = defaultdict(float)
    seen_prefix: set[tuple[str, str]] = set()
    by_role = defaultdict(lambda: defaultdict(float))
    for call in calls:
        price = settings.prices.get(f"{call.provider}:{call.model}")
        usage = Usage(call.tokens_in, call.tokens_out)
        cached = min(prefix.get(call.role, 0), call.tokens_in) if (call.model, call.role) in seen_prefix else 0
        seen_prefix.add((call.model, call.role))
        figures = {"online": cost_usd(price, usage), "batch": cost_usd(price, usage, batch=True),
                   "batch + prompt caching": cost_usd(price, Usage(call.tokens_in, call.tokens_out, cached), batch=True)}
        for name, value in figures.items():
            totals[name] += value
            by_role[call.role][name] += value
    print(f"{'USD per competition':<24} {'online':>10} {'batch':>10} {'batch+cache':>12}")
    for role, figures in sorted(by_role.items()):
        print(f"{role:<24} " + " ".join(f"{figures[n] / competitions:>10.4f}" for n in ("online", "batch"))
              + f" {figures['batch + prompt caching'] / competitions:>12.4f}")
    print(f"{'total':<24} " + " ".join(f"{totals[n] / competitions:>10.4f}" for n in ("online", "batch"))
          + f" {totals['batch + prompt caching'] / competitions:>12.4f}")
    print("prices: the [prices] of curate.toml (each entry says where and when it was read)")


if __name__ == "__main__":
    main()
