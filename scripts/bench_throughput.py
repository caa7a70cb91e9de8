"""Throughput of a limit-bound `curate run`: how close the whole run comes to the provider's requests-per-minute limit.

    python scripts/bench_throughput.py [--competitions 24] [--rpm 600] [--latency 0.3] [--rounds 1] [--outline]

Builds a throwaway project of `--competitions` competitions, every role on one provider limited to `--rpm`
requests a minute (tokens far from their limit), and runs the real `curate run --yes` in a subprocess, as a curator
would, against the fake LLM server (tests/fakes/llm_server.py) answering each request after `--latency` seconds.

The texts are the hand-written ones of tests/checks/sentences.json, so the fake translator answers with real
translations into all 12 targets and every automatic check, adequacy included, runs as on a real run's answers:
each description is three of the four English task paragraphs in its own order, each data card the two data cards
with the passenger counts changed, so no two competitions share a text (translation memory saves no request).

Prints the requests the server answered, the wall time of `curate run` (process start to exit), calls ÷ RPM
(the least time the limit allows), their ratio and the achieved share of the limit; then where the rest went:
before the first request (start, imports, ingest), after the last answer (the last sheets, exit), the longest
gaps between requests in between, and when the requests of each kind (describe/score/tag, translate) came.
`--outline` runs with `[outline] enabled = true` (K candidates and a judge per competition, answered by the tests'
TaskWriter) and says how many competitions got an outline.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from curation.checks.masking import mask_identifiers, placeholder  # noqa: E402
from curation.languages import LANGUAGES  # noqa: E402
from curation.store import Store  # noqa: E402
from tests.fakes.llm_server import FakeLLMServer, Request  # noqa: E402
from tests.stages.scripted_models import TaskWriter  # noqa: E402

MODEL = "openai:gpt-5.5-2026-04-23"
SENTENCES = json.loads((REPO / "tests" / "checks" / "sentences.json").read_text(encoding="utf-8"))
PARAGRAPHS = ("titanic_description", "house_description", "tweets_description", "bikes_instruction")
BY_NAME = {language.english: code for code, language in LANGUAGES.items()}
SAMPLE = REPO / "data" / "sample" / "titanic"  # notebooks and grading block of every copy
NAMES = ("PassengerId", "Survived")  # the grading block's columns: protected, as the translate stage protects them


def texts(number: int, language: str | None) -> dict[str, str]:
    """Competition `number`'s description, data card and domain in English (None) or a target language."""
    pick = SENTENCES["sources"] if language is None else SENTENCES["translations"][language]
    order = list(itertools.permutations(PARAGRAPHS, 3))[number % 24]
    card = pick["titanic_data_card"].replace("891", str(891 + number)).replace("418", str(418 + number))
    return {"description": "\n\n".join(pick[key] for key in order),
            "data_card": card + "\n\n" + pick["digits_data_card"], "domain": pick["domain_data_science"]}


def build_project(root: Path, competitions: int, rpm: int, outline: bool = False) -> "Model":
    """The project, and the fake model that describes its competitions and translates their texts."""
    for folder in ("prompts", "cards"):
        shutil.copytree(REPO / folder, root / folder)
    answers: dict[tuple[str, str], str] = {}
    descriptions: dict[str, str] = {}
    for number in range(competitions):
        slug = f"task-{number:02d}"
        target = root / "data" / "competitions" / slug
        shutil.copytree(SAMPLE, target)
        meta = yaml.safe_load((target / "competition.yaml").read_text(encoding="utf-8"))
        meta.update(competition=slug, comp_name=f"Task {number}")
        (target / "competition.yaml").write_text(yaml.safe_dump(meta, allow_unicode=True), encoding="utf-8")
        english = texts(number, None)
        descriptions[meta["comp_name"]] = english["description"]
        (target / "data_card.md").write_text(english["data_card"] + "\n", encoding="utf-8")
        names = tuple(sorted(set(NAMES) | set(re.findall(r"`([^`\n]+)`", english["data_card"]))))
        for language in SENTENCES["translations"]:
            for field, translation in texts(number, language).items():
                masked = mask_identifiers(english[field], () if field == "domain" else names)
                for index, span in enumerate(masked.spans, start=1):
                    translation = translation.replace(span, placeholder(index), 1)
                answers[(language, masked.text)] = translation
    text = (REPO / "curate.toml").read_text(encoding="utf-8")
    text = text.replace('competitions = "data/sample"', 'competitions = "data/competitions"')
    # Every role on one provider, so one limiter paces the whole run and calls ÷ RPM is its least possible time.
    text = re.sub(r'(?m)^(\w+) = "anthropic:[^"]+"$', rf'\1 = "{MODEL}"', text)
    text = re.sub(r"(?m)^requests_per_minute = .*$", f"requests_per_minute = {rpm}", text)
    text = re.sub(r"(?m)^tokens_per_minute = .*$", "tokens_per_minute = 100000000", text)
    assert "adequacy = true" in text  # measured with the check on, as a real run is
    if outline:
        text = text.replace("[outline]\nenabled = false", "[outline]\nenabled = true")
    (root / "curate.toml").write_text(text, encoding="utf-8")
    return Model(descriptions, answers)


class Model:
    """describe/score/tag as the tests' TaskWriter (grade C at once); a translation from the hand-written ones."""

    def __init__(self, descriptions: dict[str, str], answers: dict[tuple[str, str], str]):
        self.writer = TaskWriter(first=descriptions, domains={})
        self.answers = answers
        self.unknown = 0

    def __call__(self, request: Request):
        found = re.match(r"Translate this .*? into (\w+)\.", request.user_text)
        if not found:
            return self.writer(request)
        language = BY_NAME[found.group(1)]
        masked = re.findall(r"<<<\n(.*?)\n>>>", request.user_text, re.DOTALL)[-1]
        if (language, masked) not in self.answers:
            self.unknown += 1
        return self.answers.get((language, masked), masked)


def one_run(args: argparse.Namespace) -> dict:
    """Build a fresh project, run `curate run --yes` in it, and return the figures."""
    curate = Path(sys.executable).with_name("curate")
    with tempfile.TemporaryDirectory(prefix="bench-throughput-") as scratch, \
            FakeLLMServer(latency=args.latency) as server:
        project = Path(scratch)
        model = build_project(project, args.competitions, args.rpm, args.outline)
        server.respond_with(model)
        env = {key: value for key, value in os.environ.items() if key not in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY")}
        env.update(OPENAI_BASE_URL=server.openai_base_url, ANTHROPIC_BASE_URL=server.anthropic_base_url,
                   CURATE_PROGRESS_SECONDS="3600", COLUMNS="120")
        env["PYTHONUNBUFFERED"] = "1"  # each line as it is printed, to time the stages by their headings
        started = time.monotonic()
        profile = [sys.executable, "-m", "cProfile", "-o", str(args.profile.resolve())] if args.profile else []
        process = subprocess.Popen([*profile, str(curate), "run", "--yes"], cwd=project, env=env, text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        lines = [(time.monotonic() - started, line.rstrip("\n")) for line in process.stdout]
        exit_code = process.wait()
        ended = time.monotonic()
        if args.verbose:
            print("\n".join(f"{at:6.1f} {line}" for at, line in lines))
        summaries = [line.strip() for _, line in lines if " done, " in line]
        arrivals = sorted(request.received_at for request in server.requests)
        # A stage starts at its heading ("──── describe ────"); what it asked is the requests until the next one.
        headings = [(at, name) for at, line in lines if (name := line.strip("─ ")) and line.startswith("──")]
        stages = []
        for (at, name), (until, _) in zip(headings, headings[1:] + [(ended - started, "")]):
            asked = [t - started for t in arrivals if at <= t - started < until]
            stages.append((name, at, until, len(asked), asked[0] if asked else None, asked[-1] if asked else None))
        kinds: dict[str, list[float]] = {}  # the requests of each kind: describe, score and tag, or translate
        for request in server.requests:
            kind = ("translate" if request.user_text.startswith("Translate this") else "outline, outline_judge"
                    if request.system_text.startswith(("You turn the code", "You review solution outlines"))
                    else "describe, score, tag")
            kinds.setdefault(kind, []).append(request.received_at - started)
        with Store(project / "data" / "curation.sqlite") as store:
            translations = store.translations()
            outlines = store.outlines()
        if args.keep:
            shutil.copytree(project, args.keep, dirs_exist_ok=True)
    gaps = sorted((b - a, a - started) for a, b in zip(arrivals, arrivals[1:]))[-3:][::-1]
    return {"exit": exit_code, "stages": stages, "kinds": kinds, "unknown": model.unknown, "calls": len(arrivals), "wall": ended - started, "summaries": summaries,
            "translations": len(translations), "flagged": sum(t.flagged for t in translations),
            "outlines": len(outlines), "outline_choices": sorted({o.choice() for o in outlines}),
            "before": arrivals[0] - started if arrivals else 0.0,
            "after": ended - arrivals[-1] if arrivals else 0.0, "gaps": gaps}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--competitions", type=int, default=24)
    parser.add_argument("--rpm", type=int, default=600, help="requests_per_minute of the provider (default 600)")
    parser.add_argument("--latency", type=float, default=0.3, help="seconds per answer (default 0.3)")
    parser.add_argument("--rounds", type=int, default=1, help="runs, each in a fresh project; the median is quoted")
    parser.add_argument("--verbose", action="store_true", help="print what `curate run` printed")
    parser.add_argument("--profile", type=Path, help="run `curate run` under cProfile, its statistics written here")
    parser.add_argument("--keep", type=Path, help="copy the finished project here (to profile a stage in it)")
    parser.add_argument("--outline", action="store_true", help="with [outline] enabled = true")
    args = parser.parse_args()

    runs = [one_run(args) for _ in range(args.rounds)]
    for run in runs:
        bound = run["calls"] / args.rpm * 60
        print(f"calls {run['calls']}, wall {run['wall']:.1f} s, calls ÷ RPM {bound:.1f} s, "
              f"ratio {run['wall'] / bound:.3f}, achieved {bound / run['wall']:.3f} of the limit "
              f"(exit {run['exit']}; {run['unknown']} translate requests had no scripted answer)")
        print(f"  before the first request {run['before']:.1f} s, after the last {run['after']:.1f} s; longest gaps "
              + ", ".join(f"{gap:.2f} s at {at:.0f} s" for gap, at in run["gaps"]))
        print(f"  {run['translations']} translations, {run['flagged']} flagged by the automatic checks")
        if args.outline:
            print(f"  {run['outlines']} outlines ({', '.join(run['outline_choices'])})")
        for name, at, until, asked, first, last in run["stages"]:
            print(f"  {name:<12} {at:6.1f}-{until:6.1f} s: {asked:4d} requests"
                  + (f", first at {first:6.1f} s, last at {last:6.1f} s" if asked else ""))
        for kind, times in run["kinds"].items():
            print(f"  {kind + ' requests':<28} {len(times):4d}, first at {min(times):6.1f} s, last at {max(times):6.1f} s")
        for line in run["summaries"]:
            print(f"  {line}")
    if len(runs) > 1:
        ratio = statistics.median(run["wall"] / (run["calls"] / args.rpm * 60) for run in runs)
        print(f"median of {len(runs)} runs: ratio {ratio:.3f}, achieved {1 / ratio:.3f} of the limit")


if __name__ == "__main__":
    main()
