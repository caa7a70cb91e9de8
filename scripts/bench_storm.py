"""`curate describe` + `curate translate` on the sample under a provider storm, against the same run fault-free.

    python scripts/bench_storm.py [--latency 3.0] [--retry-after 1.0] [--cut-offs 0.15] [--lang kk,be,ja]

Provider rate limits are raised far above what the run asks, so the figure is the retry policy's. The fake LLM
server (tests/fakes/llm_server.py) answers every request after `--latency` seconds. The storm run gets, at random
with a fixed seed, 30% 429s with `retry-after`, 5% 500s and 15% bodies cut inside a multi-byte character (faults
come back at once, as a real API's do; a cut body is a transport fault, retried with back-off like a 500). Each run
starts from a fresh copy of the sample project, so neither reads the other's cache. Prints both wall times, their
ratio, the faults served and whether every item was done on the first run.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from typer.testing import CliRunner  # noqa: E402

from curation.cli import app  # noqa: E402
from tests.fakes.llm_server import FakeLLMServer, Storm, slow  # noqa: E402
from tests.test_cli_run import Model  # noqa: E402


def project_copy(root: Path, languages: list[str]) -> Path:
    """The repository's sample project with only `languages` as targets."""
    for name in ("curate.toml",):
        shutil.copy(REPO / name, root / name)
    for folder in ("prompts", "cards"):
        shutil.copytree(REPO / folder, root / folder)
    shutil.copytree(REPO / "data" / "sample", root / "data" / "sample")
    toml = root / "curate.toml"
    text = toml.read_text(encoding="utf-8")
    start = text.index("languages = [")
    end = text.index("]", start) + 1
    text = text[:start] + "languages = [" + ", ".join(f'"{code}"' for code in ["en", *languages]) + "]" + text[end:]
    # Provider limits far above what the run asks, so the figure is the retry policy's, not the rate limiter's.
    text = re.sub(r"(?m)^requests_per_minute = .*$", "requests_per_minute = 100000", text)
    text = re.sub(r"(?m)^tokens_per_minute = .*$", "tokens_per_minute = 100000000", text)
    # The fake translator writes filler words, which the adequacy check rightly refuses (tests/conftest.py).
    text = text.replace("adequacy = true", "adequacy = false", 1)
    toml.write_text(text, encoding="utf-8")
    return root


def timed_run(storm: bool, args: argparse.Namespace) -> tuple[float, list[str], dict]:
    """Seconds for describe + translate in a fresh project; the summary lines; the faults served."""
    languages = args.lang.split(",")
    with tempfile.TemporaryDirectory(prefix="bench-storm-") as scratch, FakeLLMServer() as server:
        project = project_copy(Path(scratch), languages)
        model = Model()
        responder = (Storm(model, cut_offs=args.cut_offs, retry_after=args.retry_after, latency=args.latency)
                     if storm else (lambda request: slow(args.latency, model(request))))
        server.respond_with(responder)
        os.environ.update(OPENAI_BASE_URL=server.openai_base_url, ANTHROPIC_BASE_URL=server.anthropic_base_url)
        for variable in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
            os.environ.pop(variable, None)
        runner, here = CliRunner(), os.getcwd()
        os.chdir(project)
        try:
            runner.invoke(app, ["ingest"])
            started = time.monotonic()
            described = runner.invoke(app, ["describe", "--yes"])
            translated = runner.invoke(app, ["translate", "--lang", args.lang, "--yes"])
            seconds = time.monotonic() - started
        finally:
            os.chdir(here)
        lines = [line for result in (described, translated) for line in result.output.splitlines()
                 if " done, " in line and " failed" in line]
        return seconds, lines, (responder.counts if storm else {"answer": server.answered})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=3.0, help="seconds per answer (default 3.0; real models take longer)")
    parser.add_argument("--retry-after", type=float, default=1.0, help="the 429s' retry-after (default 1.0)")
    parser.add_argument("--cut-offs", type=float, default=0.15, help="share of bodies cut off (default 0.15)")
    parser.add_argument("--lang", default="kk,be,ja", help="target languages (default kk,be,ja)")
    args = parser.parse_args()

    calm, calm_lines, calm_counts = timed_run(False, args)
    stormy, storm_lines, faults = timed_run(True, args)
    print(f"fault-free: {calm:.1f} s, {calm_counts['answer']} answers")
    for line in calm_lines:
        print(f"  {line}")
    print(f"storm (30% 429 with retry-after {args.retry_after:g}s, 5% 500, {args.cut_offs:.0%} cut-off bodies): "
          f"{stormy:.1f} s; "
          f"served {faults['answer']} answers, {faults['429']} 429s, {faults['500']} 500s, "
          f"{faults['cut_off']} cut-off bodies")
    for line in storm_lines:
        print(f"  {line}")
    complete = all(" 0 failed, 0 not started" in line for line in storm_lines)
    print(f"storm / fault-free: {stormy / calm:.2f}x; every item done on the first run: {'yes' if complete else 'NO'}")


if __name__ == "__main__":
    main()
