"""`curate run`: the automatic stages in order, then what the curator does next."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import typer

from curation.cli.base import (BackendOption, BatchFallbackOption, BatchOption, ConfigOption, MaxCostOption, app, complain, console,
                               languages_from, open_store, say, settings_from)
from curation.cli.confirm import RedoRefused, YesOption
from curation.cli.dry_run import DryRunJsonOption, DryRunOption, show_dry_run, wants_dry_run
from curation.cli.content import describe, tag, target_languages, translate
from curation.cli.ingest import ingest
from curation.cli.llm import PIPELINE_ROLES
from curation.cli.outline import ROLES as OUTLINE_ROLES, outline
from curation.cli.pipeline import run_pipeline
from curation.cli.review import review_push
from curation.config import Settings

# The exit code of a setup error (missing key, bad config): the run cannot go on. Ctrl-C (130) stops it too, with the
# stage's own line and nothing to fix.
SETUP_ERROR = 2
INTERRUPTED = 130


def _spent(settings: Settings) -> float:
    with open_store(settings) as store:
        return sum(line.cost_usd for line in store.llm_costs())


def _one_after_another(settings: Settings, lang: str, review_languages: str | None, backend, yes: bool,
                       redo_reviewed: bool, max_cost: float | None, batching: dict,
                       config) -> list[tuple[str, Callable[[], None]]]:
    """The stages one after another, as their own commands run them: with --batch, where each stage's requests go
    out together as one batch a round (a pipeline would trickle them into many small batches)."""
    start = _spent(settings)

    def budget() -> float | None:
        return None if max_cost is None else max(0.0, max_cost - (_spent(settings) - start))

    return [
        ("describe", lambda: describe(competition=None, max_rounds=None, force=False, redo_reviewed=redo_reviewed,
                                         yes=yes, max_cost=budget(), config=config, **batching)),
        ("tag", lambda: tag(competition=None, force=False, max_cost=budget(), config=config, **batching)),
        ("translate", lambda: translate(lang=lang, competition=None, force=False, redo_reviewed=redo_reviewed, yes=yes,
                                           max_cost=budget(), verbose=False, config=config, **batching)),
        *([("outline", lambda: outline(competition=None, force=False, max_cost=budget(), verbose=False, config=config,
                                       dry_run=False, as_json=False, **batching))] if settings.outline.enabled else []),
        ("review push", lambda: review_push(lang=review_languages, annotator=None, backend=backend, verbose=False,
                                            config=config)),
    ]


@app.command()
def run(
    lang: Annotated[str, typer.Option("--lang", help="Languages to translate and push: 'all' or ISO codes.")] = "all",
    backend: BackendOption = None,
    yes: YesOption = False,
    redo_reviewed: Annotated[bool, typer.Option(
        "--redo-reviewed", help="Also describe and translate again texts a person approved or wrote under an older "
                                "prompt or model (the old versions stay in the history; the new ones go to review).")] = False,
    batch: BatchOption = False,
    batch_fallback: BatchFallbackOption = None,
    max_cost: MaxCostOption = None,
    dry_run: DryRunOption = False,
    as_json: DryRunJsonOption = False,
    config: ConfigOption = None,
) -> None:
    """Run ingest, then describe → tag → translate → review push as one pipeline; then print what comes next.

    With [outline] enabled = true, solution outlines are written in the same pipeline (before the rubric sheets).

    A competition is tagged as soon as it is described and translated as soon as it is tagged; each language's
    sheets are written once its texts are done (with --batch the stages run one after another). A stage whose items
    partly failed does not stop the later ones (they work on what is ready); a setup error such as a missing key
    stops the run with what to set. Exits non-zero when anything is left undone.
    """
    settings = settings_from(config, batch, batch_fallback)  # refuses a bad --batch-fallback before any stage
    batching = {"batch": batch, "batch_fallback": batch_fallback}
    languages_from(lang, settings, include_source=True)  # an empty or unknown --lang stops before anything runs
    targets = target_languages(lang, settings)
    if wants_dry_run(dry_run, as_json):
        # Ingest is free and a real run would do the same; describe, tag and translate are only planned. With
        # --json its report goes to stderr, so stdout holds the JSON alone.
        import contextlib
        import sys

        with contextlib.redirect_stdout(sys.stderr if as_json else sys.stdout):
            ingest(source=None, top=None, code=None, config=config)
        return show_dry_run(settings, ("describe", "tag", "translate") + (("outline",) if settings.outline.enabled
                                                                          else ()), targets,
                            redo_reviewed=redo_reviewed, as_json=as_json)
    if targets:
        from curation.llm.providers import import_sdks

        # The SDKs first (about a second of CPU, slower once the checks' process competes for memory and cores). The
        # translation checks' process starts with a language's first translation (curation/checks/off_loop.py), so
        # a rerun with nothing to translate starts none.
        import_sdks(settings, PIPELINE_ROLES + (OUTLINE_ROLES if settings.outline.enabled else ()))
    review_languages = lang if lang.strip().lower() != "all" else None  # every language with items to review
    steps: list[tuple[str, Callable[[], object]]] = [("ingest", lambda: ingest(source=None, top=None, code=None, config=config))]
    if settings.llm.mode == "batch":  # --batch, or [llm] mode in curate.toml
        steps += _one_after_another(settings, lang, review_languages, backend, yes, redo_reviewed, max_cost, batching,
                                    config)
    else:
        # One pipeline on one client: a competition is tagged, translated and its sheets written as soon as the
        # texts it needs are final (curation/cli/pipeline.py).
        steps.append(("describe · tag · translate · review push", lambda: run_pipeline(
            settings, targets, None if review_languages is None else languages_from(review_languages, settings,
                                                                                   include_source=True),
            backend, yes, redo_reviewed, max_cost)))
    unfinished, refused = [], False
    for name, step in steps:
        console.rule(name)
        try:
            unfinished += step() or []
        except typer.Exit as exit_:
            if exit_.exit_code == INTERRUPTED:
                raise
            if exit_.exit_code == SETUP_ERROR:
                complain(f"stopped at {name}; fix the above and run `curate run` again (finished work is kept)")
                raise
            refused = refused or isinstance(exit_, RedoRefused)
            if exit_.exit_code:
                unfinished.append(name)
    console.rule("next")
    if unfinished:
        complain(f"left undone in: {', '.join(unfinished)} (see above; what to do about it below)")
    from curation.next_steps import next_steps

    # From the store as the run left it: what failed, what waits and for whom, the version to publish next.
    with open_store(settings) as store:
        for line in next_steps(store, settings, languages_from(lang, settings, include_source=True), refused,
                               backend):
            say(line)
    if unfinished:
        raise typer.Exit(1)
