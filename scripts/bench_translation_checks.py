"""How the translation checks do on calibration material and on a held-out set, side by side.

Calibration (the checks were tuned on it): the seeded-error suite (tests/checks/seeded/), the hand-written sentences
(tests/checks/sentences.json) and the natural calibration sets (tests/checks/natural/calibration/: the sample
project's texts, correct translations phrased as translators phrase them, hand-written broken ones; and
calibration_extra/ and calibration_hard/: more texts in the held-out set's style; calibration_3a/ … _6k/: sets written
by helpers that had not seen the checks, listed in tests/checks/natural/__init__.py, SURFACE_CALIBRATION), and the
meaning calibration sets
(meaning_calibration/, meaning_calibration_2a/ … _2d/ and _3a/ … _3d/: fluent translations that keep every token and change the
meaning, MEANING.md).
Held-out (never tuned on): tests/checks/natural/heldout/ and meaning_heldout/, written by helpers that never saw the
checks (`--second-heldout` … `--twelfth-heldout` read the second to twelfth held-out set instead;
`--surface-heldout DIR[,DIR...]` and `--meaning-heldout DIR[,DIR...]` read any other folders).

For each side it prints the catch rate per defect class x language, the surface classes (FORMAT.md) and then the
meaning classes (a broken text counts as caught when any check fails it), the false alarms per language (a correct
text any check fails: all sets, then the surface sets and the meaning set apart) with the checks that raised them and
the kinds of finding they made, in the checks' own words and none of the texts' ("meaning negation", "length one word
for": see finding_kinds), and the median and 95th-percentile milliseconds per text per language, with the median of
the CPU time the process spent on a text beside them (other work on the machine raises the wall-clock figures and not
the CPU ones; a slower host, as this virtual machine has between runs, raises both); then the peak resident memory of
the process.
A change that raises the calibration figures and lowers the held-out ones is not an improvement.

    python scripts/bench_translation_checks.py                     # both sides
    python scripts/bench_translation_checks.py --misses calibration   # ... and every miss and false alarm there
    python scripts/bench_translation_checks.py --only calibration --apart   # ... and each meaning set's and the third surface set's table apart
    python scripts/bench_translation_checks.py --only heldout --misses heldout   # for a report, not for tuning
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from curation.checks.adequacy import english_side  # noqa: E402
from curation.checks.encoders import encoder_name, vectors  # noqa: E402
from curation.checks.translation import check_translation, clear_caches  # noqa: E402
from curation.config import Settings  # noqa: E402
from tests.checks import natural, seeded  # noqa: E402

LANGUAGES = natural.LANGUAGES


@dataclass(frozen=True)
class Text:
    """One translation to check, from any of the sets."""

    origin: str  # seeded | sentences | natural
    language: str
    text_id: str
    source: str
    translation: str
    names: tuple[str, ...]
    defect: str | None
    note: str = ""
    set: str = ""


def calibration() -> list[Text]:
    """The seeded suite, the hand-written sentences, the natural surface calibration sets and the meaning ones."""
    texts = [Text("seeded", c.language, c.text_id, c.source, c.translation, (), c.defect, c.note)
             for c in seeded.load_cases()]
    data = json.loads((ROOT / "tests" / "checks" / "sentences.json").read_text(encoding="utf-8"))
    texts += [Text("sentences", language, key, data["sources"][key], text, tuple(data["names"]), None)
              for language, items in data["translations"].items() for key, text in items.items()]
    return (texts + [text for name in natural.SURFACE_CALIBRATION for text in natural_texts(name)]
            + [text for name in natural.MEANING_CALIBRATION for text in natural_texts(name, "meaning")])


def heldout(meaning_folders: str, surface_folders: str = "heldout") -> list[Text]:
    """The held-out sets: the surface ones and the meaning ones (folders separated by commas) whose folder exists."""
    texts = [text for surface_folder in surface_folders.split(",") for text in natural_texts(surface_folder)]
    for meaning_folder in meaning_folders.split(","):
        if (natural.folder(meaning_folder) / "sources.json").exists():
            texts += natural_texts(meaning_folder, "meaning")
    return texts


def natural_texts(name: str, origin: str = "natural") -> list[Text]:
    return [Text(origin, c.language, c.text_id, c.source, c.translation, c.names, c.defect,
                 " ".join(c.variation) or c.note, name) for c in natural.load(name)]


@dataclass
class Figures:
    caught: Counter = field(default_factory=Counter)
    broken: Counter = field(default_factory=Counter)
    # by language, and by (family, language): family "meaning" for the meaning sets, else "surface"
    alarms: Counter = field(default_factory=Counter)
    correct: Counter = field(default_factory=Counter)
    alarm_checks: Counter = field(default_factory=Counter)
    alarm_findings: Counter = field(default_factory=Counter)  # "meaning negation", "length one word for", ...
    timings: dict = field(default_factory=lambda: defaultdict(list))  # language -> wall-clock ms of each text
    # language -> CPU ms of each text (every thread of the process: lingua's, the encoders')
    cpu: dict = field(default_factory=lambda: defaultdict(list))
    misses: list = field(default_factory=list)


def _translation_as_new(text: Text) -> None:
    """Forget the vectors of the translation's sentences (and USE's feature rows of them, which it derives other texts
    from), as a run meets each answer: new. The English ones stay, as in a run (one English text, 12 languages, every
    retry). A text of a set shares most sentences with the other versions of its English text (the correct one and
    each broken one), so before this the encoder was timed on the first version of each and the median missed most of
    its cost (e5 languages: 77-85 ms against 160-270 ms)."""
    name = encoder_name(text.language)
    if name:  # (a tag's were never embedded: forgetting them is nothing)
        translated = english_side(text.translation, text.language, text.names, translated=True)
        # e5's languages have the sentences USE is sure of paired by USE: its vectors of them go too
        for encoder in {name, "use"}:
            vectors.forget(encoder, translated)


def run(texts: list[Text], settings: Settings) -> Figures:
    figures = Figures()
    for text in texts:
        clear_caches()  # each text read as a new one ...
        _translation_as_new(text)
        start, start_cpu = time.perf_counter(), time.process_time()
        results = check_translation(text.source, text.translation, text.language, settings, text.names)
        figures.timings[text.language].append((time.perf_counter() - start) * 1000)
        figures.cpu[text.language].append((time.process_time() - start_cpu) * 1000)
        failed = [result for result in results if not result.passed]
        where = f"{text.language} {text.origin}/{text.text_id}"
        if text.defect is None:
            family = "meaning" if text.origin == "meaning" else "surface"
            figures.correct[text.language] += 1
            figures.correct[family, text.language] += 1
            if failed:
                figures.alarms[text.language] += 1
                figures.alarms[family, text.language] += 1
                figures.alarm_checks.update(result.name for result in failed)
                figures.alarm_findings.update({kind for result in failed for kind in finding_kinds(result)})
                figures.misses.append(f"false alarm  {where} ({text.note}): "
                                      + "; ".join(f"{r.name}: {r.detail}" for r in failed))
            continue
        figures.broken[text.defect, text.language] += 1
        if failed:
            figures.caught[text.defect, text.language] += 1
        else:
            figures.misses.append(f"missed  {text.defect:<18} {where} ({text.note}): {text.translation[:100]!r}")
    return figures


# The labels the checks put before a finding (curation/checks/meaning.py, adequacy.py, roles.py, glossary.py), at the
# start of a detail or after "; ", outside quotes: only these, should a quote's end be misread.
_LABEL = re.compile(r"(?:^|; )(negation|direction|comparison|unit|condition|added|omitted|role|term): ")
_WHERE = re.compile(r"^(?:English )?line \d+ ")
# A quoted text, as the checks quote (Python's repr): taken out before the labels are looked for.
_REPR = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def finding_kinds(result) -> list[str]:
    """What kind of finding a failed check's detail holds, in words of the check's own and none of the text: its
    labels ("meaning negation", "adequacy omitted"), or the first ASCII words of a detail without one, numbers skipped,
    up to its first quote or other letters ("length one word for"), or the check's name. A held-out set's false alarms
    can so be told apart by source without reading any of its text."""
    labels = [f"{result.name} {label}" for label in _LABEL.findall(_REPR.sub("''", result.detail))]
    if labels:
        return list(dict.fromkeys(labels))
    lead = re.split(r"['\"«“‘]|[^\x00-\x7f]", _WHERE.sub("", result.detail), maxsplit=1)[0]
    return [" ".join([result.name, *re.findall(r"\b[a-z]+\b", lead)[:3]])]


def merged(parts) -> Figures:
    total = Figures()
    for part in parts:
        for name in ("caught", "broken", "alarms", "correct", "alarm_checks", "alarm_findings"):
            getattr(total, name).update(getattr(part, name))
        for name in ("timings", "cpu"):
            for language, timings in getattr(part, name).items():
                getattr(total, name)[language].extend(timings)
        total.misses.extend(part.misses)
    return total


def _rate(hit: int, total: int) -> str:
    return f"{hit / total:.0%}" if total else "–"


def table(title: str, figures: Figures) -> None:
    print(f"\n== {title}: catch rate per defect class x language (n = broken texts)\n")
    print(f"{'class':<19}" + "".join(f"{language:>6}" for language in LANGUAGES) + f"{'all':>7}{'n':>6}")
    for defect in (*natural.DEFECTS, *natural.MEANING_DEFECTS):
        total = sum(figures.broken[defect, language] for language in LANGUAGES)
        if not total:
            continue
        if defect == natural.MEANING_DEFECTS[0]:
            print("meaning classes:")
        row = "".join(_rate(figures.caught[defect, language], figures.broken[defect, language]).rjust(6)
                      for language in LANGUAGES)
        hit = sum(figures.caught[defect, language] for language in LANGUAGES)
        print(f"{defect:<19}{row}{_rate(hit, total):>7}{total:>6}")
    for label, key in (("false alarms", None), ("  surface sets", "surface"), ("  meaning set", "meaning")):
        alarms = [figures.alarms[(key, l) if key else l] for l in LANGUAGES]
        correct = [figures.correct[(key, l) if key else l] for l in LANGUAGES]
        if not sum(correct):
            continue
        print(f"{label:<19}" + "".join(_rate(a, c).rjust(6) for a, c in zip(alarms, correct))
              + f"{_rate(sum(alarms), sum(correct)):>7}{sum(correct):>6}")
        print(f"{'    (count)':<19}" + "".join(f"{a:>6}" for a in alarms))
    medians = {l: statistics.median(figures.timings[l]) for l in LANGUAGES if figures.timings[l]}
    print(f"{'median ms / text':<19}" + "".join(f"{medians.get(l, 0):>6.0f}" for l in LANGUAGES))
    p95 = {l: sorted(t)[int(0.95 * (len(t) - 1))] for l, t in figures.timings.items() if t}
    print(f"{'p95 ms / text':<19}" + "".join(f"{p95.get(l, 0):>6.0f}" for l in LANGUAGES))
    cpu = {l: statistics.median(figures.cpu[l]) for l in LANGUAGES if figures.cpu[l]}
    print(f"{'median CPU ms':<19}" + "".join(f"{cpu.get(l, 0):>6.0f}" for l in LANGUAGES))
    if figures.alarm_checks:
        print("false alarms by check: " + ", ".join(f"{name} {count}" for name, count in figures.alarm_checks.most_common()))
        print("false alarms by finding: " + ", ".join(f"{kind} {count}"
                                                       for kind, count in figures.alarm_findings.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("calibration", "heldout"), help="one side only")
    parser.add_argument("--misses", choices=("calibration", "heldout"), help="print every miss and false alarm of a side")
    parser.add_argument("--apart", action="store_true",
                        help="also a table for each meaning set (the second calibration set's four folders as one) and for "
                             "the third surface calibration set (calibration_3a … _3d as one)")
    for ordinal, (surface, meaning) in natural.HELDOUT_SETS.items():
        parser.add_argument(f"--{ordinal}-heldout", action="store_true",
                            help=f"the held-out side is the {ordinal} held-out set ({surface[0]} … and {meaning[0]} …, "
                                 "tests/checks/natural/__init__.py)")
    parser.add_argument("--surface-heldout", default="heldout", metavar="DIR",
                        help="the surface held-out set's folders, separated by commas (default: "
                             "tests/checks/natural/heldout)")
    parser.add_argument("--meaning-heldout", default="meaning_heldout", metavar="DIR",
                        help="the meaning held-out set's folders, separated by commas (default: "
                             "tests/checks/natural/meaning_heldout)")
    args = parser.parse_args()
    for ordinal, (surface, meaning) in natural.HELDOUT_SETS.items():
        if getattr(args, f"{ordinal}_heldout"):
            args.surface_heldout, args.meaning_heldout = ",".join(surface), ",".join(meaning)
    settings = Settings(root=ROOT)  # the repository's glossary.csv
    sides = {"calibration": calibration, "heldout": lambda: heldout(args.meaning_heldout, args.surface_heldout)}
    started = time.perf_counter()
    for side, texts in sides.items():
        if args.only and side != args.only:
            continue
        texts_of_side = texts()
        groups = defaultdict(list)  # apart, when asked: each meaning set, and the third surface set, named without its letter
        for text in texts_of_side:
            apart = args.apart and (text.origin == "meaning" or re.fullmatch(r"calibration_3[a-z]", text.set))
            groups[re.sub(r"(_\d)[a-z]$", r"\1", text.set) if apart else ""].append(text)
        parts = {group: run(members, settings) for group, members in groups.items()}
        figures = merged(parts.values())
        table(f"{side} ({'tuned on' if side == 'calibration' else 'never tuned on'})", figures)
        for group in sorted(group for group in parts if group):
            table(f"{side}: {group}* alone", parts[group])
        if args.misses == side:
            print()
            print("\n".join(figures.misses))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux
    print(f"\npeak resident memory {peak_mb:.0f} MB (every check's models loaded); {time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
