"""Catch rate per defect class and language, false alarms, time per text and memory of the translation checks.

Runs every check on the seeded-error suite (tests/checks/seeded/: correct benchmark texts in the 12 target
languages and broken versions of them) and on the hand-written correct sentences of tests/checks/sentences.json,
then prints:
- a table of catch rates, defect class x language (a broken text counts as caught when any check fails it);
- the false-alarm rate: correct texts any check fails, over the suite and the hand-written sentences;
- the median and 95th-percentile milliseconds to check one text, and the process's peak resident memory.

    python scripts/bench_translation_checks.py            # the table
    python scripts/bench_translation_checks.py --misses   # ... and every missed defect and false alarm
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from curation.checks.translation import check_translation, clear_caches  # noqa: E402
from curation.config import Settings  # noqa: E402
from tests.checks.seeded import DEFECTS, LANGUAGES, load_cases  # noqa: E402


def _sentences() -> list[tuple[str, str, str, tuple[str, ...]]]:
    """(language, source, translation, names) of every hand-written correct sentence."""
    data = json.loads((ROOT / "tests" / "checks" / "sentences.json").read_text(encoding="utf-8"))
    return [(language, data["sources"][key], text, tuple(data["names"]))
            for language, items in data["translations"].items() for key, text in items.items()]


def _rate(hit: int, total: int) -> str:
    return f"{hit / total:6.1%}" if total else "     –"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="print every missed defect and every false alarm")
    args = parser.parse_args()
    settings = Settings()
    timings: list[float] = []

    def failures(source: str, translation: str, language: str, names: tuple[str, ...] = ()) -> list:
        clear_caches()  # each text timed as a new one: the suite's variants share most of their sentences
        start = time.perf_counter()
        results = check_translation(source, translation, language, settings, names)
        timings.append((time.perf_counter() - start) * 1000)
        return [result for result in results if not result.passed]

    caught: dict[tuple[str, str], int] = defaultdict(int)
    broken: dict[tuple[str, str], int] = defaultdict(int)
    alarms, correct, misses = 0, 0, []
    for case in load_cases():
        failed = failures(case.source, case.translation, case.language)
        if case.defect is None:
            correct += 1
            alarms += bool(failed)
            if failed:
                misses.append(f"false alarm  {case.language} {case.text_id}: "
                              + "; ".join(f"{r.name}: {r.detail}" for r in failed))
            continue
        broken[case.defect, case.language] += 1
        caught[case.defect, case.language] += bool(failed)
        if not failed:
            misses.append(f"missed  {case.defect:<18} {case.language} {case.text_id} ({case.note}): "
                          f"{case.translation[:90]!r}")
    sentence_alarms = 0
    sentences = _sentences()
    for language, source, text, names in sentences:
        failed = failures(source, text, language, names)
        sentence_alarms += bool(failed)
        if failed:
            misses.append(f"false alarm  {language} (sentences.json): "
                          + "; ".join(f"{r.name}: {r.detail}" for r in failed))

    print("catch rate per defect class x language (broken texts any check fails)\n")
    print(f"{'class':<19}" + "".join(f"{language:>7}" for language in LANGUAGES) + f"{'all':>8}{'n':>6}")
    for defect in DEFECTS:
        row = "".join(_rate(caught[defect, language], broken[defect, language]).rjust(7) for language in LANGUAGES)
        hit = sum(caught[defect, language] for language in LANGUAGES)
        total = sum(broken[defect, language] for language in LANGUAGES)
        print(f"{defect:<19}{row}{_rate(hit, total):>8}{total:>6}")
    everything = correct + len(sentences)
    print(f"\nfalse alarms: {alarms}/{correct} seeded-suite correct texts ({_rate(alarms, correct).strip()}), "
          f"{sentence_alarms}/{len(sentences)} hand-written sentences ({_rate(sentence_alarms, len(sentences)).strip()}); "
          f"overall {alarms + sentence_alarms}/{everything} ({_rate(alarms + sentence_alarms, everything).strip()})")
    timings.sort()
    p95 = timings[int(0.95 * (len(timings) - 1))]
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux
    print(f"time per text: median {statistics.median(timings):.1f} ms, p95 {p95:.1f} ms, first {max(timings):.0f} ms "
          f"(models load once) over {len(timings)} texts; peak resident memory {peak_mb:.0f} MB")
    if args.misses:
        print()
        print("\n".join(misses))


if __name__ == "__main__":
    main()
