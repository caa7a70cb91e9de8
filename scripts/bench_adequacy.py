"""Catch and false-alarm rates, time and memory of the adequacy check (curation/checks/adequacy.py).

Material: the correct translations of tests/checks/sentences.json (12 languages; the texts of four words or
more: descriptions and data cards) and the invented sentences and data card lines of
tests/checks/adequacy_cases.json. Corruptions, per correct text:
- added:   each invented sentence appended to the first line and to the last line; for data cards, a line
           about a column the data does not have;
- omitted: each sentence or list item of the translation removed in turn.
False alarms are counted on the correct texts and on the 'restructured' ones of adequacy_cases.json (a
sentence split in two or two merged into one). The seeded-error suite (tests/checks/seeded/) adds its own
correct descriptions and data cards and its "added_content" (invented sentences, clauses, columns) and
"omission" defects.

Prints catch per language for each class, false alarms on the correct texts, the median time to check one
text with the encoders loaded (source vectors cached, as in a run: one English text is checked in 12
languages; the corrupted variants of a text share most of its sentences, so most of these are cache hits), the
median time per new translation (each correct text checked with only its English cached: what every answer of a
run costs), and the process's peak resident memory.

    python scripts/bench_adequacy.py              # the table
    python scripts/bench_adequacy.py --misses     # ... and every miss and false alarm
    python scripts/bench_adequacy.py --calibrate  # per language: the loosest correct pair and the closest added
                                                  # sentence, and the suggested THRESHOLDS
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from curation.checks import adequacy  # noqa: E402
from curation.checks.adequacy import MIN_SOURCE_WORDS, check_adequacy, units, vectors  # noqa: E402
from tests.checks.seeded import load_cases  # noqa: E402

CJK = {"zh", "ja"}


@dataclass(frozen=True)
class Text:
    language: str
    text_id: str
    source: str
    translation: str
    defect: str | None  # None (correct), "added" or "omitted"
    origin: str


def material() -> list[Text]:
    """Every text to check: correct ones and their corruptions, from both suites; tags left out (the check
    does not apply to them)."""
    data = json.loads((ROOT / "tests" / "checks" / "sentences.json").read_text(encoding="utf-8"))
    cases = json.loads((ROOT / "tests" / "checks" / "adequacy_cases.json").read_text(encoding="utf-8"))
    texts = []
    for language, items in data["translations"].items():
        for key, text in items.items():
            source = data["sources"][key]
            if len(source.split()) < MIN_SOURCE_WORDS:
                continue
            texts.append(Text(language, key, source, text, None, "sentences.json"))
            for defect, broken in corruptions(key, text, language, cases).items():
                texts += [Text(language, key, source, bad, defect, "sentences.json") for bad in broken]
    for key, items in cases["restructured"].items():
        texts += [Text(language, key, data["sources"][key], text, None, "restructured")
                  for language, text in items.items()]
    classes = {None: None, "added_content": "added", "omission": "omitted"}
    texts += [Text(case.language, case.text_id, case.source, case.translation, classes[case.defect], "seeded")
              for case in load_cases() if case.defect in classes and case.field != "domain"]
    return texts


def _append(line: str, sentence: str, language: str) -> str:
    return line + ("" if language in CJK else " ") + sentence


def corruptions(key: str, text: str, language: str, cases: dict) -> dict[str, list[str]]:
    """Broken versions of a correct translation per defect class."""
    lines = text.split("\n")
    added = []
    for sentence in cases["added_sentences"][language]:
        first = [i for i, line in enumerate(lines) if line.strip()]
        for where in (first[0], first[-1]):
            changed = list(lines)
            changed[where] = _append(changed[where], sentence, language)
            added.append("\n".join(changed))
    if "data_card" in key:
        added.append("\n".join(lines[:2] + [cases["added_lines"][language]] + lines[2:]))
    omitted = []
    pieces = units(text)
    # Dropping the only sentence leaves an empty text: the length check's "the translation is empty".
    for unit in pieces if len(pieces) > 1 else ():
        line = lines[unit.line - 1]
        rest = line.replace(unit.text, "", 1).strip()
        changed = list(lines)
        if rest and any(char.isalpha() for char in rest):
            changed[unit.line - 1] = rest
        else:
            del changed[unit.line - 1]
        omitted.append("\n".join(changed))
    return {"added": added, "omitted": omitted}


def _pairs(text: Text):
    name = adequacy.encoder_name(text.language)
    source = [unit.plain for unit in units(text.source)]
    translated = [unit.plain for unit in units(text.translation)]
    return name, vectors(name, source), vectors(name, translated)


def calibrate(texts: list[Text]) -> None:
    """Print, per language, the lowest cosine of a correct pair (same number of sentences, in order) and the
    highest of an added sentence to any English one (texts with one sentence more than the source)."""
    correct: dict[str, list[float]] = defaultdict(list)
    added: dict[str, list[float]] = defaultdict(list)
    for text in texts:
        name, source, translated = _pairs(text)
        if text.defect is None and len(source) == len(translated):
            correct[text.language].append(float(min((translated * source).sum(axis=1))))
        elif text.defect == "added" and len(translated) == len(source) + 1:
            added[text.language].append(float(sorted((translated @ source.T).max(axis=1))[0]))
    print(f"{'lang':<5}{'enc':<5}{'loosest correct':>16}{'closest added':>15}{'suggested':>10}{'in use':>8}")
    for language in sorted(correct):
        low, high = min(correct[language]), max(added[language])
        suggested = (low + high) / 2 if high < low else low - adequacy.MARGIN
        print(f"{language:<5}{adequacy.encoder_name(language):<5}{low:>16.3f}{high:>15.3f}{suggested:>10.3f}"
              f"{adequacy.threshold(language):>8.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calibrate", action="store_true", help="print the figures the thresholds come from")
    parser.add_argument("--misses", action="store_true", help="print every miss and false alarm")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of the new-translation timing (default 3)")
    args = parser.parse_args()
    texts = material()
    if args.calibrate:
        calibrate(texts)
        return
    caught: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    alarms: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    times, lines = [], []
    by_encoder: dict[str, list[float]] = defaultdict(list)
    for language in ("ru", "kk"):  # load both encoders first, as a run does on its first text
        check_adequacy("Predict the price of each house.", "Предскажите цену каждого дома.", language)
    for text in texts:
        start = time.perf_counter()
        result = check_adequacy(text.source, text.translation, text.language)
        times.append(time.perf_counter() - start)
        by_encoder[adequacy.encoder_name(text.language)].append(times[-1])
        if text.defect is None:
            alarms[text.origin][1] += 1
            if not result.passed:
                alarms[text.origin][0] += 1
                lines.append(f"false alarm  {text.language} {text.text_id} ({text.origin}): {result.detail}")
            continue
        tally = caught[(text.defect, text.language)]
        tally[1] += 1
        tally[0] += not result.passed
        if result.passed:
            lines.append(f"missed {text.defect} {text.language} {text.text_id} ({text.origin}): "
                         f"{text.translation[-90:]!r}")
    if args.misses:
        print("\n".join(lines) + "\n")
    languages = sorted({text.language for text in texts})
    print(f"adequacy check: {sum(n for _, n in alarms.values())} correct texts, "
          f"{sum(n for _, n in caught.values())} corrupted ones, {len(languages)} languages "
          f"(descriptions and data cards; tags are not aligned)\n")
    print(f"{'class':<9}" + "".join(f"{code:>6}" for code in languages) + f"{'all':>8}")
    for defect in ("added", "omitted"):
        row = [caught[(defect, code)] for code in languages]
        print(f"{defect:<9}" + "".join(f"{hit / n:>6.0%}" if n else "     -" for hit, n in row)
              + f"{sum(h for h, _ in row) / sum(n for _, n in row):>8.1%}")
    print("\nfalse alarms on correct texts:")
    for origin, (hit, n) in alarms.items():
        print(f"  {origin:<16} {hit:>3}/{n}  {hit / n:6.1%}")
    hit, n = sum(h for h, _ in alarms.values()), sum(n for _, n in alarms.values())
    print(f"  {'all':<16} {hit:>3}/{n}  {hit / n:6.1%}")
    print(f"\ntime per checked text (encoders loaded, English vectors cached as in a run): median "
          f"{statistics.median(times) * 1000:.0f} ms, 90th percentile {statistics.quantiles(times, n=10)[-1] * 1000:.0f} ms "
          f"over {len(times)} checks (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    for name, spent in sorted(by_encoder.items()):
        print(f"  {name}: median {statistics.median(spent) * 1000:.0f} ms over {len(spent)} checks")
    fresh = fresh_times([text for text in texts if text.defect is None], args.repeat)
    print(f"time per new translation (the correct texts, {args.repeat} rounds; only the English vectors cached, as "
          f"for each answer in a run):")
    for name, spent in sorted(fresh.items()):
        print(f"  {name}: median {statistics.median(spent) * 1000:.0f} ms, 90th percentile "
              f"{statistics.quantiles(spent, n=10)[-1] * 1000:.0f} ms over {len(spent)} checks")
    print(f"peak resident memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


def fresh_times(texts: list[Text], rounds: int) -> dict[str, list[float]]:
    """Seconds per check of each text as a run meets it: its English sentences cached (the same English comes
    back in every language), the translation's sentences and their variants new."""
    spent: dict[str, list[float]] = defaultdict(list)
    for _ in range(rounds):
        for text in texts:
            name = adequacy.encoder_name(text.language)
            vectors.clear()
            vectors.prefetch(name, adequacy.english_side(text.source, text.language))
            start = time.perf_counter()
            check_adequacy(text.source, text.translation, text.language)
            spent[name].append(time.perf_counter() - start)
    return spent


if __name__ == "__main__":
    main()
