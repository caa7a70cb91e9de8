"""`curate check FILE`: the translation checks on a file of translations from anywhere."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from curation.cli.base import ConfigOption, app, complain, fail, say, settings_from


@app.command()
def check(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="JSONL or CSV with id, language, field, source, translation.")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per row: id, passed, failed checks.")] = False,
    config: ConfigOption = None,
) -> None:
    """Run the translation checks on translations from a file: an annotator's fix, another benchmark's texts.

    Inside a project its settings apply, elsewhere the defaults. Exit 0 when every row passes, 1 when some
    fail, 2 when the file or a row cannot be read."""
    from curation.checks.audit import BadRow, UnreadableInput, audit, read_rows

    settings = settings_from(config)
    try:
        rows = read_rows(file)
    except UnreadableInput as error:
        raise fail(str(error)) from None
    checked = failing = unreadable = 0
    for row in rows:
        if isinstance(row, BadRow):
            unreadable += 1
            complain(f"error: {row.where}: {row.problem}")
            continue
        result = audit(row, settings)
        checked += 1
        failing += bool(result.failed)
        if as_json:
            say(json.dumps(result.as_json(), ensure_ascii=False))
        elif result.failed:
            say(f"{row.id} ({row.language} {row.field}): "
                + "; ".join(check.line() for check in result.failed))
    if not as_json:
        say(f"{checked} row{'s' * (checked != 1)} checked: {checked - failing} passed, {failing} failed"
            + (f"; {unreadable} could not be read" if unreadable else ""))
    raise typer.Exit(2 if unreadable else 1 if failing else 0)
