"""`curate results`: graded runs of agents on a release -> classes, reports/results.md, plots and a per-run table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from curation.cli.base import ConfigOption, MaxCostOption, app, complain, fail, open_store, say, settings_from
from curation.cli.llm import cannot_run
from curation.excerpt import plural


@app.command()
def results(
    runs: Annotated[list[Path] | None, typer.Argument(
        metavar="RUNS...", help="Run folders as the grading harness writes them, an agent's folder of them, a folder "
                                "of agents' folders, or CSV files (comp_id, language, agent, score[, status, error]); "
                                "none: report the runs stored before.")] = None,
    release: Annotated[str | None, typer.Option(
        "--release", metavar="vX.Y.Z", help="The release to join the runs with, as `curate publish` published it "
                                            "(default: the newest).")] = None,
    from_folder: Annotated[Path | None, typer.Option(
        "--from", metavar="PATH", help="A release folder to join with instead (a checkout of a release, or "
                                       "the harness's competitions/ folder).")] = None,
    agent: Annotated[str | None, typer.Option(
        "--agent", metavar="NAME", help="The agent the RUNS are of (default: the name of their folder); with no "
                                        "RUNS, report this agent's stored runs only.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per run, then the summary.")] = False,
    max_cost: MaxCostOption = None,
    config: ConfigOption = None,
) -> None:
    """Classify graded runs of agents (why each failed), join them with a release, and write reports/results.md.

    Exit 0 when everything given was read, 2 when something could not be (each named on stderr; the rest is read,
    stored and reported)."""
    from curation.output_folders import FolderError
    from curation.results.collect import collect_results
    from curation.results.release_info import ReleaseError

    if release and from_folder:
        raise fail("give --release or --from, not both")
    settings = settings_from(config)
    with open_store(settings) as store:
        triage = _triage(settings, store, max_cost) if settings.models.triage else None
        try:
            report = collect_results(store, settings, list(runs or []), agent=agent, version=release,
                                     folder=from_folder, triage=triage)
        except (ReleaseError, FolderError) as error:
            raise fail(str(error)) from None
    for problem in report.problems:
        complain(problem)
    if not report.runs:
        if runs:
            raise fail(f"no run could be read from {', '.join(str(path) for path in runs)}; the lines above say why")
        raise fail("no runs stored yet: give run folders or a results CSV, e.g. `curate results logs/aide`")
    if as_json:
        _print_json(report)
    else:
        _print_lines(report)
    if report.problems:
        raise typer.Exit(2)


def _triage(settings, store, max_cost):
    """The triage role as a plain function of the runs: one LLM client for the call, its failures said as lines."""
    def run_triage(runs):
        import asyncio

        from curation.llm import LLM, LLMConfigError
        from curation.prompts import PromptError
        from curation.results.triage import triage

        async def go():
            async with LLM(settings, store, max_cost=max_cost, stage="results") as llm:
                return await triage(runs, llm, settings)

        try:
            return asyncio.run(go())
        except (LLMConfigError, PromptError) as error:
            raise cannot_run(error, settings, ("triage",)) from None
    return run_triage


def _summary(report) -> dict:
    from collections import Counter

    from curation.records import ERROR_CLASSES

    runs = report.runs
    classes = Counter(run.error_class for run in runs)
    by_language: dict[str, dict] = {}
    for run in runs:
        entry = by_language.setdefault(run.language, {"runs": 0, "success": 0})
        entry["runs"] += 1
        entry["success"] += run.error_class == "success"
    for gap in report.gaps:
        by_language[gap.language].update(gap_to_english=gap.gap, interval=[gap.low, gap.high],
                                         competitions=gap.competitions)
    return {"summary": {
        "release": report.release.name, "runs": len(runs), "agents": sorted({run.agent for run in runs}),
        "competitions": len({run.competition for run in runs}), "languages": by_language,
        "classes": {name: classes[name] for name in ERROR_CLASSES if classes[name]},
        "success_rate": classes["success"] / len(runs), "triaged": report.triaged,
        "stored": None if report.saved is None else vars(report.saved), "skipped": len(report.problems),
        "left_out": report.left_out, "report": str(report.files[0]) if report.files else None}}


def _print_json(report) -> None:
    # Written as one block by json's C encoder: a console print per line takes seconds at 10,000 runs.
    lines = [json.dumps({"run": run.run, "competition": run.competition, "language": run.language,
                         "agent": run.agent, "error_class": run.error_class, "score": run.score,
                         "normalized_score": round(score, 6), "reason": run.reason}, ensure_ascii=False)
             for run, score in zip(report.runs, report.normalized)]
    lines.append(json.dumps(_summary(report), ensure_ascii=False))
    typer.echo("\n".join(lines))


def _print_lines(report) -> None:
    summary = _summary(report)["summary"]
    agents = summary["agents"]
    say(f"{plural(summary['runs'], 'run')} of {plural(len(agents), 'agent')} ({', '.join(agents)}) on "
        f"{plural(summary['competitions'], 'competition')} in {plural(len(summary['languages']), 'language')}, "
        f"joined with {report.release.name}")
    if report.saved is not None:
        saved = report.saved
        say(f"stored: {saved.added} added, {saved.changed} changed, {saved.unchanged} already stored as they are")
    elif report.left_out:
        complain(f"{plural(report.left_out, 'stored run')} of competitions or languages {report.release.name} lacks "
                 "left out")
    say("classes: " + ", ".join(f"{name} {count}" for name, count in summary["classes"].items())
        + (f" ({report.triaged} placed by the triage model)" if report.triaged else ""))
    gaps = [gap for gap in report.gaps if gap.gap is not None]
    if gaps:
        worst = sorted(gaps, key=lambda gap: gap.gap)[:3]
        say("largest gaps to English: " + ", ".join(
            f"{gap.language} {gap.gap:+.3f}" + (f" [{gap.low:+.3f}, {gap.high:+.3f}]" if gap.low is not None else "")
            for gap in worst))
    if report.files:
        say(f"report written to {report.files[0]} (plots, {report.files[-2].name}, {report.files[-1].name} beside it)")
