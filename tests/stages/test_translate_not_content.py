"""A translation answer that is not a translation (a refusal, our retry text echoed) is asked again and never
stored, not even flagged for a person (issue 14)."""

from __future__ import annotations

from curation.checks.masking import mask_identifiers
from curation.prompts import load_prompt
from curation.stages.translate_attempts import QUOTED
from tests.stages.test_translate import (SOURCES, TRANSLATIONS, Translator, add_competition, masked_answer, names_of,
                                         retried_once, translate)


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


async def test_a_retranslation_that_keeps_the_words_a_reviewer_quoted_is_a_translation(store, llm_settings, llm_server):
    # The reviewer quotes the sentence they want kept; the new translation rightly keeps it word for word.
    add_competition(store, "houses")
    names = names_of(store, "houses")
    good = TRANSLATIONS["be"]["house_description"]
    first_sentence = good.split(". ")[0]
    assert len(first_sentence.split()) >= 8
    translator = Translator()
    translator.script("be", mask_identifiers(SOURCES["house_description"], names).text,
                      masked_answer(good, SOURCES["house_description"], names))
    llm_server.respond_with(translator)
    feedback = f"Keep «{first_sentence}» as it is, but say «кошт» for price in the second sentence."
    store.add_request("retranslate", "houses", feedback, field="description", language="be")

    [summary] = await translate(store, llm_settings)

    assert summary.complete, summary.failed
    translation = store.translation("houses", "description", "be")
    assert translation.text == good and translation.attempts == 1 and translation.feedback == feedback


def test_the_prompts_own_words_leave_out_what_it_quotes(settings):
    prompt = load_prompt(settings, "translate")
    previous = "Прадкажыце кошт продажу кожнага дома па яго плошчы, году пабудовы і раёну горада"
    failures = [f"adequacy: added: line 1 clause {previous!r} is not in the English"]
    variables = dict(english="Belarusian", native="беларуская", kind="task description", text="⟦1⟧ text",
                     failures=failures, previous=previous, feedback="Keep «кошт продажу» please",
                     attempt=2, attempts=3, terms=["target → мэтавая зменная"])

    ours = "\n".join(prompt.own_words(QUOTED, **variables))

    assert "Translate the text again and avoid these problems (attempt 2 of 3)." in ours
    assert "Your previous translation failed these automatic checks:" in ours
    assert "asked for a new one, saying:" in ours
    assert "Render these machine-learning terms as the project's glossary does:" in ours
    for quoted in ("Прадкажыце", "кошт продажу", "⟦1⟧ text", "adequacy: added", "мэтавая"):
        assert quoted not in ours
