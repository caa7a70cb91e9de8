"""Publish: the merged texts -> a versioned release (HF configs, harness files, card, manifest) at a target.

Gates first (every offender listed; outlines are no gate, a release config of their own beside the languages'),
then the release is built in a temporary folder and handed to the target in one step (a git commit + tag, or one
Hub commit + tag), so a failure anywhere leaves the previous release as it was. With allow_partial the offending (language, competition) rows are left out and listed instead.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from curation.config import Settings
from curation.records import Release
from curation.release.build import ReleaseFigures, build_release, release_rows
from curation.release.card import CardError
from curation.release.errors import PublishError, TargetBusy
from curation.release.figures import (call_log_models, models_and_prompts, review_figures, reviewer_overrides,
                                      rubric_figures)
from curation.release.gates import Offender, find_offenders
from curation.release.inputs import ReleaseInputs
from curation.release.outlines import release_outlines
from curation.release.targets import Target, open_target
from curation.release.version import BadVersion, Version, parse_version
from curation.store import Store


class PublishRefused(Exception):
    """The release was not published; `lines` says why, one line per problem."""

    def __init__(self, lines: list[str], exit_code: int = 1):
        super().__init__("\n".join(lines))
        self.lines = lines
        self.exit_code = exit_code


@dataclass
class PublishReport:
    """What a publish did, for the CLI to print."""

    release: Release
    tag: str
    previous_version: str | None
    changes: dict
    held_back: list[Offender] = field(default_factory=list)
    without_grading: list[str] = field(default_factory=list)


def publish(store: Store, settings: Settings, version: str, to: str, *, allow_partial: bool = False,
            public: bool = False, drop_languages: tuple[str, ...] = ()) -> PublishReport:
    """Publish the store's merged texts as `version` to `to` (a folder or hf:ORG/NAME); raises PublishRefused.

    A language the previous release had and this one would lose entirely is refused unless it is named in
    `drop_languages` (with allow_partial): a whole language never disappears from a benchmark by accident.
    """
    try:
        release_version = parse_version(version)
        target = open_target(to, public=public, token=_token(settings), root=settings.root)
        published = target.versions()
    except (BadVersion, PublishError) as error:
        raise PublishRefused([str(error)], exit_code=getattr(error, "exit_code", 1)) from None
    if release_version in published:
        raise PublishRefused([f"{to}: version {release_version} is already published (tag {release_version.tag}); "
                              "releases are never overwritten, publish a new version"])
    recorded = {release.version: release for release in store.releases(target.name)}
    if str(release_version) in recorded:
        # The target lost the tag (a deleted folder, a removed tag), but the version has been out there.
        raise PublishRefused([f"{to}: version {release_version} was published there on "
                              f"{recorded[str(release_version)].date} (commit {recorded[str(release_version)].commit[:12]}); "
                              "releases are never overwritten, publish a new version"])
    _refuse_going_back(to, release_version, published + [parse_version(known) for known in recorded])

    inputs = ReleaseInputs.from_store(store, settings)
    if not inputs.competitions:
        raise PublishRefused(["the store has no competitions; run `curate ingest` first"])
    offenders = find_offenders(inputs, settings)
    if offenders and not allow_partial:
        raise PublishRefused([offender.line() for offender in offenders] + [
            f"refused: {_problems(offenders)} above; fix them, or publish what is ready with --allow-partial"])

    previous = max((v for v in published if v < release_version), default=None)
    previous_manifest = _previous_manifest(store, target, previous)
    rows, empty = release_rows(inputs, offenders)
    _refuse_dropped_languages(previous_manifest, rows, offenders, inputs.languages, drop_languages)
    if not rows:
        raise PublishRefused([offender.line() for offender in offenders] + [
            "refused: every row is held back by the problems above; there is nothing to publish"])
    published_slugs = {language: {row["competition"] for row in language_rows} for language, language_rows in rows.items()}
    # Imported here: it loads the translate stage and its checks (seconds), which a refused publish never needs.
    from curation.stages.stale_reviewed import reviewed_under_older_prompts

    models, prompts = models_and_prompts(store, published_slugs, inputs.source_language)
    figures = ReleaseFigures(
        review=review_figures(store, [code for code in inputs.languages if code != inputs.source_language]),
        rubric=rubric_figures(store, inputs.rubric, set().union(*published_slugs.values()),
                              settings.review.rubric_annotators),
        models=models, prompt_hashes=prompts, llm_calls=call_log_models(store),
        older_prompts=reviewed_under_older_prompts(store, settings, published_slugs),
        overrides=reviewer_overrides(store, published_slugs))
    date = datetime.now(timezone.utc).date().isoformat()
    outlines = release_outlines(
        {outline.competition: outline for outline in store.outlines()},
        store.outline_translations() if settings.outline.translate else [], store.outline_scores(),
        {competition.competition: competition.comp_name for competition in inputs.competitions},
        set().union(*published_slugs.values()), inputs.source_language, settings.review.rubric_annotators)

    with tempfile.TemporaryDirectory(prefix="curation-release-") as scratch:
        folder = Path(scratch) / "release"
        try:
            manifest = build_release(folder, inputs=inputs, rows=rows, empty=empty, offenders=offenders, figures=figures,
                                     settings=settings, version=release_version, date=date,
                                     previous_manifest=previous_manifest, previous_version=previous,
                                     load_path=target.load_path,
                                     on_hub=to.startswith("hf:"), outlines=outlines)
            with target.lock():
                # Another command may have published while this release was built (its card and changes would be
                # stale): refuse, so that what it published stays as it is.
                _refuse_if_published_meanwhile(to, published, target.versions())
                commit = target.publish(folder, release_version, _commit_message(settings, release_version, offenders))
        except CardError as error:
            raise PublishRefused([str(error), f"nothing was published; {to} is unchanged"]) from None
        except TargetBusy as busy:
            raise PublishRefused([str(busy)], exit_code=busy.exit_code) from None
        except PublishError as error:
            if error.state:
                state = [error.state]
            else:
                state = [] if error.target_changed else [f"nothing was published; {to} is unchanged"]
            raise PublishRefused([str(error), *state], exit_code=error.exit_code) from None

    release = Release(version=str(release_version), target=target.name, date=date, commit=commit,
                      counts=manifest["counts"], partial=bool(offenders))
    store.save_release(release, manifest)
    return PublishReport(release=release, tag=release_version.tag,
                         previous_version=str(previous) if previous else None, changes=manifest["changes"],
                         held_back=offenders, without_grading=manifest["grading"]["without_grading"])


def _refuse_going_back(to: str, version: Version, known: list[Version]) -> None:
    # A release after a newer one would move the target's branch (and `main` on the Hub) back to older content.
    newest = max(known, default=None)
    if newest is not None and version < newest:
        raise PublishRefused([f"{to}: version {version} is below the newest release there, {newest.tag}; releases "
                              f"only move forward, publish a version above {newest}"])


def _refuse_if_published_meanwhile(to: str, before: list[Version], now: list[Version]) -> None:
    added, removed = sorted(set(now) - set(before)), sorted(set(before) - set(now))
    if not added and not removed:
        return
    changed = added or removed
    what = (f"{', '.join(version.tag for version in changed)} {'was' if len(changed) == 1 else 'were'} "
            f"{'published there' if added else 'removed from it'}")
    above = f" with a version above {max(now)}" if now else ""
    raise TargetBusy(f"{to}: {what} while this release was being built, so this command published nothing; check "
                     f"`curate releases` and publish again{above}")


def _token(settings: Settings) -> str | None:
    return settings.secrets.hf_token.get_secret_value() if settings.secrets.hf_token else None


def _refuse_dropped_languages(previous_manifest: dict | None, rows: dict, offenders: list[Offender],
                              configured: list[str], drop_languages: tuple[str, ...]) -> None:
    # A language taken out of [project] languages was dropped on purpose; one still configured whose every row
    # is held back would vanish by accident (a --allow-partial meant for a few rows).
    before = set((previous_manifest or {}).get("content", {})) or set((previous_manifest or {}).get("counts", {}))
    lost = sorted(language for language in before - set(rows) if language in configured and language not in drop_languages)
    if not lost:
        return
    version = (previous_manifest or {}).get("version", "the previous release")
    lines = [f"{language}: v{version} had it; this release would have none of its rows" for language in lost]
    lines += [offender.line() for offender in offenders if offender.language in lost][:10]
    raise PublishRefused(lines + [
        f"refused: publishing would remove {', '.join(lost)} from the benchmark; fix the problems above, or remove it "
        f"on purpose with --allow-partial {' '.join(f'--drop-language {code}' for code in lost)}"])


def _previous_manifest(store: Store, target: Target, previous: Version | None) -> dict | None:
    if previous is None:
        return None
    return store.release_manifest(target.name, str(previous)) or target.read_manifest(previous)


def _commit_message(settings: Settings, version: Version, offenders: list[Offender]) -> str:
    title = f"{settings.project.pretty_name} {version.tag}"
    return title + (f" (partial: {_problems(offenders)} held back)" if offenders else "")


def _problems(offenders: list[Offender]) -> str:
    return f"{len(offenders)} problem" + ("" if len(offenders) == 1 else "s")
