"""Publish gates: what keeps a (language, competition) row out of a release, one offender per problem."""

from __future__ import annotations

from dataclasses import dataclass

from curation.config import Settings
from curation.plain_text import formula_start, metadata_problems
from curation.records import FIELDS
from curation.release.harness import harness_path
from curation.release.inputs import ReleaseInputs

ALL_LANGUAGES = "*"
# Where an English text that cannot be published as it is gets fixed.
SOURCE_FIXES = {"description": "write description.md in the competition folder (it takes precedence over the "
                               "inferred one) and run `curate ingest`",
                "data_card": "edit data_card.md in the competition folder and run `curate ingest`",
                "domain": "tag it again (`curate tag --force`) or merge a corrected English domain"}


@dataclass(frozen=True)
class Offender:
    """One reason a row cannot be published. language '*' means the competition is held back in every language."""

    language: str
    competition: str
    field: str | None
    reason: str  # what is wrong and what to do

    @property
    def item(self) -> str:
        parts = [self.competition] + ([self.field] if self.field else [])
        where = "/".join(parts)
        return where if self.language == ALL_LANGUAGES else f"{self.language}/{where}"

    def line(self) -> str:
        return f"{self.item}: {self.reason}"

    def as_dict(self) -> dict:
        return {"language": self.language, "competition": self.competition, "field": self.field, "reason": self.reason}


def find_offenders(inputs: ReleaseInputs, settings: Settings) -> list[Offender]:
    """Every gate failure: missing texts, failed checks, open retranslate/redescribe requests, low rubric scores."""
    offenders: list[Offender] = []
    minimum = settings.publish.min_rubric_score
    source = inputs.source_language
    open_redo = {(r["language"], r["competition"], r["field"]) for r in inputs.open_retranslations}
    redescribe = {r["competition"] for r in inputs.open_redescriptions}
    for competition in inputs.competitions:
        slug = competition.competition
        score = inputs.rubric.get(slug)
        if minimum > 0 and score is None:
            offenders.append(Offender(ALL_LANGUAGES, slug, "description", "the English description has no rubric "
                                      "score yet; have it scored in the rubric sheet and run `curate merge`"))
        elif score is not None and score < minimum:
            offenders.append(Offender(ALL_LANGUAGES, slug, "description", f"rubric score {score} is below "
                                      f"publish.min_rubric_score {minimum}; revise the description and review it again"))
        for name, problem in metadata_problems(competition):
            # Stored before ingest refused such metadata; ingest names the file, the store only where it came from.
            offenders.append(Offender(ALL_LANGUAGES, slug, name, f"{problem}; fix it in "
                                      f"{competition.source or 'its competition.yaml'} and run `curate ingest`"))
        if slug in redescribe:
            offenders.append(Offender(ALL_LANGUAGES, slug, "description", "reviewers asked for a new description "
                                      "that is still open; run `curate describe`, then translate, review and merge"))
        for language in inputs.languages:
            harness = harness_path(settings.language(language))
            for name in FIELDS:
                offenders.extend(_text_offenders(inputs, language, competition, name, source, open_redo, harness))
    return offenders


def _text_offenders(inputs, language, competition, name, source, open_redo, harness) -> list[Offender]:
    slug = competition.competition
    final = inputs.text(language, competition, name)
    if final is None:
        if language == source:
            what = {"description": "no English description yet; run `curate describe`",
                    "data_card": "no data card; write data_card.md in the competition folder and run `curate ingest`",
                    "domain": "no domain yet; run `curate tag`"}[name]
        else:
            what = f"no final text yet; translate, review and run `curate merge --lang {language}`"
        return [Offender(language, slug, name, what)]
    found = []
    if final.blocking_checks:
        found.append(Offender(language, slug, name, "reviewers approved it, but protected identifiers or numbers are "
                              f"damaged or missing ({'; '.join(final.blocking_checks)}), which no YES overrides; answer "
                              f"NO with a corrected version in the review sheet, pull and run `curate merge --lang {language}`"))
    elif not final.checks_passed:
        found.append(Offender(language, slug, name, "the final text fails the translation checks; correct it in the "
                              f"review sheet and run `curate merge --lang {language}`"))
    start = formula_start(final.text)
    if start:
        # The harness must read the text as reviewed, so the CSV cannot escape it: the text itself has to change.
        fix = (SOURCE_FIXES[name] if language == source else
               f"correct it in the review sheet and run `curate merge --lang {language}`")
        found.append(Offender(language, slug, name, f"starts with {start!r}, so a spreadsheet opening "
                              f"{harness} would run it as a formula; {fix}"))
    if (language, slug, name) in open_redo:
        found.append(Offender(language, slug, name, "a retranslation the reviewers asked for (a NO verdict) is still "
                              f"open; run `curate translate --lang {language}`, review and merge"))
    return found


def held_back(offenders: list[Offender], languages: list[str]) -> dict[str, dict[str, list[str]]]:
    """language -> competition -> the offender lines that keep that row out of the release."""
    rows: dict[str, dict[str, list[str]]] = {language: {} for language in languages}
    for offender in offenders:
        targets = languages if offender.language == ALL_LANGUAGES else [offender.language]
        for language in targets:
            rows.setdefault(language, {}).setdefault(offender.competition, []).append(offender.line())
    return rows
