"""Every language of a translate run at once, on one client: seen from the fake server, the languages' requests
are in flight together, the shared requests-per-minute limit still holds, and each language's summary counts its
own calls."""

from __future__ import annotations

import pytest

from curation.llm import LLM
from curation.stages.translate import TranslateStage, translate_languages
from curation.store import Store
from tests.fakes.llm_server import pointed_at, slow
from tests.llm.test_limits import most_in_any_window
from tests.stages.test_translate import SOURCES, Translator, add_competition, target_of


LANGUAGES = ("be", "kk", "ja")
LATENCY = 0.2


@pytest.mark.real_pacing  # the limit is measured on the server's side, in real time
async def test_languages_are_translated_at_once_under_the_shared_limit(llm_server, settings, store: Store):
    for number in range(4):  # texts of their own: no request is shared between competitions
        add_competition(store, f"houses-{number}", description=f"Predict the price of house number {number}.",
                        data_card=SOURCES["titanic_data_card"].replace("891", str(891 + number)))
    translator = Translator()
    llm_server.respond_with(lambda request: slow(LATENCY, translator(request)))
    limited = pointed_at(settings, llm_server, requests_per_minute=1200)  # one request every 50 ms

    async with LLM(limited, store, stage="translate") as llm:
        runs = await translate_languages(store, limited, llm, list(LANGUAGES))

    requests = sorted(llm_server.requests, key=lambda request: request.received_at)
    languages = [target_of(request.user_text) for request in requests]
    # 4 descriptions, 4 data cards and the one shared domain per language (some retried after a failed check);
    # each language's summary counts its own calls, though the three share one client
    assert {stage.language: summary.done for stage, summary in runs} == dict.fromkeys(LANGUAGES, 12)
    assert {stage.language: summary.calls for stage, summary in runs} == {
        language: languages.count(language) for language in LANGUAGES}
    assert all(languages.count(language) >= 9 for language in LANGUAGES)
    # One after another, the requests would come as be… kk… ja… (two changes of language); at once, every
    # language is asked before any is finished, and a request of each is in flight while another's is.
    changes = sum(1 for before, after in zip(languages, languages[1:]) if before != after)
    assert changes > 2 * len(LANGUAGES), languages
    assert set(languages[:6]) == set(LANGUAGES), languages
    in_flight_together = {(a, b) for first, a in zip(requests, languages) for second, b in zip(requests, languages)
                          if a != b and first.received_at <= second.received_at < first.received_at + LATENCY}
    assert {frozenset(pair) for pair in in_flight_together} == {frozenset(pair) for pair in
                                                               (("be", "kk"), ("be", "ja"), ("kk", "ja"))}
    # ... and together they keep to the one limit: at most 1 + 20 t requests in any t seconds (plus the arrival
    # jitter of a loaded machine that tests/llm/test_limits.py allows), never a burst of the three languages.
    arrivals = [request.received_at for request in requests]
    assert most_in_any_window(arrivals, 1.0) <= 24
    assert most_in_any_window(arrivals, 0.25) <= 9


async def test_a_planned_run_does_what_was_planned_and_the_next_run_looks_again(llm_server, llm_settings, store: Store):
    # `curate translate` plans each language once (for its redo confirmation) and runs that plan: a competition
    # that arrives in between is not part of what the curator confirmed; the next run finds it.
    add_competition(store, "houses")
    llm_server.respond_with(Translator())
    planned = [TranslateStage(llm_settings, language) for language in ("be", "kk")]
    assert {stage.language: len(stage.plan(store, llm_settings)) for stage in planned} == {"be": 3, "kk": 3}
    add_competition(store, "titanic", description=SOURCES["titanic_description"], domain="maritime studies")

    async with LLM(llm_settings, store, stage="translate") as llm:
        runs = await translate_languages(store, llm_settings, llm, ["be", "kk"], stages=planned)
        assert [(stage.language, summary.done) for stage, summary in runs] == [("be", 3), ("kk", 3)]
        assert {t.competition for t in store.translations()} == {"houses"}
        again = await translate_languages(store, llm_settings, llm, ["be", "kk"])

    assert [summary.done for _, summary in again] == [3, 3]  # titanic's description, data card and domain
    assert {(t.competition, t.language) for t in store.translations()} == {
        (slug, language) for slug in ("houses", "titanic") for language in ("be", "kk")}
