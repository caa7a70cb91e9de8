"""Batch mode against the fake's batch endpoints: one batch per round, the same cache as online answers at the
batch price; the requests a batch did not answer because they expired or met a passing fault go into the next batch
of the same run (up to batch_resubmissions times), the others are left pending or asked online."""

from __future__ import annotations

import pytest

from curation.llm import LLM
from curation.stages.runner import run_stage
from tests.fakes.llm_server import bad_request, bare_envelope, rate_limited, server_error
from tests.llm.example_stage import DomainStage

SLUGS = ["titanic", "house-prices", "digit-recognizer"]


def batch_settings(settings, **llm):
    """`settings` in batch mode with a poll interval short enough for a test."""
    return settings.model_copy(update={"llm": settings.llm.model_copy(
        update={"mode": "batch", "batch_poll_seconds": 0.01, **llm})})


def by_slug(request):
    return {"domain": f"domain of {request.user_text.split(': ')[1]}"}


async def run(stage, store, settings):
    async with LLM(settings, store, stage=stage.name) as llm:
        return await run_stage(stage, store, settings, llm)


def domains(store, stage="example-tag"):
    return {s.competition: s.detail for s in store.statuses() if s.stage == stage and s.status == "done"}


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_a_round_is_one_batch_and_its_answers_are_the_cache_an_online_run_reads(llm_server, llm_settings, store,
                                                                                      provider):
    settings = llm_settings
    if provider == "anthropic":
        settings = settings.model_copy(update={"models": settings.models.model_copy(
            update={"tag": "anthropic:claude-batch-test"})})
    llm_server.respond_with(by_slug)

    summary = await run(DomainStage(SLUGS), store, batch_settings(settings))

    assert summary.done == 3 and summary.complete, summary.lines()
    assert [(api, n) for api, _, n in llm_server.batches.created] == [(provider, 3)]
    assert domains(store) == {slug: f"domain of {slug}" for slug in SLUGS}
    assert [batch.closed for batch in store.batches()] == [True]
    # An online run of the same stage finds every answer in the cache: nothing is sent.
    requests = llm_server.count()
    store.db.execute("DELETE FROM stage_status")
    again = await run(DomainStage(SLUGS), store, settings)
    assert again.done == 3 and again.cache_hits == 3
    assert llm_server.count() == requests


async def test_batch_answers_cost_half_the_online_price_and_hash_like_online_calls(llm_server, llm_settings, project):
    from curation.store import Store

    llm_server.respond_with(by_slug)
    with Store(project / "online.sqlite") as online_store:
        await run(DomainStage(SLUGS), online_store, llm_settings)
        online = {c.request_hash: c for c in online_store.llm_calls()}
    with Store(project / "batch.sqlite") as batch_store:
        await run(DomainStage(SLUGS), batch_store, batch_settings(llm_settings))
        batch = {c.request_hash: c for c in batch_store.llm_calls()}

    assert set(batch) == set(online)  # the same cache keys
    for request_hash, call in batch.items():
        assert call.tokens_in == online[request_hash].tokens_in
        assert call.cost_usd == pytest.approx(online[request_hash].cost_usd / 2)
        assert call.cost_usd > 0


def on(settings, provider):
    """`settings` with the tag role on `provider`'s SDK."""
    if provider == "openai":
        return settings
    return settings.model_copy(update={"models": settings.models.model_copy(
        update={"tag": "anthropic:claude-batch-test"})})


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("fault", [server_error(500), rate_limited(), server_error(529)], ids=["500", "429", "529"])
async def test_expired_and_errored_requests_go_into_the_next_batch_of_the_same_run(llm_server, llm_settings, store,
                                                                                   provider, fault):
    # They used to be left pending: with expired batches and a 10% error rate, 5 runs to finish 24 descriptions.
    faults = iter([fault])  # the first request the batch processes meets a passing fault
    llm_server.respond_with(lambda request: next(faults, None) or by_slug(request))
    llm_server.batches.expire_next(answered=2)  # ... the second is answered, the other two expire
    slugs = [*SLUGS, "spaceship-titanic"]

    summary = await run(DomainStage(slugs), store, batch_settings(on(llm_settings, provider)))

    assert summary.done == 4 and summary.complete and not summary.left_pending, summary.lines()
    assert [(api, n) for api, _, n in llm_server.batches.created] == [(provider, 4), (provider, 3)]
    assert domains(store) == {slug: f"domain of {slug}" for slug in slugs}
    assert all(call.error is None for call in store.llm_calls())


async def test_a_request_unanswered_batch_after_batch_goes_in_at_most_batch_resubmissions_more(
        llm_server, llm_settings, store):
    llm_server.respond_with(lambda request: server_error(503) if "titanic" in request.user_text else by_slug(request))

    summary = await run(DomainStage(SLUGS), store, batch_settings(llm_settings, batch_resubmissions=2))

    assert summary.done == 2 and not summary.failed
    assert [n for _, _, n in llm_server.batches.created] == [3, 1, 1]
    [(item, reason)] = summary.left_pending
    assert item == "titanic"
    assert "HTTP 503" in reason and "unanswered by 3 batches this run; batch_resubmissions = 2" in reason


async def test_an_expired_batch_leaves_its_unanswered_items_pending_and_a_rerun_submits_only_those(
        llm_server, llm_settings, store):
    llm_server.respond_with(by_slug)
    llm_server.batches.expire_next(answered=1)
    settings = batch_settings(llm_settings, batch_resubmissions=0)  # as every run did before resubmissions

    first = await run(DomainStage(SLUGS), store, settings)

    assert first.done == 1 and not first.failed
    assert len(first.left_pending) == 2
    lines = first.lines()
    assert sum("pending" in line and "expired" in line and "--batch-fallback online" in line for line in lines) == 2
    assert not [s for s in store.statuses() if s.status == "failed"]

    second = await run(DomainStage(SLUGS), store, settings)

    assert second.done == 2 and second.complete
    assert [n for _, _, n in llm_server.batches.created] == [3, 2]
    assert len(domains(store)) == 3


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_a_batch_answer_without_the_apis_fields_goes_into_the_next_batch_and_uses_no_validation_retry(
        llm_server, llm_settings, store, provider):
    bare = iter([bare_envelope()])
    llm_server.respond_with(lambda request: (next(bare, None) if "titanic" in request.user_text else None)
                            or by_slug(request))
    settings = batch_settings(on(llm_settings, provider), validation_retries=0)

    summary = await run(DomainStage(SLUGS), store, settings)

    assert summary.done == 3 and summary.complete and not summary.left_pending, summary.lines()
    assert [(api, n) for api, _, n in llm_server.batches.created] == [(provider, 3), (provider, 1)]
    assert domains(store)["titanic"] == "domain of titanic"


async def test_a_batch_answer_without_the_apis_fields_is_asked_again_by_the_next_run_not_read_back(
        llm_server, llm_settings, store):
    # Kept as the stored answer, it was read back (and broken) on every rerun: the item could never finish.
    bare = iter([bare_envelope()])
    llm_server.respond_with(lambda request: (next(bare, None) if "titanic" in request.user_text else None)
                            or by_slug(request))
    settings = batch_settings(llm_settings, batch_resubmissions=0)

    first = await run(DomainStage(SLUGS), store, settings)
    [(item, reason)] = first.left_pending
    assert item == "titanic" and "without choices" in reason

    second = await run(DomainStage(SLUGS), store, settings)

    assert second.done == 1 and second.complete, second.lines()
    assert [n for _, _, n in llm_server.batches.created] == [3, 1]
    assert domains(store)["titanic"] == "domain of titanic"


async def test_a_per_request_error_is_one_line_and_the_fallback_finishes_it_online(llm_server, llm_settings, store):
    refused = set()

    def refuse_titanic_once(request):
        if "titanic" in request.user_text and "titanic" not in refused:
            refused.add("titanic")
            return bad_request("this request is malformed")
        return by_slug(request)

    llm_server.respond_with(refuse_titanic_once)
    first = await run(DomainStage(SLUGS), store, batch_settings(llm_settings))
    assert first.done == 2
    assert first.left_pending == [("titanic", first.left_pending[0][1])]
    assert "HTTP 400 (this request is malformed)" in first.left_pending[0][1]

    refused.clear()
    llm_server.reset()
    fallback = await run(DomainStage(SLUGS), store, batch_settings(llm_settings, batch_fallback="online"))

    assert fallback.done == 1 and fallback.complete
    # the retried batch refused it again; the fallback then asked it online
    assert [r.path for r in llm_server.requests] == ["/v1/chat/completions"] * 2
    assert domains(store)["titanic"] == "domain of titanic"


async def test_an_invalid_answer_is_corrected_in_the_next_batch(llm_server, llm_settings, store):
    answers = iter([{"wrong": 1}])

    def invalid_first(request):
        if len(request.messages) == 2 and "titanic" in request.user_text:
            return next(answers, None) or by_slug(request)
        return by_slug(request) if len(request.messages) == 2 else {"domain": "corrected"}

    llm_server.respond_with(invalid_first)
    summary = await run(DomainStage(SLUGS), store, batch_settings(llm_settings))

    assert summary.done == 3 and summary.complete
    assert [n for _, _, n in llm_server.batches.created] == [3, 1]
    assert domains(store)["titanic"] == "corrected"
    [call] = [c for c in store.llm_calls() if c.item == "titanic"]
    assert call.attempts == 2 and call.response == '{"domain": "corrected"}'


async def test_batch_answers_count_their_tokens_as_online_answers_do(llm_server, llm_settings, project):
    # the live progress line shows llm.tokens: a batch run must not show 0 tokens
    from curation.store import Store

    llm_server.respond_with(by_slug)
    counted = {}
    for name, settings in (("online", llm_settings), ("batch", batch_settings(llm_settings))):
        with Store(project / f"{name}.sqlite") as store:
            async with LLM(settings, store, stage="example-tag") as llm:
                await run_stage(DomainStage(SLUGS), store, settings, llm)
            logged = sum(call.tokens_in + call.tokens_out for call in store.llm_calls())
            counted[name] = (llm.calls, llm.tokens, logged)
    assert counted["batch"] == counted["online"]
    calls, tokens, logged = counted["batch"]
    assert calls == 3 and tokens == logged > 0


async def test_an_answer_that_never_validates_fails_its_item_after_validation_retries_batches(llm_server, llm_settings,
                                                                                              store):
    def never_valid_for_titanic(request):
        return {"wrong": 1} if "titanic" in request.messages[1]["content"] else by_slug(request)

    llm_server.respond_with(never_valid_for_titanic)
    settings = batch_settings(llm_settings)
    tries = settings.llm.validation_retries + 1
    async with LLM(settings, store, stage="example-tag") as llm:
        summary = await run_stage(DomainStage(SLUGS), store, settings, llm)
        failures = llm.failures

    assert summary.done == 2 and not summary.left_pending and failures == 1
    [(key, reason)] = summary.failed
    assert key == "titanic" and reason.startswith(f"no usable answer after {tries} tries: ")
    assert [n for _, _, n in llm_server.batches.created] == [3] + [1] * (tries - 1)
    [call] = [c for c in store.llm_calls() if c.item == "titanic"]
    assert call.attempts == tries and call.response is None and call.error in reason
    assert call.cost_usd > 0  # the answers that came back are paid for, at the batch price, and logged
