"""Cost estimates count the retries this project has paid for: a redo confirmation said $0.93 for 133 texts and
the run spent $4.80, because a text failing its checks is asked again (about 2.5 answers a text) and the estimate
priced one."""

from __future__ import annotations

from curation.dry_run import DryRun, PlanRow
from curation.llm.answer import Usage
from curation.llm.pricing import MEASURED_FROM, calls_per_item
from curation.records import LLMCall
from curation.stages.redo import RedoPlan


def _log(store, role: str, items: int, answers_each: int, *, cached: int = 0, failed: int = 0, first: int = 0) -> None:
    for number in range(first, first + items):
        for attempt in range(answers_each + cached + failed):
            store.log_llm_call(LLMCall(
                stage="run", role=role, item=f"comp-{number}/description/kk", provider="openai", model="gpt-4o",
                request_hash=f"{role}-{number}-{attempt}", response="x", cost_usd=0.01,
                cached=attempt >= answers_each and attempt < answers_each + cached,
                error="429" if attempt >= answers_each + cached else None))


def test_the_measured_rate_counts_paid_answers_per_item_not_cache_hits_or_errors(store):
    assert calls_per_item(store.paid_calls_by_role(), "translate") == 1.0  # nothing measured yet
    _log(store, "translate", MEASURED_FROM - 1, 3)
    assert calls_per_item(store.paid_calls_by_role(), "translate") == 1.0  # too few items to measure from
    _log(store, "translate", 20, 3, cached=4, failed=2, first=100)  # cache hits and failed requests cost nothing
    assert calls_per_item(store.paid_calls_by_role(), "translate") == 3.0
    assert calls_per_item(store.paid_calls_by_role(), "describe") == 1.0


def test_redo_and_dry_run_estimates_multiply_by_the_measured_rate(store, settings):
    usage = Usage(1000, 500)
    first = RedoPlan("translate", measured=store.paid_calls_by_role())
    first.add(settings, "translate", usage)
    assert first.cost_usd > 0 and "answers per text" not in first.line()

    _log(store, "translate", 40, 5)
    _log(store, "translate", 40, 0, cached=1, first=100)  # answered from the cache only: no paid answer, not an item here
    measured = store.paid_calls_by_role()
    again = RedoPlan("translate", measured=measured)
    again.add(settings, "translate", usage)
    assert again.cost_usd == 5 * first.cost_usd
    assert "with the answers per text this project has paid so far (translate 5.0)" in again.line()

    plain, retried = DryRun(), DryRun(measured=measured)
    for plan in (plain, retried):
        plan.rows.append(PlanRow("translate", "kk"))
        plan.count(settings, plan.rows[0], "translate", usage)
    assert retried.cost_usd == 5 * plain.cost_usd and retried.calls == plain.calls == 1
