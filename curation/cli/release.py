"""`curate publish` and `curate releases`."""

from __future__ import annotations

from typing import Annotated

import typer

from curation.cli.base import ConfigOption, VerboseOption, app, complain, open_store, say, say_some, settings_from
from curation.excerpt import plural


@app.command()
def publish(
    version: Annotated[str, typer.Option("--version", help="Semantic version of the release, e.g. 1.0.0 (tagged v1.0.0).")],
    to: Annotated[str, typer.Option("--to", help="A folder (a git repository, created if needed) or hf:ORG/NAME.")],
    allow_partial: Annotated[bool, typer.Option("--allow-partial", help="Publish what passes the gates; list the rest in the card and manifest.")] = False,
    public: Annotated[bool, typer.Option("--public", help="Create the Hub repository public (default: private).")] = False,
    drop_language: Annotated[list[str] | None, typer.Option(
        "--drop-language", metavar="CODE", help="With --allow-partial: a language the previous release had that this "
                                                "one may lose entirely (refused otherwise).")] = None,
    verbose: VerboseOption = False,
    config: ConfigOption = None,
) -> None:
    """Publish the merged texts as a versioned dataset release (HF configs, harness files, card, manifest)."""
    from curation.stages.publish import PublishRefused, publish as publish_release

    settings = settings_from(config)
    with open_store(settings) as store:
        try:
            report = publish_release(store, settings, version, to, allow_partial=allow_partial, public=public,
                                     drop_languages=tuple(drop_language or ()))
        except PublishRefused as refused:
            # Hundreds of held-back rows say little more than a few do; the last line says what to do.
            *problems, verdict = refused.lines
            say_some(problems, "`-v` lists all; per language: `curate status --detail`", verbose, stderr=True)
            complain(verdict)
            raise typer.Exit(refused.exit_code) from None
    release = report.release
    say(f"published {report.tag} to {release.target} (commit {release.commit[:12]}): "
                  f"{plural(sum(release.counts.values()), 'row')} in {plural(len(release.counts), 'language')}")
    say("rows: " + ", ".join(f"{code} {count}" for code, count in release.counts.items()))
    if report.previous_version:
        for line in change_lines(report.previous_version, report.changes):
            say(line)
    say_some([f"held back: {offender.line()}" for offender in report.held_back],
             "`-v` lists all; the card and manifest.json list them too", verbose, stderr=True)
    if report.without_grading:
        complain("not in competitions.json (no grading block): " + ", ".join(report.without_grading))


@app.command()
def releases(
    as_json: Annotated[bool, typer.Option("--json", help="Print the releases as a JSON list, for scripts.")] = False,
    config: ConfigOption = None,
) -> None:
    """Releases published from this store: version, date, target and rows per language."""
    settings = settings_from(config)
    with open_store(settings) as store:
        recorded = store.releases()
    if as_json:
        import json

        typer.echo(json.dumps([release.model_dump() for release in recorded], ensure_ascii=False, indent=2))
        return
    if not recorded:
        say("no releases yet; publish one with `curate publish --version 1.0.0 --to dist/ml2b`")
        return
    for release in recorded:
        counts = ", ".join(f"{code} {count}" for code, count in release.counts.items())
        partial = " (partial)" if release.partial else ""
        say(f"v{release.version}  {release.date}  {release.target}  {release.commit[:12]}{partial}  "
                      f"{counts}")


def change_lines(previous_version: str, changes: dict) -> list[str]:
    """Everything the manifest's diff says, as console lines: competitions and languages added or removed, and per
    language the rows added or removed and the texts changed."""
    if changes.get("unknown"):
        return [f"since v{previous_version}: unknown (its manifest could not be read)"]
    per_language = changes.get("languages", {})
    changed = sum(len(entry["texts_changed"]) for entry in per_language.values())
    lines = [f"since v{previous_version}: {plural(len(changes['competitions_added']), 'competition')} added, "
             f"{len(changes['competitions_removed'])} removed, {plural(changed, 'text')} changed"]
    for key, what in (("competitions_added", "competitions added"), ("competitions_removed", "competitions removed"),
                      ("languages_added", "languages added"), ("languages_removed", "LANGUAGES REMOVED")):
        if changes.get(key):
            lines.append(f"  {what}: {', '.join(changes[key])}")
    for language, entry in sorted(per_language.items()):
        parts = [f"{plural(len(entry[key]), noun)} {done}" for key, noun, done in (("rows_added", "row", "added"),
                 ("rows_removed", "row", "removed"), ("texts_changed", "text", "changed")) if entry.get(key)]
        lines.append(f"  {language}: {', '.join(parts)}"
                     + (f" ({', '.join(entry['texts_changed'][:5])}{' ...' if len(entry['texts_changed']) > 5 else ''})"
                        if entry.get("texts_changed") else ""))
    return lines
