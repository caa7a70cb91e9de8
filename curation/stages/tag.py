"""The tag stage: one application domain per competition, from the vocabulary in curate.toml.

The model reads the competition's name, description and data card and names exactly one domain. An answer
outside the vocabulary is retried with the problem said in the prompt (a bounded number of times) and then
fails the item — unless `allow_new_tags` is on, when it is kept as a new domain flagged for the curator.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from pydantic import BaseModel

from curation.config import Settings
from curation.fingerprint import fingerprint
from curation.llm import LLM, LLMCallFailed
from curation.prompts import Prompt, load_prompt
from curation.records import Competition, DomainTag
from curation.stages.runner import looked_at
from curation.store import Store

STAGE = "tag"
ATTEMPTS = 3  # answers outside the vocabulary tolerated before the item fails


class TagAnswer(BaseModel):
    reason: str
    domain: str


@dataclass(frozen=True)
class TagItem:
    competition: str  # the slug, as the runner expects
    record: Competition
    description: str
    input_hash: str

    @property
    def key(self) -> str:
        return self.competition


@dataclass
class TagResult:
    item: TagItem
    tag: DomainTag
    attempts: int


def _normal(domain: str) -> str:
    return " ".join(domain.strip().strip("\"'.").lower().split())


@dataclass
class TagStage:
    """`curate tag`: one competition or all, `force` to redo finished ones."""

    settings: Settings
    only: str | None = None
    force: bool = False
    name: str = STAGE
    waiting: list[str] = field(default_factory=list)  # competitions with no description yet
    prompt: Prompt = field(init=False)

    def __post_init__(self) -> None:
        self.prompt = load_prompt(self.settings, "tag")

    @property
    def vocabulary(self) -> dict[str, str]:
        """Normalised spelling -> the spelling in curate.toml."""
        return {_normal(domain): domain for domain in self.settings.tag.vocabulary}

    def input_hash(self, competition: Competition, description: str) -> str:
        """Name, description, data card, prompt, model, vocabulary and whether new domains are allowed."""
        return fingerprint({
            "task": [competition.comp_name, description, competition.data_card],
            "prompt": self.prompt.hash,
            "model": self.settings.models.tag,
            "vocabulary": self.settings.tag.vocabulary,
            "allow_new": self.settings.tag.allow_new_tags,
        })

    def pending(self, store: Store, settings: Settings, competitions: Collection[str] | None = None) -> list[TagItem]:
        """Described competitions with no domain, a stale or a failed one; those without a description wait.
        `competitions`: look again at these only (their earlier waiting entries are replaced)."""
        self.waiting = [] if competitions is None else [slug for slug in self.waiting if slug not in set(competitions)]
        items = []
        for competition in looked_at(store, self.only, competitions):
            slug = competition.competition
            described = store.description(slug)
            if described is None:
                self.waiting.append(slug)
                continue
            digest = self.input_hash(competition, described.text)
            stored = store.domain(slug)
            status = store.status(slug, STAGE)
            fresh = stored is not None and stored.input_hash == digest and status is not None and status.status != "failed"
            if fresh and not self.force:
                continue
            items.append(TagItem(competition=slug, record=competition, description=described.text, input_hash=digest))
        return items

    async def run_one(self, item: TagItem, llm: LLM) -> TagResult:
        """Ask for a domain until it is in the vocabulary (or new ones are allowed); fail after ATTEMPTS answers."""
        vocabulary = self.vocabulary
        allow_new = self.settings.tag.allow_new_tags
        error, answered = "", []
        for attempt in range(1, ATTEMPTS + 1):
            messages = self.prompt.render(comp_name=item.record.comp_name, description=item.description,
                                          data_card=item.record.data_card, vocabulary=self.settings.tag.vocabulary,
                                          allow_new=allow_new, error=error)
            answer = await llm.ask(role="tag", messages=messages, schema=TagAnswer, item=item.key,
                                   prompt_hash=self.prompt.hash)
            proposed = " ".join(answer.parsed.domain.split()).strip("\"'.")
            known = vocabulary.get(_normal(proposed))
            if known or (allow_new and proposed):
                tag = DomainTag(competition=item.competition, domain=known or proposed.lower(), is_new=known is None,
                                model=self.settings.models.tag, prompt_hash=self.prompt.hash,
                                input_hash=item.input_hash)
                return TagResult(item=item, tag=tag, attempts=attempt)
            answered.append(proposed)
            # Every rejected answer is repeated, so each retry is a new request rather than a cached copy.
            error = (f"{', '.join(repr(domain) for domain in answered)} "
                     f"{'is' if len(answered) == 1 else 'are'} not one of the allowed domains (try {attempt} of "
                     f"{ATTEMPTS}). Answer with exactly one domain from the list, spelled as written there.")
        tried = ", ".join(repr(domain) for domain in answered)
        raise LLMCallFailed(item.key, "tag", f"answered {tried}, none in [tag] vocabulary after {ATTEMPTS} tries; add "
                                             "the right domain to [tag] vocabulary in curate.toml, or set "
                                             "allow_new_tags = true, and rerun")

    def record(self, store: Store, result: TagResult) -> None:
        """The domain and the status in one transaction; a new domain is flagged for the curator."""
        tag = result.tag
        with store.transaction():
            store.save_domain(tag)
            if tag.is_new:
                store.set_status(tag.competition, STAGE, "needs_human",
                                 f"new domain {tag.domain!r} proposed: add it to [tag] vocabulary in curate.toml to "
                                 "accept it, or pick one there and set allow_new_tags = false", tag.input_hash)
            else:
                store.set_status(tag.competition, STAGE, "done", tag.domain, tag.input_hash)
