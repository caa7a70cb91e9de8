"""Speed of `curate review push` over a whole project: the first push, a push with nothing new, one new row.

    python scripts/bench_review_push.py [--competitions 24] [--rounds 3] [--profile FILE] [--sheets]

Builds a throwaway project whose store holds `--competitions` competitions, each with an English description and
its description, data card and domain translated into every target language of curate.toml (the hand-written texts
of tests/checks/sentences.json that scripts/bench_throughput.py translates, so rows are as long as real ones), and
the default two annotators per language: with 13 languages, 26 workbooks (24 translation sheets, 2 rubric sheets).
Then it pushes every language with `curation.review.push.push`, as `curate review push` and `curate run` do, and
times three pushes:

  first        every workbook written from nothing
  nothing new  the same push again: no workbook gets a row
  one new row  one Kazakh text retranslated, then every language pushed again

Each round runs in a fresh project; the median of the rounds is printed, with how many workbooks openpyxl parsed
and saved and how many SELECT statements the store ran in each push. `--profile` writes cProfile statistics of the
first push of the last round. `--sheets` pushes to Google Sheets instead, through gspread against the fake Sheets
API of tests/fakes/sheets_api.py (one spreadsheet per language, as the curator shares them), and counts the
requests each push sends.
"""

from __future__ import annotations

import argparse
import cProfile
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import openpyxl

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from bench_throughput import texts  # noqa: E402
from curation.config import load_settings  # noqa: E402
from curation.records import Competition, Description, DomainTag, IngestedCompetition, Translation  # noqa: E402
from curation.review.backends import backend_for  # noqa: E402
from curation.review.push import push  # noqa: E402
from curation.store import Store  # noqa: E402

STEPS = ("first", "nothing new", "one new row")


class Counted:
    """Workbooks parsed and saved by openpyxl, and SELECT statements the store ran, since the last `take`."""

    def __init__(self, store: Store):
        self.parsed = self.saved = self.queries = 0
        load, save = openpyxl.load_workbook, openpyxl.Workbook.save

        def counted_load(*args, **kwargs):
            self.parsed += 1
            return load(*args, **kwargs)

        def counted_save(book, *args, **kwargs):
            self.saved += 1
            return save(book, *args, **kwargs)

        openpyxl.load_workbook, openpyxl.Workbook.save = counted_load, counted_save
        store.db.set_trace_callback(self._statement)

    def _statement(self, sql: str) -> None:
        self.queries += sql.lstrip()[:6].upper() == "SELECT"

    def take(self) -> tuple[int, int, int]:
        figures = (self.parsed, self.saved, self.queries)
        self.parsed = self.saved = self.queries = 0
        return figures


def seed(store: Store, languages: list[str], source: str, competitions: int) -> None:
    """Competitions with English texts and their translations, as describe, tag and translate leave them."""
    for number in range(competitions):
        slug = f"task-{number:02d}"
        english = texts(number, None)
        store.save_ingested(IngestedCompetition(competition=Competition(
            competition=slug, comp_name=f"Task {number}", comp_type="Playground", data_type="tabular",
            metric="Accuracy", data_card=english["data_card"],
            competition_link=f"https://www.kaggle.com/competitions/{slug}")))
        store.save_description(Description(competition=slug, text=english["description"], provenance="machine",
                                           grade="C"))
        store.save_domain(DomainTag(competition=slug, domain=english["domain"]))
        for language in languages:
            if language == source:
                continue
            for field, text in texts(number, language).items():
                store.save_translation(Translation(
                    competition=slug, field=field, language=language, source_text=english[field],
                    source_hash=f"src-{field}", text=text, model="openai:gpt-5.5", provenance="machine"))


def push_all(store: Store, settings, backend) -> tuple[int, int, int]:
    """Every language pushed; (sheets pushed to, sheets that got rows, rows written)."""
    sheets = [sheet for language in settings.project.languages
              for sheet in push(store, settings, language, backend).sheets]
    return (len({sheet.ref for sheet in sheets}), sum(1 for s in sheets if s.added or s.updated or s.restored),
            sum(s.added + s.updated + s.restored for s in sheets))


def sheets_backend(settings):
    """Settings and a backend pushing to one fake Google spreadsheet per language; and the fake, which logs requests."""
    import gspread

    from curation.review.sheets_backend import SheetsBackend
    from tests.fakes.sheets_api import FakeServiceAccount, FakeSheetsAPI
    from tests.review.seeding import with_review

    api = FakeSheetsAPI()
    for language in settings.project.languages:
        api.create_spreadsheet(f"sheet-{language}", f"review {language}")
    settings = with_review(settings, backend="sheets",
                           spreadsheets={language: f"sheet-{language}" for language in settings.project.languages})
    credentials = FakeServiceAccount()
    client = gspread.Client(auth=credentials, session=api.session(credentials))
    return settings, SheetsBackend(client, settings, service_account=credentials.service_account_email), api


def one_round(competitions: int, profile: Path | None, sheets: bool) -> dict[str, tuple]:
    with tempfile.TemporaryDirectory(prefix="bench-review-push-") as scratch:
        root = Path(scratch)
        shutil.copy(REPO / "curate.toml", root / "curate.toml")
        settings = load_settings(root / "curate.toml")
        figures: dict[str, tuple] = {}
        with Store(settings.path("store")) as store:
            seed(store, settings.project.languages, settings.project.source_language, competitions)
            api = None
            if sheets:
                settings, backend, api = sheets_backend(settings)
            else:
                backend = backend_for(settings)
            counted = Counted(store)
            for step in STEPS:
                if step == "one new row":
                    kk = texts(1, "kk")
                    store.save_translation(Translation(
                        competition="task-00", field="domain", language="kk", source_text=texts(0, None)["domain"],
                        source_hash="src-domain", text=kk["domain"] + " (қайта)", model="openai:gpt-5.5",
                        provenance="retranslated", round=2))
                counted.take()
                requests = len(api.calls) if api else 0
                profiler = cProfile.Profile() if profile and step == "first" else None
                started = time.perf_counter()
                if profiler:
                    profiler.enable()
                written = push_all(store, settings, backend)
                if profiler:
                    profiler.disable()
                    profiler.dump_stats(profile)
                figures[step] = (time.perf_counter() - started, *written, *counted.take(),
                                 len(api.calls) - requests if api else 0)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--competitions", type=int, default=24)
    parser.add_argument("--rounds", type=int, default=3, help="fresh projects; the median is printed (default 3)")
    parser.add_argument("--profile", type=Path, help="write cProfile statistics of the first push here")
    parser.add_argument("--sheets", action="store_true", help="push to the fake Google Sheets API instead of .xlsx")
    args = parser.parse_args()
    runs = [one_round(args.competitions, args.profile, args.sheets) for _ in range(args.rounds)]
    kind = "spreadsheets (fake Google Sheets)" if args.sheets else "workbooks"
    print(f"{args.competitions} competitions, {runs[0]['first'][1]} {kind}, {args.rounds} rounds (median):")
    for step in STEPS:
        seconds = statistics.median(run[step][0] for run in runs)
        _, _, sheets, rows, parsed, saved, queries, requests = runs[-1][step]
        where = f"{requests} requests" if args.sheets else f"openpyxl parsed {parsed}, saved {saved}"
        print(f"  {step:<12} {seconds:6.2f} s  ({sheets} sheets got {rows} rows; {where}; {queries} store reads)  "
              f"[{', '.join(f'{run[step][0]:.2f}' for run in runs)}]")


if __name__ == "__main__":
    main()
