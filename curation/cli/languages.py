"""`curate languages`: the project's languages, their harness files and what the translation checks cover of each."""

from __future__ import annotations

from typing import Annotated

import typer

from curation.cli.base import ConfigOption, app, say, settings_from
from curation.release.harness import harness_path


@app.command()
def languages(
    every: Annotated[bool, typer.Option("--all", help="List every language the checks can read, to add one.")] = False,
    config: ConfigOption = None,
) -> None:
    """The configured languages: names, script, harness file and the checks' coverage of each. A language is added
    by its ISO 639-1 code in [project] languages; `--all` lists the codes."""
    from curation.checks.coverage import coverage
    from curation.languages import SUPPORTED

    settings = settings_from(config)
    if every:
        configured = set(settings.project.languages)
        for code, language in SUPPORTED.items():
            mark = "  (configured)" if code in configured else ""
            say(f"{code}  {language.english} ({language.native}), {language.script} script{mark}")
        say(f"{len(SUPPORTED)} languages; add one by its code to [project] languages in curate.toml")
        return
    source = settings.language(settings.project.source_language)
    say(f"{source.code}  {source.english}: the source language, {harness_path(source)}")
    for code in settings.project.targets:
        found = coverage(code, settings)
        language = found.language
        say(f"{code}  {language.english} ({language.native}), {language.script} script, {harness_path(language)}")
        say(f"    checks: {', '.join(found.checks)}")
        if found.missing:
            say(f"    not yet: {'; '.join(map(str, found.missing))}")
    say("add a language by its ISO 639-1 code in [project] languages (`curate languages --all` lists them); name its "
        "harness file under [languages.<code>] harness")
