"""Throughput and client CPU of the LLM client against the fake server, with a set latency and RPM limit.

    python scripts/bench_llm_client.py --calls 600 --rpm 6000 --latency 0.05

The fake server runs in its own process, so this process's CPU time is the client's alone (SDK, limiter,
validation, cache lookup and call log). Prints the achieved request rate as a fraction of the limit (the limit is
the bottleneck when latency x rate < max_concurrent) and the client CPU time per call, for fresh calls, for a
second pass answered from the cache, and for the bare openai SDK making the same requests (the floor).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
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


async def run_bare_sdk(url: str, calls: int, concurrent: int, rpm: int) -> float:
    """Client CPU seconds for the same requests made with the bare openai SDK, paced at the same rate by plain
    sleeps: the floor the client builds on."""
    import openai

    from curation.llm.schemas import strict_json_schema

    client = openai.AsyncOpenAI(api_key="bench", base_url=f"{url}/v1", max_retries=0)
    gate = asyncio.Semaphore(concurrent)
    response_format = {"type": "json_schema",
                       "json_schema": {"name": "Domain", "schema": strict_json_schema(Domain), "strict": True}}

    start = time.monotonic()

    async def one(n: int) -> None:
        await asyncio.sleep(max(0.0, start + n * 60 / rpm - time.monotonic()))
        async with gate:
            completion = await client.chat.completions.create(
                model="gpt-4o-mini", temperature=0, max_tokens=4096, response_format=response_format,
                messages=[{"role": "system", "content": "Name the domain of a competition."},
                          {"role": "user", "content": f"Competition: bare-{n}"}])
            Domain.model_validate_json(completion.choices[0].message.content)

    await one(0)
    start = time.monotonic()
    cpu = time.process_time()
    await asyncio.gather(*(one(n) for n in range(calls)))
    cpu = time.process_time() - cpu
    await client.close()
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=600)
    parser.add_argument("--rpm", type=int, default=6000, help="requests per minute allowed by the provider config")
    parser.add_argument("--latency", type=float, default=0.05, help="seconds the fake server takes per answer")
    parser.add_argument("--concurrent", type=int, default=16, help="max_concurrent of the provider")
    parser.add_argument("--provider", choices=["openai", "anthropic"], default="openai")
    parser.add_argument("--rounds", type=int, default=3, help="repeat and report the median (CPU time is noisy)")
    args = parser.parse_args()

    server = subprocess.Popen([sys.executable, "-m", "tests.fakes.llm_server", "--latency", str(args.latency),
                               "--answer", '{"domain": "finance"}'], cwd=REPO, stdout=subprocess.PIPE, text=True)
    fresh, cached, bare, walls = [], [], [], []
    try:
        url = server.stdout.readline().strip()
        fake = SimpleNamespace(openai_base_url=f"{url}/v1", anthropic_base_url=url)
        settings = pointed_at(Settings(), fake, requests_per_minute=args.rpm, max_concurrent=args.concurrent,
                              timeout_seconds=30.0, max_retry_seconds=30.0)
        role = "tag" if args.provider == "openai" else "refine"
        with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "bench.sqlite") as store:
            asyncio.run(run_calls(settings, store, 5, role, prefix="warm-up"))  # imports and connections, not measured
            for round_ in range(args.rounds):
                wall, cpu = asyncio.run(run_calls(settings, store, args.calls, role, prefix=f"round{round_}"))
                walls.append(wall)
                fresh.append(cpu / args.calls)
                cached.append(asyncio.run(run_calls(settings, store, args.calls, role, prefix=f"round{round_}"))[1] / args.calls)
                if args.provider == "openai":
                    bare.append(asyncio.run(run_bare_sdk(url, args.calls, args.concurrent, args.rpm)) / args.calls)
    finally:
        server.terminate()
        server.wait()

    achieved = args.calls / statistics.median(walls) * 60
    # A perfectly paced run sends its last request (calls - 1) intervals after the first and is done one latency later.
    ideal = args.calls / (((args.calls - 1) * 60 / args.rpm) + args.latency) * 60
    ms = lambda values: f"{statistics.median(values) * 1000:.2f} ms (best {min(values) * 1000:.2f})"  # noqa: E731
    print(f"provider {args.provider}, {args.calls} calls x {args.rounds} rounds, limit {args.rpm} requests/min, "
          f"latency {args.latency * 1000:.0f} ms, max_concurrent {args.concurrent}")
    print(f"achieved {achieved:.0f} requests/min = {achieved / args.rpm:.3f} of the limit "
          f"(a perfectly paced client: {ideal / args.rpm:.3f})")
    print(f"client CPU per call, median of rounds: {ms(fresh)} fresh, {ms(cached)} from the cache")
    if bare:
        print(f"the bare openai SDK making the same requests at the same pace (no cache, log or limits): {ms(bare)}")


if __name__ == "__main__":
    main()
