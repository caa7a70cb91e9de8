"""`curate publish` and `curate releases`."""

from __future__ import annotations

from typing import Annotated

import typer

from curation.cli.base import ConfigOption, app, complain, open_store, say, settings_from


@app.command()
def publish(
    version: Annotated[str, typer.Option("--version", help="Semantic version of the release, e.g. 1.0.0 (tagged v1.0.0).")],
    to: Annotated[str, typer.Option("--to", help="A folder (a git repository, created if needed) or hf:ORG/NAME.")],
    allow_partial: Annotated[bool, typer.Option("--allow-partial", help="Publish what passes the gates; list the rest in the card and manifest.")] = False,
    public: Annotated[bool, typer.Option("--public", help="Create the Hub repository public (default: private).")] = False,
    config: ConfigOption = None,
) -> None:
    """Publish the merged texts as a versioned dataset release (HF configs, harness files, card, manifest)."""
    from curation.stages.publish import PublishRefused, publish as publish_release

    settings = settings_from(config)
    with open_store(settings) as store:
        try:
            report = publish_release(store, settings, version, to, allow_partial=allow_partial, public=public)
        except PublishRefused as refused:
            for line in refused.lines:
                complain(line)
            raise typer.Exit(1) from None
    release = report.release
    say(f"published {report.tag} to {release.target} (commit {release.commit[:12]}): "
                  f"{sum(release.counts.values())} rows in {len(release.counts)} languages")
    say("rows: " + ", ".join(f"{code} {count}" for code, count in release.counts.items()))
    changes = report.changes
    if report.previous_version:
        changed = sum(len(entry["texts_changed"]) for entry in changes["languages"].values())
        say(f"since v{report.previous_version}: {len(changes['competitions_added'])} competitions added, "
                      f"{len(changes['competitions_removed'])} removed, {changed} texts changed")
    for offender in report.held_back:
        complain(f"held back: {offender.line()}")
    if report.without_grading:
        complain("not in competitions.json (no grading block): " + ", ".join(report.without_grading))


@app.command()
def releases(config: ConfigOption = None) -> None:
    """Releases published from this store: version, date, target and rows per language."""
    settings = settings_from(config)
    with open_store(settings) as store:
        recorded = store.releases()
    if not recorded:
        say("no releases yet; publish one with `curate publish --version 1.0.0 --to dist/ml2b`")
        return
    for release in recorded:
        counts = ", ".join(f"{code} {count}" for code, count in release.counts.items())
        partial = " (partial)" if release.partial else ""
        say(f"v{release.version}  {release.date}  {release.target}  {release.commit[:12]}{partial}  "
                      f"{counts}")
