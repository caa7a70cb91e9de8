"""What a run would redo, and what it would likely cost, before it sends anything.

A changed prompt or model makes every text it produced stale; a curator should see how many texts per language
that means and roughly what it costs before paying for it (`curate translate` and `curate describe` ask first
when more than HANDFUL texts would be redone). Texts never written before and retranslations review asked for
are not redos: they are the work the curator expects.

The cost is an estimate: the rendered prompt's input tokens (about four bytes a token) and, for a translation,
twice the English text's tokens out (nothing when the LLM cache answers its first request, as when qe is turned on
and the translations are checked again); for a description, one describe and one score call with 800 and 400 tokens
out, at the `[prices]` of each role's model, times the answers per item this project has paid so far for that role
(retries after failed checks or invalid answers; one until ten items are in the call log).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from curation.checks.masking import mask_identifiers
from curation.config import Settings
from curation.llm.answer import Usage
from curation.llm.client import LLM
from curation.llm.pricing import (TYPICAL_OUTPUT_TOKENS, calls_per_item, estimate_input_tokens, estimated_cost,
                                  translation_tokens_out)
from curation.store import Store

HANDFUL = 5  # more redone texts than this are confirmed first
DESCRIBE_OUT, SCORE_OUT = TYPICAL_OUTPUT_TOKENS["describe"], TYPICAL_OUTPUT_TOKENS["score"]


@dataclass
class RedoPlan:
    """Texts a run would write again, per language ("en" for descriptions), and their estimated cost."""

    what: str
    counts: dict[str, int] = field(default_factory=dict)
    cost_usd: float = 0.0
    unpriced: set[str] = field(default_factory=set)  # provider:model without a [prices] entry
    measured: dict[str, tuple[int, int]] = field(default_factory=dict)  # Store.paid_calls_by_role()
    rates: dict[str, float] = field(default_factory=dict)  # role -> answers paid per item, as applied
    from_cache: int = 0  # redone texts whose first request the LLM cache answers (turning qe on, a model switched back)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def line(self) -> str:
        """One line: how many texts per language and the estimate."""
        per = ", ".join(f"{language} {count}" for language, count in self.counts.items() if count)
        cost = f"estimated cost ${self.cost_usd:.2f} from [prices]"
        retried = [f"{role} {rate:.1f}" for role, rate in sorted(self.rates.items()) if rate > 1.0]
        if retried:
            cost += f", with the answers per text this project has paid so far ({', '.join(retried)})"
        if self.from_cache:
            cost += f"; {self.from_cache} of them answered from the LLM cache, at no cost"
        if self.unpriced:
            cost += f" (not counting {', '.join(sorted(self.unpriced))}: no [prices] entry)"
        return f"{self.what} would redo {self.total} texts that exist already ({per}); {cost}"

    def add(self, settings: Settings, role: str, usage: Usage) -> None:
        """One text's call of `role`, priced with the retries this project measured for the role."""
        cost, unpriced = estimated_cost(settings, role, usage)
        self.rates[role] = calls_per_item(self.measured, role)
        self.cost_usd += cost * self.rates[role]
        if unpriced:
            self.unpriced.add(unpriced)


def translate_redo(store: Store, settings: Settings, stages: list) -> RedoPlan:
    """Translations the given TranslateStages would replace (not first translations, not review's requests)."""
    plan = RedoPlan("translate", measured=store.paid_calls_by_role())
    cache = LLM(settings, store)  # read only: a request it answered before costs nothing again
    for stage in stages:
        redo = [item for item in stage.plan(store, settings) if item.previous is not None and not item.requested]
        plan.counts[stage.language] = len(redo)
        for item in redo:
            masked = mask_identifiers(item.source_text, item.names).text
            messages = stage.first_request(item.field, masked, feedback=item.feedback or "")
            usage = Usage(estimate_input_tokens(messages, None), translation_tokens_out(item.source_text))
            call, _, _ = cache.request("translate", messages, None, prompt_hash=stage.prompt.hash)
            if cache.cached_answer(call, None) is not None:
                plan.from_cache += 1
            else:
                plan.add(settings, "translate", usage)
            if settings.models.qe:  # a translation that passes the checks is read by the qe model next
                plan.add(settings, "qe", Usage(usage.tokens_in + usage.tokens_out, TYPICAL_OUTPUT_TOKENS["qe"]))
    return plan


def describe_redo(store: Store, settings: Settings, stage) -> RedoPlan:
    """Descriptions the DescribeStage would write again (not first descriptions, not review's requests)."""
    plan = RedoPlan("describe", measured=store.paid_calls_by_role())
    redo = [item for item in stage.pending(store, settings)
            if not item.feedback and not item.person_written and store.description(item.competition) is not None]
    plan.counts[settings.project.source_language] = len(redo)
    for item in redo:
        task = stage.task_variables(item)
        described = stage.prompts["describe"].render(**task, feedback="")
        plan.add(settings, "describe", Usage(estimate_input_tokens(described, None), DESCRIBE_OUT))
        record = item.record
        scored = stage.prompts["score"].render(comp_name=record.comp_name, data_type=record.data_type,
                                               metric=record.metric, data_card=record.data_card,
                                               description=store.description(item.competition).text)
        plan.add(settings, "score", Usage(estimate_input_tokens(scored, None), SCORE_OUT))
    return plan
