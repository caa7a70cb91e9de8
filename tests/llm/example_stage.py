"""A minimal LLM stage used by the runner tests and the kill-and-resume worker: one domain per competition."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel

from curation.config import Settings
from curation.llm import LLM
from curation.store import Store


class Domain(BaseModel):
    domain: str


@dataclass(frozen=True)
class Item:
    key: str
    competition: str


@dataclass(frozen=True)
class Tagged:
    competition: str
    domain: str


@dataclass
class DomainStage:
    """Tags each slug with a domain; its output is its stage_status row (done, detail = domain)."""

    slugs: list[str]
    name: str = "example-tag"
    failures: list[tuple[str, str]] = field(default_factory=list)

    def pending(self, store: Store, settings: Settings) -> list[Item]:
        done = {s.competition for s in store.statuses() if s.stage == self.name and s.status == "done"}
        return [Item(key=slug, competition=slug) for slug in self.slugs if slug not in done]

    async def run_one(self, item: Item, llm: LLM) -> Tagged:
        messages = [{"role": "system", "content": "Name the domain of a Kaggle competition."},
                    {"role": "user", "content": f"Competition: {item.competition}"}]
        answer = await llm.ask(role="tag", messages=messages, schema=Domain, item=item.key, prompt_hash="example")
        return Tagged(item.competition, answer.parsed.domain)

    def record(self, store: Store, result: Tagged) -> None:
        store.set_status(result.competition, self.name, "done", detail=result.domain)

    def record_failure(self, store: Store, item: Item, reason: str) -> None:
        self.failures.append((item.key, reason))
