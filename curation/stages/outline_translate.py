"""Outlines into the target languages (`[outline] translate = true`), through the translate stage's own machinery:
the same prompt, masking of protected names, automatic checks, retries and optional `qe` reading. Only what is
selected and where it is kept differ: the kept outline of each competition as one Markdown text, stored beside the
outline (never among the translations that go to review sheets, merge and the plain release configs).

Its status is `outline:<lang>`, and its calls are logged under the outline stage.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from curation.checks.masking import protected_names
from curation.config import Settings
from curation.excerpt import plural
from curation.stages.outline import STAGE as OUTLINE_STAGE
from curation.stages.runner import looked_at
from curation.stages.translate import TranslateItem, TranslateResult, TranslateStage
from curation.store import Store

FIELD = "outline"


def outline_stage_name(language: str) -> str:
    """The stage_status name of an outline's translation into a language: "outline:kk"."""
    return f"{OUTLINE_STAGE}:{language}"


@dataclass
class OutlineTranslateStage(TranslateStage):
    """Translates the kept outlines into one target language (all competitions or `only`)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.name = outline_stage_name(self.language)

    def pending(self, store: Store, settings: Settings, competitions: Collection[str] | None = None,
                ) -> list[TranslateItem]:
        """Outlines with no translation into this language, a stale or a failed one. `competitions`: look again at
        these only (`curate outline` asks once their outline is written)."""
        chosen = looked_at(store, self.only, competitions)
        if competitions is None:  # whole tables read once
            outlines = {outline.competition: outline for outline in store.outlines()}
            stored = {t.competition: t for t in store.outline_translations(language=self.language)}
            states = {status.competition: status for status in store.statuses(self.name)}
        else:  # a few competitions whose outline was just written: their rows only, not the whole tables again
            slugs = [competition.competition for competition in chosen]
            outlines = {slug: found for slug in slugs if (found := store.outline(slug)) is not None}
            stored = {t.competition: t for slug in slugs
                      for t in store.outline_translations(language=self.language, competition=slug)}
            states = {slug: found for slug in slugs if (found := store.status(slug, self.name)) is not None}
        items = []
        for competition in chosen:
            slug = competition.competition
            outline = outlines.get(slug)
            if outline is None:
                continue  # nothing to translate yet: the outline stage says why
            source = outline.text()
            digest = self.input_hash(source, None)
            previous = stored.get(slug)
            failed = (state := states.get(slug)) is not None and state.status == "failed"
            if previous is not None and previous.input_hash == digest and not failed and not self.force:
                continue
            items.append(TranslateItem(competition=slug, field=FIELD, language=self.language, source_text=source,
                                       names=protected_names(competition), input_hash=digest, feedback=None,
                                       requested=False, previous=previous, expected=(FIELD,)))
        return items

    def record(self, store: Store, result: TranslateResult) -> None:
        """The translation and its status, in one transaction."""
        translation = result.translation
        with store.transaction():
            store.save_outline_translation(translation)
            if translation.flagged:
                detail = (f"{', '.join(check.name for check in translation.failed_checks)} failed after "
                          f"{plural(translation.attempts, 'attempt')}")
                store.set_status(translation.competition, self.name, "needs_human", detail, translation.input_hash)
            else:
                store.set_status(translation.competition, self.name, "done", "translated", translation.input_hash)
