"""Print how long push, re-push and pull take for one annotator's workbook of N competitions (3 rows each).

    python scripts/review_sheet_timing.py [N]

Runs in a temporary project with a seeded store; no network. Every tenth description gets an own version,
so pull runs the language, script and placeholder checks on those.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

import openpyxl

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from curation.config import load_settings  # noqa: E402
from curation.review.backends import backend_for  # noqa: E402
from curation.review.pull import pull  # noqa: E402
from curation.review.push import push  # noqa: E402
from curation.store import Store  # noqa: E402
from tests.review.seeding import KK, seed_competition, seed_translation, with_review  # noqa: E402


def main(count: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        shutil.copy(REPO / "curate.toml", root / "curate.toml")
        settings = with_review(load_settings(root / "curate.toml"), annotators={"kk": ["aigerim"]})
        with Store(settings.path("store")) as store:
            for n in range(count):
                slug = f"competition-{n:04d}"
                seed_competition(store, slug)
                for field, text in KK.items():
                    seed_translation(store, slug, field, "kk", text)
            backend = backend_for(settings)
            started = time.perf_counter()
            [sheet] = push(store, settings, "kk", backend).sheets
            pushed = time.perf_counter()
            push(store, settings, "kk", backend)
            repushed = time.perf_counter()
            book = openpyxl.load_workbook(sheet.ref)
            for tab in ("description", "data_card", "domain"):
                for row in range(2, book[tab].max_row + 1):
                    if book[tab].cell(row, 1).value:
                        fixed = tab == "description" and row % 10 == 0
                        book[tab].cell(row, 5).value = "NO and YES" if fixed else "YES and YES"
                        if fixed:
                            book[tab].cell(row, 6).value = KK[tab] + " Нәтижені мұқият тексеріңіз."
            book.save(sheet.ref)
            filled = time.perf_counter()
            report = pull(store, settings, "kk", backend)
            pulled = time.perf_counter()
    rows = 3 * count
    print(f"{rows} rows: push {pushed - started:.2f} s, re-push (nothing new) {repushed - pushed:.2f} s, "
          f"pull {pulled - filled:.2f} s ({report.verdicts} verdicts, {len(report.problems)} problems)")
    for line in report.problems[:3]:
        print(" ", line)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
