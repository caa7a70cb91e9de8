"""A translation answer that is not a translation (a refusal, our retry text echoed) is asked again and never
stored, not even flagged for a person (issue 14)."""

from __future__ import annotations

import pytest
from curation.checks.masking import mask_identifiers
from tests.stages.test_translate import SOURCES, Translator, add_competition, names_of, retried_once, translate

# The fake translator writes filler words, not translations: see tests/conftest.py adequacy_off.
pytestmark = pytest.mark.usefixtures("adequacy_off")


async def test_a_refusal_is_asked_again_and_the_translation_stored(store, llm_settings, llm_server):
    refusal = lambda good, source: "I'm sorry, but I can't translate this text."  # noqa: E731
    translation, retry = await retried_once(store, llm_settings, llm_server, "be", "house_description", refusal)
    assert translation.attempts == 2 and "sorry" not in translation.text.lower()
    assert "- not a translation: it is a refusal or an apology" in retry


async def test_an_answer_that_is_never_a_translation_fails_the_item_and_stores_nothing(store, llm_settings, llm_server):
    add_competition(store, "houses")
    masked = mask_identifiers(SOURCES["house_description"], names_of(store, "houses")).text
    translator = Translator()
    translator.script("be", masked, "That answer could not be read as a translation. Reply again with only the text.")
    llm_server.respond_with(translator)

    [summary] = await translate(store, llm_settings, languages=("be",))

    assert not summary.complete
    assert any("houses" in failure and "was not one" in failure for failure in map(str, summary.failed))
    assert store.translation("houses", "description", "be") is None
    assert store.translation("houses", "data_card", "be") is not None  # the other items went on
