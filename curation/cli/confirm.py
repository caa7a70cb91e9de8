"""Asking before a run redoes many texts: the count per language and the estimated cost, then yes or no."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from curation.cli.base import fail, say
from curation.stages.redo import HANDFUL, RedoPlan

YesOption = Annotated[bool, typer.Option(
    "--yes", "-y", help=f"Redo more than {HANDFUL} existing texts without asking (needed when not on a terminal).")]


class RedoRefused(typer.Exit):
    """A redo that was not confirmed: nothing was sent (exit 1); `curate run` says to add --yes."""


def confirm_redo(plan: RedoPlan, yes: bool) -> None:
    """Print what a run would redo when it is more than a handful; go on only with --yes or a yes on a terminal."""
    if plan.total <= HANDFUL:
        return
    say(plan.line())
    if yes:
        return
    if not sys.stdin.isatty():
        fail(f"nothing was sent: {plan.what} would redo {plan.total} texts; rerun with --yes to go ahead "
             "(there is no terminal to ask on)")
        raise RedoRefused(1)
    if not typer.confirm("Go ahead?", default=False):
        fail("nothing was sent; the existing texts are kept")
        raise RedoRefused(1)
