"""Assemble a release folder: parquet configs, harness files, card and manifest, from the store's inputs."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from curation.config import Settings
from curation.languages import Language
from curation.records import VERDICTS, ReviewStats
from curation.release.card import render_card, write_card
from curation.release.gates import Offender, held_back
from curation.release.harness import grading_config, harness_path, write_grading_config, write_tasks_csv
from curation.release.inputs import ReleaseInputs
from curation.release.manifest import content_hashes, diff_releases, file_checksums, write_manifest
from curation.release.outlines import ReleaseOutlines, outlines_path, write_outlines
from curation.release.rows import data_path, language_rows, write_parquet
from curation.release.version import Version


@dataclass
class ReleaseFigures:
    """What the card and manifest report besides the rows: review statistics, rubric scores, models, prompts."""

    review: dict[str, ReviewStats]
    rubric: dict
    models: dict[str, dict[str, int]] = field(default_factory=dict)
    prompt_hashes: dict[str, dict[str, int]] = field(default_factory=dict)
    llm_calls: dict[str, dict[str, int]] = field(default_factory=dict)  # role -> model -> calls, from the call log
    older_prompts: dict[str, int] = field(default_factory=dict)  # language -> published texts reviewed under an older prompt
    overrides: dict[str, int] = field(default_factory=dict)  # language -> published texts whose checks reviewers overrode


def release_rows(inputs: ReleaseInputs, offenders: list[Offender]) -> tuple[dict[str, list[dict]], list[str]]:
    """Rows per language with every offending (language, competition) left out, and the languages left empty.

    A language without a single row gets no config at all: an empty parquet split cannot be loaded.
    """
    held = held_back(offenders, inputs.languages)
    rows = {language: language_rows(inputs, language, held.get(language, {})) for language in inputs.languages}
    return {code: found for code, found in rows.items() if found}, [code for code, found in rows.items() if not found]


def build_release(folder: Path, *, inputs: ReleaseInputs, rows: dict[str, list[dict]], empty: list[str],
                  offenders: list[Offender],
                  figures: ReleaseFigures, settings: Settings, version: Version, date: str,
                  previous_manifest: dict | None, previous_version: Version | None, load_path: str,
                  on_hub: bool = False, outlines: ReleaseOutlines | None = None) -> dict:
    """Write the whole release into `folder` (which must not exist yet) and return its manifest. The `outlines`
    config is written beside the language configs, which are the same with or without it."""
    folder.mkdir(parents=True)
    languages = [code for code in inputs.languages if code in rows]
    published = {slug for language_rows_ in rows.values() for slug in (row["competition"] for row in language_rows_)}
    for language, language_rows_ in rows.items():
        write_parquet(language_rows_, folder / data_path(language))
        write_tasks_csv(language_rows_, folder / harness_path(settings.language(language)))
    grading, without_grading = grading_config(inputs.competitions, published)
    write_grading_config(grading, folder / "competitions.json")
    with_outlines = outlines is not None and bool(outlines.rows)
    if with_outlines:
        write_outlines(outlines.rows, folder / outlines_path())

    content = content_hashes(rows)
    changes = diff_releases(previous_manifest, content, str(previous_version) if previous_version else None)
    counts = {language: len(language_rows_) for language, language_rows_ in rows.items()}
    missing = [offender.as_dict() for offender in offenders]
    context = {
        "pretty_name": settings.project.pretty_name,
        "version": str(version),
        "tag": version.tag,
        "date": date,
        "load_path": load_path,
        "on_hub": on_hub,
        "total_competitions": len(published),
        "partial": bool(offenders),
        "languages": [_language_entry(settings.language(code), counts[code], figures.review.get(code))
                      for code in languages],
        "empty_languages": empty,
        "verdicts": VERDICTS,
        "rubric": figures.rubric,
        "models": figures.models,
        "prompt_hashes": figures.prompt_hashes,
        "llm_calls": figures.llm_calls,
        "older_prompts": figures.older_prompts,
        "overrides": figures.overrides,
        "changes": changes,
        "held_back": [offender.line() for offender in offenders],
        "without_grading": without_grading,
        "grading_count": len(grading),
        "outlines": outlines.provenance() if with_outlines else None,
    }
    write_card(render_card(settings, languages, context, outlines=with_outlines), folder)

    manifest = {
        "name": settings.project.name,
        "pretty_name": settings.project.pretty_name,
        "version": str(version),
        "tag": version.tag,
        "date": date,
        "comp_id": "the competition's Kaggle slug",
        "languages": {code: {"rows": counts[code], "data_file": data_path(code),
                             "harness_file": harness_path(settings.language(code))} for code in languages},
        "empty_languages": empty,
        "counts": counts,
        "competitions": sorted(published),
        "statistics": {code: stats.model_dump() for code, stats in sorted(figures.review.items())},
        "rubric": figures.rubric,
        "models": figures.models,
        "prompt_hashes": figures.prompt_hashes,
        "llm_calls": figures.llm_calls,
        "reviewed_under_older_prompts": figures.older_prompts,
        "reviewer_overrides": figures.overrides,
        "grading": {"competitions": len(grading), "without_grading": without_grading},
        "partial": bool(offenders),
        "missing": missing,
        "content": content,
        "changes": changes,
    }
    if with_outlines:
        manifest["outlines"] = outlines.provenance()
    manifest["files"] = file_checksums(folder)
    write_manifest(manifest, folder)
    return manifest


def _language_entry(language: Language, rows: int, stats: ReviewStats | None) -> dict:
    return {"code": language.code, "english": language.english, "native": language.native,
            "harness_file": harness_path(language), "rows": rows, "stats": stats}
