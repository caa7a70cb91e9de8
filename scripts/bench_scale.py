"""What a project of N competitions costs: status, store, memory and a rerun at benchmark-team sizes (issue 23).

    python scripts/bench_scale.py [--n 24,100,500] [--rpm 6000] [--latency 0.2] [--keep DIR]

For each N, the 24-competition corpus of scripts/bench_throughput.py (the hand-written texts of
tests/checks/sentences.json on copies of the sample's titanic folder) is copied under new names up to N competitions,
and the real `curate run --yes` runs in a subprocess into all 13 languages against the fake LLM server
(tests/fakes/llm_server.py, every role on one provider limited to `--rpm`, each answer after `--latency` seconds).
Then, on the finished project: `curate status` and `curate status --json` (median of 3, process start to exit), the
SQL statements one report runs (overview and --json, counted in this process with SQLite's trace callback), the
store's size, and a second `curate run --yes` (nothing changed: it should send nothing and log nothing).

Peak memory is the largest sum of the resident set sizes of `curate` and all its descendants (the checks' process),
sampled every 0.1 s; pages the processes share are counted in each, so it is an upper bound.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from bench_throughput import build_project  # noqa: E402

from curation.config import load_settings  # noqa: E402
from curation.status import build_status  # noqa: E402
from curation.store import Store  # noqa: E402
from tests.fakes.llm_server import FakeLLMServer  # noqa: E402

CURATE = Path(sys.executable).with_name("curate")
MIB = 1024 * 1024


class PeakMemory:
    """The largest summed RSS of a process and its descendants, sampled every `every` seconds until stopped."""

    def __init__(self, pid: int, every: float = 0.1):
        self.root, self.every, self.peak = psutil.Process(pid), every, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.is_set():
            total = 0
            try:
                for process in [self.root, *self.root.children(recursive=True)]:
                    try:
                        total += process.memory_info().rss
                    except psutil.Error:
                        continue  # ended between the listing and the reading
            except psutil.Error:
                return
            self.peak = max(self.peak, total)
            self._stop.wait(self.every)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


def curate(project: Path, env: dict, *args: str, memory: bool = False) -> dict:
    """Run `curate ARGS` in the project: wall seconds, exit code, stdout, peak memory of its tree (with `memory`)."""
    started = time.monotonic()
    process = subprocess.Popen([str(CURATE), *args], cwd=project, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    sampler = PeakMemory(process.pid) if memory else None
    output, _ = process.communicate()
    wall = time.monotonic() - started
    if process.returncode:
        print(output.decode(errors="replace")[-3000:], file=sys.stderr)
        raise SystemExit(f"curate {' '.join(args)} exited {process.returncode}")
    return {"wall": wall, "output": output, "peak": sampler.stop() if sampler else 0}


def status_statements(project: Path) -> tuple[int, int]:
    """SQL statements of one report: the overview (plain `curate status`) and the whole one (`--json`)."""
    settings = load_settings(project / "curate.toml")
    counts = []
    with Store(settings.path("store")) as store:
        for detail in (False, True):
            statements: list[str] = []
            store.db.set_trace_callback(statements.append)
            build_status(store, settings, settings.project.languages, detail=detail).to_json()
            store.db.set_trace_callback(None)
            counts.append(len(statements))
    return counts[0], counts[1]


def call_log_rows(project: Path) -> int:
    with sqlite3.connect(project / "data" / "curation.sqlite") as db:
        return db.execute("SELECT COUNT(*) FROM llm_calls").fetchone()[0]


def store_bytes(project: Path) -> int:
    return sum(path.stat().st_size for path in (project / "data").glob("curation.sqlite*"))


def one_size(n: int, args: argparse.Namespace) -> dict:
    """Build the project of `n` competitions, run it, and measure what the module docstring lists."""
    with tempfile.TemporaryDirectory(prefix=f"bench-scale-{n}-") as scratch, \
            FakeLLMServer(latency=args.latency) as server:
        project = Path(scratch)
        server.respond_with(build_project(project, n, args.rpm))
        env = {key: value for key, value in os.environ.items() if key not in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY")}
        env.update(OPENAI_BASE_URL=server.openai_base_url, ANTHROPIC_BASE_URL=server.anthropic_base_url,
                   CURATE_PROGRESS_SECONDS="3600", COLUMNS="120")
        figures: dict = {"n": n, "load": os.getloadavg()[0]}
        run = curate(project, env, "run", "--yes", memory=True)
        figures.update(run_wall=run["wall"], run_peak=run["peak"], requests=server.count())
        figures["status"] = statistics.median(curate(project, env, "status")["wall"] for _ in range(3))
        answers = [curate(project, env, "status", "--json") for _ in range(3)]
        figures["json"] = statistics.median(answer["wall"] for answer in answers)
        figures["json_bytes"] = len(answers[0]["output"])
        figures["statements"] = status_statements(project)
        figures["store"] = store_bytes(project)
        rows, requests = call_log_rows(project), server.count()
        rerun = curate(project, env, "run", "--yes", memory=True)
        figures.update(rerun_wall=rerun["wall"], rerun_peak=rerun["peak"], rerun_requests=server.count() - requests,
                       rerun_rows=call_log_rows(project) - rows, rerun_store=store_bytes(project) - figures["store"])
        figures["load_after"] = os.getloadavg()[0]
        if args.keep:
            shutil.copytree(project, args.keep / f"n{n}", dirs_exist_ok=True)
    return figures


def table(results: list[dict], rpm: int) -> str:
    """The figures as a Markdown table, one column per N."""
    def row(title: str, cell) -> str:
        return f"| {title} | " + " | ".join(cell(figures) for figures in results) + " |"

    lines = ["| figure | " + " | ".join(f"N={figures['n']}" for figures in results) + " |",
             "|---|" + "---|" * len(results),
             row("`curate run`: requests, wall", lambda f: f"{f['requests']:,}, {f['run_wall']:.0f} s"),
             row("run wall ÷ (requests ÷ RPM)", lambda f: f"{f['run_wall'] / (f['requests'] / rpm * 60):.2f}"),
             row("`curate status`", lambda f: f"{f['status']:.2f} s"),
             row("`curate status --json`", lambda f: f"{f['json']:.2f} s, {f['json_bytes'] / MIB:.1f} MB"),
             row("SQL statements of a report (overview / --json)", lambda f: "{} / {}".format(*f["statements"])),
             row("store size", lambda f: f"{f['store'] / MIB:.1f} MB"),
             row("peak memory, process tree (run / rerun)",
                 lambda f: f"{f['run_peak'] / MIB:,.0f} / {f['rerun_peak'] / MIB:,.0f} MiB"),
             row("rerun: wall", lambda f: f"{f['rerun_wall']:.1f} s"),
             row("rerun: requests sent", lambda f: str(f["rerun_requests"])),
             row("rerun: call-log rows added (store growth)",
                 lambda f: f"{f['rerun_rows']:,} (+{f['rerun_store'] / MIB:.1f} MB)"),
             row("load average (start → end)", lambda f: f"{f['load']:.1f} → {f['load_after']:.1f}")]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", default="24,100,500", help="project sizes, comma-separated (default 24,100,500)")
    parser.add_argument("--rpm", type=int, default=6000, help="requests_per_minute of the provider (default 6000)")
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per answer (default 0.2)")
    parser.add_argument("--keep", type=Path, help="copy each finished project to DIR/n<N>")
    args = parser.parse_args()
    sizes = [int(part) for part in args.n.split(",") if part.strip()]
    results = []
    for n in sizes:
        results.append(one_size(n, args))
        print(f"N={n} done", file=sys.stderr, flush=True)
    print(table(results, args.rpm))


if __name__ == "__main__":
    main()
