"""`curate doctor`: one line per key, endpoint and model the configuration uses, before anything is spent."""

from __future__ import annotations

from typing import Annotated

import typer

from curation.cli.base import ConfigOption, app, complain, say, settings_from


@app.command()
def doctor(
    as_json: Annotated[bool, typer.Option("--json", help="Print the findings as one JSON object, for scripts.")] = False,
    config: ConfigOption = None,
) -> None:
    """Check the keys (their variable names, never values), endpoints and models of every configured role, and the
    Google Sheets and Hugging Face credentials when set; no completion is asked for. Exits 1 when one fails."""
    from curation.doctor import FAIL, examine

    settings = settings_from(config)
    findings = examine(settings)
    failed = [finding for finding in findings if finding.status == FAIL]
    if as_json:
        import json

        typer.echo(json.dumps({"ok": not failed, "findings": [finding.as_dict() for finding in findings]}, indent=2))
    else:
        for finding in findings:
            (complain if finding.status == FAIL else say)(finding.line())
        if failed:
            complain(f"{len(failed)} of {len(findings)} checks failed; fix them and run `curate doctor` again")
        else:
            say("everything the configuration uses answers; `curate run --dry-run` shows what a run would cost")
    if failed:
        raise typer.Exit(1)
