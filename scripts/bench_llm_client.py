"""Throughput and client CPU of the LLM client against the fake server, with a set latency and RPM limit.

    python scripts/bench_llm_client.py --calls 600 --rpm 6000 --latency 0.05

The fake server runs in its own process, so this process's CPU time is the client's alone (SDK, limiter,
validation, cache lookup and call log). Prints the achieved request rate as a fraction of the limit (the limit is
the bottleneck when latency x rate < max_concurrent) and the client CPU time per call, for fresh calls and for a
second pass answered from the cache.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

from pydantic import BaseModel

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from curation.config import Settings  # noqa: E402
from curation.llm import LLM  # noqa: E402
from curation.store import Store  # noqa: E402
from tests.fakes.llm_server import pointed_at  # noqa: E402


class Domain(BaseModel):
    domain: str


async def run_calls(settings: Settings, store: Store, calls: int, role: str, prefix: str = "bench") -> tuple[float, float]:
    """(wall seconds, client CPU seconds) for `calls` distinct structured calls fired at once."""
    async with LLM(settings, store, stage="bench") as llm:
        cpu, wall = time.process_time(), time.perf_counter()
        answers = await asyncio.gather(*(
            llm.ask(role=role, messages=[{"role": "system", "content": "Name the domain of a competition."},
                                         {"role": "user", "content": f"Competition: {prefix}-{n}"}],
                    schema=Domain, item=f"{prefix}-{n}")
            for n in range(calls)))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert all(a.parsed.domain == "finance" for a in answers)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=600)
    parser.add_argument("--rpm", type=int, default=6000, help="requests per minute allowed by the provider config")
    parser.add_argument("--latency", type=float, default=0.05, help="seconds the fake server takes per answer")
    parser.add_argument("--concurrent", type=int, default=16, help="max_concurrent of the provider")
    parser.add_argument("--provider", choices=["openai", "anthropic"], default="openai")
    args = parser.parse_args()

    server = subprocess.Popen([sys.executable, "-m", "tests.fakes.llm_server", "--latency", str(args.latency),
                               "--answer", '{"domain": "finance"}'], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip()
        fake = SimpleNamespace(openai_base_url=f"{url}/v1", anthropic_base_url=url)
        settings = pointed_at(Settings(), fake, requests_per_minute=args.rpm, max_concurrent=args.concurrent,
                              timeout_seconds=30.0, max_retry_seconds=30.0)
        role = "tag" if args.provider == "openai" else "refine"
        with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "bench.sqlite") as store:
            asyncio.run(run_calls(settings, store, 5, role, prefix="warm-up"))  # warm up imports and connections, not measured
            wall, cpu = asyncio.run(run_calls(settings, store, args.calls, role))
            cached_wall, cached_cpu = asyncio.run(run_calls(settings, store, args.calls, role))
    finally:
        server.terminate()
        server.wait()

    achieved = args.calls / wall * 60
    # A perfectly paced run sends its last request (calls - 1) intervals after the first and is done one latency later.
    ideal = args.calls / (((args.calls - 1) * 60 / args.rpm) + args.latency) * 60
    print(f"provider {args.provider}, {args.calls} calls, limit {args.rpm} requests/min, latency {args.latency * 1000:.0f} ms, "
          f"max_concurrent {args.concurrent}")
    print(f"achieved {achieved:.0f} requests/min = {achieved / args.rpm:.3f} of the limit "
          f"(a perfectly paced client: {ideal / args.rpm:.3f})")
    print(f"client CPU per call: {cpu / args.calls * 1000:.2f} ms fresh, {cached_cpu / args.calls * 1000:.2f} ms from the cache "
          f"({args.calls} cache hits in {cached_wall:.2f} s)")


if __name__ == "__main__":
    main()
