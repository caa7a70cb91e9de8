"""The tag stage against the fake LLM server: one domain from the vocabulary, retried, failed or flagged as new."""

from __future__ import annotations

from curation.config import Settings, TagSettings
from curation.llm import LLM
from curation.records import Competition, Description, IngestedCompetition
from curation.stages.runner import run_stage
from curation.stages.tag import TagStage
from curation.store import Store
from tests.stages.scripted_models import TaskWriter


def add_described(store: Store, slug: str, name: str, text: str = "Predict the sale price of each home.") -> None:
    competition = Competition(competition=slug, comp_name=name, comp_type="Featured", data_type="tabular",
                              metric="RMSE", data_card="One row per home.")
    store.save_ingested(IngestedCompetition(competition=competition))
    store.save_description(Description(competition=slug, text=text, provenance="machine", grade="C", rounds=1))


async def tag(store: Store, settings: Settings, **options):
    stage = TagStage(settings, **options)
    async with LLM(settings, store, stage=stage.name) as llm:
        return await run_stage(stage, store, settings, llm), stage


async def test_domain_from_the_vocabulary_in_its_listed_spelling(store, llm_settings, llm_server) -> None:
    llm_server.respond_with(TaskWriter(domains={"House Prices": ["Real Estate."]}))
    add_described(store, "house-prices", "House Prices")

    summary, _ = await tag(store, llm_settings)

    domain = store.domain("house-prices")
    assert summary.done == 1 and (domain.domain, domain.is_new, domain.model) == ("real estate", False, "openai:gpt-5.4-mini-2026-03-17")
    assert store.status("house-prices", "tag").status == "done"
    request = llm_server.requests[0]
    assert "- human resource management" in request.system_text and "Predict the sale price" in request.user_text


async def test_an_answer_outside_the_vocabulary_is_retried_with_the_error(store, llm_settings, llm_server) -> None:
    writer = TaskWriter(domains={"Titanic": ["maritime disasters", "maritime studies"]})
    llm_server.respond_with(writer)
    add_described(store, "titanic", "Titanic")

    await tag(store, llm_settings)

    assert store.domain("titanic").domain == "maritime studies" and writer.count("tag") == 2
    assert "'maritime disasters' is not one of the allowed domains" in llm_server.requests[1].user_text


async def test_repeated_answers_outside_the_vocabulary_fail_that_item_only(store, llm_settings, llm_server) -> None:
    writer = TaskWriter(domains={"Titanic": ["aviation"], "House Prices": ["real estate"]})
    llm_server.respond_with(writer)
    add_described(store, "titanic", "Titanic")
    add_described(store, "house-prices", "House Prices")

    summary, _ = await tag(store, llm_settings)

    assert summary.done == 1 and [key for key, _ in summary.failed] == ["titanic"]
    assert writer.count("tag", "Titanic") == 3 and store.domain("titanic") is None
    status = store.status("titanic", "tag")
    assert status.status == "failed" and "'aviation'" in status.detail and "[tag] vocabulary" in status.detail
    assert store.domain("house-prices").domain == "real estate"


async def test_new_domains_are_kept_and_flagged_when_allowed(store, llm_settings, llm_server) -> None:
    settings = llm_settings.model_copy(update={"tag": TagSettings(vocabulary=["finance", "sports"], allow_new_tags=True)})
    llm_server.respond_with(TaskWriter(domains={"Titanic": ["Maritime Disasters"]}))
    add_described(store, "titanic", "Titanic")

    await tag(store, settings)

    domain = store.domain("titanic")
    assert (domain.domain, domain.is_new) == ("maritime disasters", True)
    status = store.status("titanic", "tag")
    assert status.status == "needs_human" and "new domain 'maritime disasters'" in status.detail
    assert "you may propose one new domain" in llm_server.requests[0].system_text


async def test_competitions_without_a_description_wait(store, llm_settings, llm_server) -> None:
    store.save_ingested(IngestedCompetition(competition=Competition(
        competition="titanic", comp_name="Titanic", comp_type="Featured", data_type="tabular", metric="Accuracy")))

    summary, stage = await tag(store, llm_settings)

    assert summary.done == 0 and stage.waiting == ["titanic"] and llm_server.count() == 0


async def test_rerun_sends_nothing_and_a_changed_description_is_tagged_again(store, llm_settings, llm_server) -> None:
    writer = TaskWriter(domains={"House Prices": ["real estate"], "Titanic": ["maritime studies"]})
    llm_server.respond_with(writer)
    add_described(store, "house-prices", "House Prices")
    add_described(store, "titanic", "Titanic")
    await tag(store, llm_settings)
    sent = llm_server.count()

    assert (await tag(store, llm_settings))[0].done == 0 and llm_server.count() == sent

    add_described(store, "titanic", "Titanic", text="Predict which passengers survived.")
    summary, _ = await tag(store, llm_settings)
    assert summary.done == 1 and writer.count("tag", "Titanic") == 2 and writer.count("tag", "House Prices") == 1
