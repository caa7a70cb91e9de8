"""Time of `curate status` on a 24-competition, 13-language project in the middle of its review.

The project is written straight into a throwaway store (as ingest, describe, tag, translate, review push and pull
would leave it, no LLM): 24 competitions translated into every target, every fifth Belarusian text flagged, every
target's texts pushed to one annotator, verdicts pulled on two thirds of them (a YES, a fix, a NO without a fix; a second
annotator's on every third competition),
and `curate merge` run on half of the languages. Prints the median wall and CPU time of each form of the command, in
process (the Python start-up and imports are not counted: they are the same before and after a change).

    python scripts/bench_status.py                  # the timings
    python scripts/bench_status.py --dump DIR       # ... and each form's output in DIR, to diff two versions
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from typer.testing import CliRunner  # noqa: E402

from curation.cli import app  # noqa: E402
from curation.config import load_settings  # noqa: E402
from curation.records import PushedRow, Verdict  # noqa: E402
from curation.review.items import item_id, text_hash  # noqa: E402
from curation.stages.merge import merge_language  # noqa: E402
from curation.store import Store  # noqa: E402
from tests.review.seeding import KK, ORIGINALS, seed_competition, seed_translation  # noqa: E402

FORMS = {"overview": [], "detail": ["--detail"], "lang": ["--lang", "kk,be"], "json": ["--json"],
         "comp": ["--comp", "competition-number-05-with-a-rather-long-kaggle-slug"]}
# CPU time is what a change to the command moves; wall time also carries whatever else the machine is doing.
PULLED = "2026-11-23T12:00:00+00:00"


def build(project: Path) -> None:
    """The project: config and prompts copied from the repository, the store seeded as described above."""
    shutil.copy(ROOT / "curate.toml", project / "curate.toml")
    shutil.copytree(ROOT / "prompts", project / "prompts")
    settings = load_settings(project / "curate.toml")
    with Store(settings.path("store")) as store:
        for number in range(24):
            slug = f"competition-number-{number:02d}-with-a-rather-long-kaggle-slug"
            seed_competition(store, slug)
            store.set_status(slug, "ingest", "done", "3 notebooks")
            store.set_status(slug, "describe", "done", "grade C")
            store.set_status(slug, "tag", "done", "data science")
            for language in settings.project.targets:
                flagged = language == "be" and number % 5 == 0
                pushed = []
                for row, (field, text) in enumerate(KK.items()):
                    translation = seed_translation(store, slug, field, language, text,
                                                   failed=("length",) if flagged else ())
                    key, digest = item_id(slug, field, language), text_hash(text, ORIGINALS[field])
                    pushed.append(PushedRow(language=language, annotator="ann", key=key, item_id=key, sheet="book.xlsx",
                                            tab=field, row=number + 2, translation_hash=digest, text=text,
                                            original=translation.source_text))
                    answer = (number + row) % 3
                    if answer:
                        store.add_verdict(Verdict(
                            item_id=key, competition=slug, field=field, language=language, annotator="ann",
                            verdict="YES and YES" if answer == 1 or number % 4 else "NO and YES",
                            own_version=text + " (fixed)" if answer == 2 and number % 4 == 0 and row else "",
                            translation=text, translation_hash=digest, pulled_at=PULLED))
                    if answer and number % 3 == 0:  # a second annotator on every third competition
                        store.add_verdict(Verdict(
                            item_id=key, competition=slug, field=field, language=language, annotator="second",
                            verdict="YES and YES" if row else "YES and NO", translation=text, translation_hash=digest,
                            pulled_at=PULLED))
                store.save_pushed_rows(pushed)
                store.set_status(slug, f"translate:{language}", "needs_human" if flagged else "done",
                                 "description: much shorter than the English" if flagged else "3 fields")
        for language in settings.project.targets[::2]:
            merge_language(store, language)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dump", type=Path, help="write each form's output to DIR/<form>.txt")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        build(project)
        os.chdir(project)
        for form, options in FORMS.items():
            times, cpu, output = [], [], ""
            for _ in range(args.repeat):
                start, start_cpu = time.perf_counter(), time.process_time()
                result = runner.invoke(app, ["status", *options], env={"COLUMNS": "100"})
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                output = result.output
                if result.exit_code:
                    raise SystemExit(f"status {' '.join(options)} exited {result.exit_code}:\n{output}")
            print(f"status {' '.join(options) or '(overview)':24} wall median {statistics.median(times) * 1000:6.1f} ms, "
                  f"CPU median {statistics.median(cpu) * 1000:6.1f} ms (min {min(cpu) * 1000:.1f}; {args.repeat} runs, "
                  f"{len(output.splitlines())} lines)")
            if args.dump:
                args.dump.mkdir(parents=True, exist_ok=True)
                (args.dump / f"{form}.txt").write_text(output, encoding="utf-8")
        work(project, args.repeat)


def work(project: Path, repeat: int) -> None:
    """What one report costs, in figures other processes on the machine do not move: the SQL statements it runs;
    then the CPU time of its review section alone."""
    from curation import status

    settings = load_settings(project / "curate.toml")
    with Store(settings.path("store")) as store:
        statements = []
        store.db.set_trace_callback(statements.append)
        report = status.build_status(store, settings, settings.project.languages)
        report.to_json()
        store.db.set_trace_callback(None)
        print(f"one report (build + --json): {len(statements)} SQL statements")
        context = status.StatusContext(store, settings, settings.project.languages)
        review = next(fn for fn in status._sections if fn.__module__ == "curation.review.status_section")
        cpu = []
        for _ in range(repeat):
            start = time.process_time()
            review(context)
            cpu.append(time.process_time() - start)
        print(f"review section: CPU median {statistics.median(cpu) * 1000:.1f} ms (min {min(cpu) * 1000:.1f})")


if __name__ == "__main__":
    main()
