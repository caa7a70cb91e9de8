"""The translate stage: each competition's description, data card and domain into one target language.

Per item (competition × field × language): mask the protected spans, ask the `translate` model, restore the
spans, run the automatic checks, and on a failure ask again with the failures named, up to
`translate.max_attempts` (curation/stages/translate_attempts.py). What still fails is stored flagged, with its check
results, for the annotator.

Translation memory: the messages never hold the competition's slug, so the same English text into the same
language with the same prompt and model is one request — the LLM cache answers repeats across runs, and
within a run identical items share one translation (the domain "finance" of five competitions is one call).

Staleness: an item is pending when it has no translation, when its input hash (source text, prompt, model,
reviewer feedback) differs from the stored one, or when review asked for a retranslation. Names protected from
translation (column names of the grading block and the data card) are not part of the hash, so a changed
data card re-translates only the data card.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Collection
from dataclasses import dataclass, field

from curation.checks.glossary import Glossary, entries_for, load_glossary
from curation.checks.masking import mask_identifiers, protected_names
from curation.config import Settings
from curation.excerpt import plural
from curation.fingerprint import fingerprint
from curation.languages import parse_language
from curation.llm import LLM
from curation.prompts import Prompt, load_prompt
from curation.records import FIELDS, Competition, Translation
from curation.review.approval import approved_translations
from curation.review.progress import reopen_review
# Registers translate's column and its section of `curate status` whenever this stage is loaded.
from curation.stages import translate_report  # noqa: F401
from curation.stages.runner import ProgressCallback, RunSummary, looked_at, run_stage
from curation.stages.translate_attempts import KINDS, ROLE, Attempts, Outcome
from curation.stages.translate_sources import english_texts, text_hash
from curation.store import Store

STAGE_PREFIX = "translate:"


def stage_name(language: str) -> str:
    """The stage_status name of the translate stage for a language: "translate:kk"."""
    return f"{STAGE_PREFIX}{language}"


@dataclass(frozen=True)
class TranslateItem:
    competition: str
    field: str
    language: str
    source_text: str
    names: tuple[str, ...]
    input_hash: str
    feedback: str | None  # from the open retranslate request, or the stored translation's still-valid one
    requested: bool  # an open retranslate request is answered by this item
    previous: Translation | None
    expected: tuple[str, ...]  # the fields this competition has texts for in this language

    @property
    def key(self) -> str:
        return f"{self.competition}/{self.field}/{self.language}"


@dataclass
class TranslateResult:
    item: TranslateItem
    translation: Translation


@dataclass
class TranslateStage:
    """`curate translate` for one target language: all competitions or one, `force` to redo finished items."""

    settings: Settings
    language: str
    only: str | None = None
    force: bool = False
    redo_reviewed: bool = False  # also redo stale texts a person approved or fixed (they go back to review)
    waiting: list[str] = field(default_factory=list)  # "slug/field: why" for texts not written yet
    pinned: list[Translation] = field(default_factory=list)  # approved texts left as they are though stale
    prompt: Prompt = field(init=False)
    qe_prompt: Prompt | None = field(init=False)
    attempts: Attempts = field(init=False, repr=False)
    glossary: Glossary = field(init=False, repr=False)
    name: str = field(init=False)
    # The call parameters that differ from the defaults: the same for every text, so worked out once, not per text.
    params: dict = field(init=False, repr=False)
    _shared: dict[str, asyncio.Future] = field(default_factory=dict, init=False, repr=False)
    # (approved (competition, field) pairs, open retranslate requests' feedback) as of the last full pending()
    _context: tuple[set, dict] | None = field(default=None, init=False, repr=False)
    _planned: list[TranslateItem] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.language = parse_language(self.language).code
        self.name = stage_name(self.language)
        self.prompt = load_prompt(self.settings, "translate")
        self.glossary = load_glossary(self.settings.path("glossary"))
        self.qe_prompt = load_prompt(self.settings, "qe") if self.settings.models.qe else None
        self.params = self.settings.changed_parameters(ROLE)
        self.attempts = Attempts(self.settings, self.prompt, self.qe_prompt, self._request_variables)

    def terms(self, text: str) -> list[str]:
        """The glossary's renderings of the ML terms an English text uses, as the prompt lists them."""
        return [f"{english} → {rendering}" for english, rendering in entries_for(self.glossary, text, self.language)]

    def input_hash(self, source_text: str, feedback: str | None) -> str:
        """Source text, prompt, model, changed call parameters, reviewer feedback and the glossary renderings the
        prompt gives: what changes a translation."""
        inputs = {"source": text_hash(source_text), "prompt": self.prompt.hash, "model": self.settings.models.translate,
                  "feedback": feedback or ""}
        terms = self.terms(source_text)
        if terms:  # a glossary edit re-translates exactly the texts whose terms it changed
            inputs["terms"] = terms
        params = self.params
        if self.qe_prompt is not None:  # turning QE on re-checks the stored texts (translations come from the cache)
            inputs["qe"] = [self.settings.models.qe, self.qe_prompt.hash]
        return fingerprint({**inputs, "params": params} if params else inputs)

    def plan(self, store: Store, settings: Settings) -> list[TranslateItem]:
        """pending(), kept for this stage's run: the run does exactly what the redo confirmation counted, even if
        another command added work while the curator was reading the question."""
        self._planned = None
        self._planned = self.pending(store, settings)
        return self._planned

    def pending(self, store: Store, settings: Settings, competitions: Collection[str] | None = None,
                ) -> list[TranslateItem]:
        """Fields with no translation, a stale one, or an open retranslate request; missing sources wait.

        `competitions`: look again at these only, with the approvals and retranslate requests read by the last full
        look (`curate run` asks for a competition's translations once its description and domain are final, and no
        translation of it is written in between); their earlier waiting and pinned entries are replaced."""
        if competitions is None and self._planned is not None:  # planned for this run (plan): taken once
            items, self._planned = self._planned, None
            return items
        if competitions is None or self._context is None:
            everything = store.translations(language=self.language)
            requests: dict[tuple[str, str], list[str]] = {}
            for request in store.open_requests("retranslate", language=self.language):
                requests.setdefault((request["competition"], request["field"]), []).append(request["feedback"])
            self._context = (approved_translations(store, self.language, everything), requests)
        chosen = looked_at(store, self.only, competitions)
        if competitions is None:
            self.waiting, self.pinned = [], []
            stored = {(t.competition, t.field): t for t in everything}
        else:
            wanted = set(competitions)
            self.waiting = [line for line in self.waiting if line.partition("/")[0] not in wanted]
            self.pinned = [t for t in self.pinned if t.competition not in wanted]
            stored = {(t.competition, t.field): t for c in chosen
                      for t in store.translations(language=self.language, competition=c.competition)}
        approved, requests = self._context
        sources = english_texts(store, chosen)
        items = []
        for competition in chosen:
            slug = competition.competition
            texts = sources[slug]
            for name, why in (("description", "run `curate describe`"), ("domain", "run `curate tag`")):
                if texts[name] is None:
                    self.waiting.append(f"{slug}/{name}: no English text yet ({why})")
            expected = tuple(name for name in FIELDS if texts[name])
            names = protected_names(competition)
            for name in expected:
                source = texts[name]
                previous = stored.get((slug, name))
                asked = requests.get((slug, name))
                if asked:
                    feedback = "\n".join(dict.fromkeys(text for text in asked if text)) or None
                else:
                    # A reviewer's feedback stays part of the input while the English text it was about stays.
                    same_source = previous is not None and previous.source_hash == text_hash(source)
                    feedback = previous.feedback if same_source else None
                digest = self.input_hash(source, feedback)
                if previous is not None and previous.input_hash == digest and not asked and not self.force:
                    continue
                if (previous is not None and not asked and (slug, name) in approved and not self.redo_reviewed
                        and previous.source_hash == text_hash(source)):
                    # A person approved or wrote this text: a new prompt or model does not undo that.
                    if previous.input_hash != digest:
                        self.pinned.append(previous)
                    continue
                items.append(TranslateItem(
                    competition=slug, field=name, language=self.language, source_text=source,
                    # Domain tags are plain phrases: no names, so one tag is one request across competitions.
                    names=() if name == "domain" else names, input_hash=digest, feedback=feedback,
                    requested=bool(asked), previous=previous, expected=expected))
        return items

    def _request_variables(self, field_name: str, text: str, feedback: str = "", failures: list[str] | None = None,
                           previous: str = "", attempt: int = 1) -> dict:
        """The translate prompt's variables for one attempt at `text` (identifiers already masked)."""
        language = self.settings.language(self.language)  # the project's native name, when it gives one
        return dict(english=language.english, native=language.native, kind=KINDS[field_name], text=text,
                    failures=failures or [], previous=previous, feedback=feedback, attempt=attempt,
                    attempts=self.settings.translate.max_attempts, terms=self.terms(text))

    def first_request(self, field_name: str, text: str, feedback: str = "") -> list[dict]:
        """The messages of a translation's first attempt at `text` (already masked): what dry runs and the redo
        estimate count."""
        return self.prompt.render(**self._request_variables(field_name, text, feedback))

    async def run_one(self, item: TranslateItem, llm: LLM) -> TranslateResult:
        """Translate one field; identical requests in this run wait for the first one instead of asking again."""
        masked = mask_identifiers(item.source_text, item.names)
        key = fingerprint([masked.text, masked.spans, item.names, item.feedback or ""])
        if key not in self._shared:
            self._shared[key] = asyncio.ensure_future(self.attempts.run(item, llm))
        outcome: Outcome = await asyncio.shield(self._shared[key])
        previous = item.previous
        retranslated = item.requested or (item.feedback is not None)
        translation = Translation(
            competition=item.competition, field=item.field, language=item.language, source_text=item.source_text,
            source_hash=text_hash(item.source_text), text=outcome.text, model=self.settings.models.translate,
            prompt_hash=self.prompt.hash, attempts=outcome.attempts, checks=outcome.checks,
            flagged=any(not check.passed for check in outcome.checks),
            provenance="retranslated" if retranslated else "machine", feedback=item.feedback,
            round=(previous.round + 1 if item.requested and previous else previous.round if previous else 1),
            input_hash=item.input_hash)
        return TranslateResult(item=item, translation=translation)

    def record(self, store: Store, result: TranslateResult) -> None:
        """The translation, the answered request and the competition's status for this language, in one transaction."""
        item, translation = result.item, result.translation
        previous = item.previous
        with store.transaction():
            store.save_translation(translation)
            if item.requested:
                store.resolve_requests("retranslate", item.competition, item.field, item.language)
            self._set_status(store, item)
            if previous is not None and (previous.text, previous.source_text, previous.round) != (
                    translation.text, translation.source_text, translation.round):
                reopen_review(store, item.competition, item.field, item.language)

    def _set_status(self, store: Store, item: TranslateItem) -> None:
        translations = {t.field: t for t in store.translations(language=item.language, competition=item.competition)}
        missing = [name for name in item.expected if name not in translations]
        flagged = [t for name, t in translations.items() if name in item.expected and t.flagged]
        current = store.status(item.competition, self.name) if missing else None
        if current is not None and current.status == "failed" and any(
                current.detail.startswith(f"{item.competition}/{name}/") for name in missing):
            # A field of this competition failed (this run or an earlier one) and is still missing: that stays its
            # state, not "not translated yet", whichever of its fields finished last.
            return
        if flagged:
            detail = "; ".join(f"{t.field}: {', '.join(check.name for check in t.failed_checks)} failed after "
                               f"{plural(t.attempts, 'attempt')}" for t in flagged)
            store.set_status(item.competition, self.name, "needs_human", detail)
        elif missing:
            store.set_status(item.competition, self.name, "pending", f"not translated yet: {', '.join(missing)}")
        else:
            store.set_status(item.competition, self.name, "done", plural(len(item.expected), "field"))


async def translate_languages(store: Store, settings: Settings, llm: LLM, languages: list[str],
                              only: str | None = None, force: bool = False,
                              progress: ProgressCallback | None = None,
                              redo_reviewed: bool = False, stages: list[TranslateStage] | None = None,
                              ) -> list[tuple[TranslateStage, RunSummary]]:
    """Run the stage for every language at once with one LLM client (one budget, one cache, one rate limiter):
    the limiter stays busy until the last language is done instead of idling at each language's slowest items, and
    in batch mode each round's batch holds the requests of every language. A budget stop stops every language.
    `stages`: the languages' stages already built (and planned) by the caller, instead of new ones."""
    if stages is None:
        stages = [TranslateStage(settings, language, only=only, force=force, redo_reviewed=redo_reviewed)
                  for language in languages]
    runs = [asyncio.ensure_future(run_stage(stage, store, settings, llm, progress=progress)) for stage in stages]
    try:
        summaries = await asyncio.gather(*runs)
    finally:  # a setup error in one language (a missing key) ends the others before the client closes
        for run in runs:
            run.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
    return list(zip(stages, summaries))


