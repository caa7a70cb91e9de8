"""The translate stage against the fake LLM server: checks catch bad answers, retries fix them, memory and
staleness keep repeat work at zero, review's retranslate requests carry their feedback."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from curation.checks.masking import mask_identifiers, placeholder, protected_names
from curation.cli import app
from curation.config import Settings
from curation.languages import LANGUAGES
from curation.llm import LLM
from curation.records import Competition, Description, DomainTag, IngestedCompetition
from curation.stages.translate import TranslateStage, translate_languages
from curation.store import Store
from tests.fakes.sample_model import careful_answer, sample_texts


SENTENCES = json.loads((Path(__file__).parents[1] / "checks" / "sentences.json").read_text(encoding="utf-8"))
SOURCES, TRANSLATIONS = SENTENCES["sources"], SENTENCES["translations"]
LANGUAGE_NAMES = {language.english: code for code, language in LANGUAGES.items()}

# Prose the pseudo-translator fills the lines of a text the translation sets do not hold with, per language: real
# words ("Predict the number of bikes rented per hour."), so language ID and script checks pass.
FILLER = {language: TRANSLATIONS[language]["bikes_instruction"].rstrip(".。") for language in TRANSLATIONS} | {
    "be": "Прадкажыце колькасць узятых напракат веласіпедаў за кожную гадзіну па дадзеных аб надвор'і і сезоне",
    "kk": "Әр сағат сайын жалға алынған велосипедтер санын ауа райы мен маусым туралы деректер бойынша болжаңыз",
    "ja": "年齢と運賃から乗客が生き延びたかどうかを予測してください",
}


def masked_answer(translation: str, source: str, names: tuple[str, ...] = ()) -> str:
    """A real translation as the model must return it: the source's protected spans as its placeholders."""
    masked = mask_identifiers(source, names)
    for number, span in enumerate(masked.spans, start=1):
        translation = translation.replace(span, placeholder(number), 1)
    return translation


def text_to_translate(user_text: str) -> str:
    return re.findall(r"<<<\n(.*?)\n>>>", user_text, re.DOTALL)[-1]


def target_of(user_text: str) -> str:
    return LANGUAGE_NAMES[re.match(r"Translate this .*? into (\w+)\.", user_text).group(1)]


class Translator:
    """Answers translate requests: scripted answers per (language, source text); else the careful translation when
    the text is one the translation sets hold (the sample's texts, tests/checks/sentences.json's: every check, adequacy
    and meaning included, passes it); else a pseudo-translation that keeps every placeholder and line and fills the
    prose with the language's words, which the adequacy and meaning checks reject."""

    def __init__(self) -> None:
        self.scripted: dict[tuple[str, str], list[str]] = {}

    def script(self, language: str, masked_source: str, *answers: str) -> None:
        self.scripted[(language, masked_source)] = list(answers)

    def __call__(self, request) -> str:
        language, text = target_of(request.user_text), text_to_translate(request.user_text)
        queue = self.scripted.get((language, text))
        if queue:
            return queue.pop(0) if len(queue) > 1 else queue[0]
        return careful_answer(language, text) or pseudo_translation(text, FILLER[language])


def pseudo_translation(text: str, filler: str) -> str:
    words = filler.split()
    lines = []
    for line in text.split("\n"):
        marker = re.match(r"\s*(?:[-*#>]+|\d+\.)?\s*", line).group(0)
        pieces = re.split(r"(⟦\d+⟧)", line[len(marker):])
        out = []
        for piece in pieces:
            if piece.startswith("⟦") or not re.search(r"[A-Za-z]", piece):
                out.append(piece)
                continue
            # The source's numbers and sentence ends stay where they are, as a translator keeps them.
            for part in re.split(r"(\d+(?:[.,:x-]\d+)*|[.!?](?=\s|$))", piece):
                if not re.search(r"[A-Za-z]", part):
                    out.append(part)
                    continue
                wanted, chosen = len(part), []
                while sum(len(w) + 1 for w in chosen) < wanted:
                    chosen.append(words[len(chosen) % len(words)])
                out.append(" " + " ".join(chosen) + " ")
        lines.append(marker + " ".join("".join(out).split()))
    return "\n".join(lines)


def add_competition(store: Store, slug: str, description: str | None = SOURCES["house_description"],
                    data_card: str = SOURCES["titanic_data_card"], domain: str | None = "real estate") -> None:
    competition = Competition(competition=slug, comp_name=slug.title(), comp_type="Featured", data_type="tabular",
                              metric="RMSLE", data_card=data_card, grading={"target_col": "SalePrice"})
    store.save_ingested(IngestedCompetition(competition=competition))
    if description is not None:
        store.save_description(Description(competition=slug, text=description, provenance="machine", grade="C"))
    if domain is not None:
        store.save_domain(DomainTag(competition=slug, domain=domain))


async def translate(store: Store, settings: Settings, languages=("be",), **options):
    async with LLM(settings, store, stage="translate") as llm:
        runs = await translate_languages(store, settings, llm, list(languages), **options)
    return [summary for _, summary in runs]


def translate_requests(server, language: str | None = None) -> list:
    return [r for r in server.requests if language is None or target_of(r.user_text) == language]


# -- each check catches its failure, and the retry fixes it ----------------------------------------------


def names_of(store: Store, slug: str) -> tuple[str, ...]:
    return protected_names(store.competition(slug))


async def retried_once(store, llm_settings, llm_server, language, key, bad):
    """Script a bad first answer and the good translation second; run; return the stored translation."""
    field = "data_card" if key == "titanic_data_card" else "description"
    add_competition(store, "houses", **({"data_card": SOURCES[key]} if field == "data_card" else {"description": SOURCES[key]}))
    names = names_of(store, "houses")
    masked = mask_identifiers(SOURCES[key], names).text
    good = masked_answer(TRANSLATIONS[language][key], SOURCES[key], names)
    translator = Translator()
    assert bad(good, masked) != good
    translator.script(language, masked, bad(good, masked), good)
    llm_server.respond_with(translator)
    [summary] = await translate(store, llm_settings, languages=(language,))
    assert summary.complete
    translation = store.translation("houses", field, language)
    retry = [r for r in translate_requests(llm_server, language) if text_to_translate(r.user_text) == masked][-1]
    return translation, retry.user_text


async def test_russian_returned_for_belarusian_is_retried(store, llm_settings, llm_server):
    russian = lambda good, source: masked_answer(TRANSLATIONS["ru"]["house_description"], SOURCES["house_description"],
                                                 names_of(store, "houses"))
    translation, retry = await retried_once(store, llm_settings, llm_server, "be", "house_description", russian)
    assert translation.text == TRANSLATIONS["be"]["house_description"]
    assert translation.attempts == 2 and not translation.flagged and all(c.passed for c in translation.checks)
    assert "- language: line 1 'Предскажите цену продажи" in retry and "Belarusian alphabet lacks" in retry
    assert "Предскажите цену продажи" in retry  # the failed answer is shown


async def test_a_dropped_placeholder_is_retried(store, llm_settings, llm_server):
    dropped = lambda good, source: good.replace(", ⟦5⟧", "")  # `Pclass`
    translation, retry = await retried_once(store, llm_settings, llm_server, "be", "titanic_data_card", dropped)
    assert translation.text == TRANSLATIONS["be"]["titanic_data_card"] and translation.attempts == 2
    assert "- placeholders: ⟦5⟧ ('`Pclass`') appears 0 times, the source has 1" in retry


async def test_a_duplicated_placeholder_is_retried(store, llm_settings, llm_server):
    doubled = lambda good, source: good.replace("⟦2⟧", "⟦2⟧ ⟦2⟧", 1)
    translation, retry = await retried_once(store, llm_settings, llm_server, "kk", "house_description", doubled)
    assert translation.text == TRANSLATIONS["kk"]["house_description"] and translation.attempts == 2
    assert "- placeholders: ⟦2⟧ ('`SalePrice`') appears 2 times, the source has 1" in retry


async def test_a_translation_cut_in_half_is_retried(store, llm_settings, llm_server):
    half = lambda good, source: good[: len(good) // 2]
    translation, retry = await retried_once(store, llm_settings, llm_server, "be", "titanic_description", half)
    assert translation.text == TRANSLATIONS["be"]["titanic_description"] and translation.attempts == 2
    assert "- length: length ratio" in retry and "cut short" in retry


async def test_english_echoed_back_is_retried(store, llm_settings, llm_server):
    echo = lambda good, source: source
    translation, retry = await retried_once(store, llm_settings, llm_server, "kk", "titanic_description", echo)
    assert translation.text == TRANSLATIONS["kk"]["titanic_description"] and translation.attempts == 2
    assert "- not_copy: the translation is the English source unchanged" in retry


async def test_latin_text_for_japanese_is_retried(store, llm_settings, llm_server):
    french = lambda good, source: TRANSLATIONS["fr"]["titanic_description"]
    translation, retry = await retried_once(store, llm_settings, llm_server, "ja", "titanic_description", french)
    assert translation.text == TRANSLATIONS["ja"]["titanic_description"] and translation.attempts == 2
    assert "- script: " in retry and "of the letters are not Japanese (Latin" in retry
    assert "Translate this task description into Japanese." in retry


async def test_an_invented_sentence_is_retried_by_the_adequacy_check(store, llm_settings, llm_server):
    on = llm_settings.model_copy(update={"translate": llm_settings.translate.model_copy(update={"adequacy": True})})
    invented = "Для лепшага выніку выкарыстоўвайце LightGBM."
    added = lambda good, source: good + " " + invented
    translation, retry = await retried_once(store, on, llm_server, "be", "titanic_description", added)
    assert translation.text == TRANSLATIONS["be"]["titanic_description"] and translation.attempts == 2
    assert f"- adequacy: added: line 1 {invented!r} matches no English sentence" in retry
    assert [c.passed for c in translation.checks if c.name == "adequacy"] == [True]


async def test_what_still_fails_is_stored_flagged_with_its_checks(store, llm_settings, llm_server):
    add_competition(store, "houses")
    masked = mask_identifiers(SOURCES["house_description"], names_of(store, "houses")).text
    translator = Translator()
    translator.script("be", masked, masked)  # echoes the English every time
    llm_server.respond_with(translator)

    [summary] = await translate(store, llm_settings)

    assert summary.complete  # a flagged translation is a finished item, for the annotator
    translation = store.translation("houses", "description", "be")
    assert translation.flagged and translation.attempts == llm_settings.translate.max_attempts == 3
    assert [c.name for c in translation.failed_checks] == ["language", "not_copy"]  # Latin loans are not_copy's
    assert len([r for r in llm_server.requests if text_to_translate(r.user_text) == masked]) == 3
    status = store.status("houses", "translate:be")
    assert status.status == "needs_human" and "description: language, not_copy failed after 3 attempts" in status.detail


# -- translation memory and staleness -------------------------------------------------------------------


async def test_one_domain_shared_by_five_competitions_is_one_call_per_language(store, llm_settings, llm_server):
    for n in range(5):
        add_competition(store, f"bank-{n}", description=f"Predict the default risk of loan number {n}.", domain="finance")
    translator = Translator()
    translator.script("be", "finance", "фінансы")
    translator.script("kk", "finance", "қаржы")
    llm_server.respond_with(translator)

    summaries = await translate(store, llm_settings, languages=("be", "kk"))

    assert all(s.complete and s.done == 15 for s in summaries)
    for language, word in (("be", "фінансы"), ("kk", "қаржы")):
        asked = [r for r in translate_requests(llm_server, language) if text_to_translate(r.user_text) == "finance"]
        assert len(asked) == 1
        assert {store.translation(f"bank-{n}", "domain", language).text for n in range(5)} == {word}
        assert "bank-" not in asked[0].user_text + asked[0].system_text  # the slug stays out of the messages


async def test_a_rerun_sends_nothing(store, llm_settings, llm_server):
    add_competition(store, "houses")
    llm_server.respond_with(Translator())
    [first] = await translate(store, llm_settings)
    sent = llm_server.count()

    [second] = await translate(store, llm_settings)

    assert first.done == 3 and store.status("houses", "translate:be").status == "done"
    assert second.done == 0 and second.calls == 0 and llm_server.count() == sent


async def test_a_changed_data_card_retranslates_only_that_card(store, llm_settings, llm_server):
    add_competition(store, "houses")
    add_competition(store, "titanic", description=SOURCES["titanic_description"], domain="maritime studies")
    translator = Translator()
    llm_server.respond_with(translator)
    await translate(store, llm_settings)
    before = {(t.competition, t.field): t.text for t in store.translations(language="be")}
    sent = llm_server.count()

    changed = SOURCES["titanic_data_card"].replace("two files", "two files and a sample submission")
    add_competition(store, "titanic", description=SOURCES["titanic_description"], data_card=changed,
                    domain="maritime studies")
    # a real translation of the changed card (a pseudo-translation loses "without the target", which the meaning
    # check rightly fails)
    answer = TRANSLATIONS["be"]["titanic_data_card"].replace("два файлы", "два файлы і ўзор адпраўкі")
    translator.script("be", mask_identifiers(changed).text, masked_answer(answer, changed))
    [summary] = await translate(store, llm_settings)

    assert summary.done == 1
    new = translate_requests(llm_server)[sent:]
    assert len(new) == 1 and "two files and a sample submission" in new[0].user_text
    assert "`" not in text_to_translate(new[0].user_text)  # identifiers travel as placeholders
    after = {(t.competition, t.field): t.text for t in store.translations(language="be")}
    assert [key for key in after if after[key] != before[key]] == [("titanic", "data_card")]
    assert store.translation("titanic", "data_card", "be").source_text == changed


async def test_a_retranslate_request_gets_its_feedback_into_the_prompt(store, llm_settings, llm_server):
    add_competition(store, "houses")
    llm_server.respond_with(Translator())
    await translate(store, llm_settings)
    sent = llm_server.count()
    store.add_request("retranslate", "houses", "Use «кошт» for price, not «цана».", field="description", language="be")

    [summary] = await translate(store, llm_settings)

    new = translate_requests(llm_server)[sent:]
    assert summary.done == 1 and len(new) == 1
    assert "asked for a new one, saying:\nUse «кошт» for price, not «цана»." in new[0].user_text
    translation = store.translation("houses", "description", "be")
    assert (translation.provenance, translation.round, translation.feedback) == (
        "retranslated", 2, "Use «кошт» for price, not «цана».")
    assert store.open_requests("retranslate") == []
    [again] = await translate(store, llm_settings)
    assert again.done == 0 and llm_server.count() == sent + 1


async def test_the_request_dry_runs_and_redo_estimates_price_is_the_one_a_run_sends_first(store, llm_settings,
                                                                                           llm_server):
    # TranslateStage.first_request (once dry_run.first_translation_request, rendered apart from the run) feeds
    # `--dry-run`'s estimates for texts not written yet and the cost the redo confirmation states.
    add_competition(store, "houses")
    llm_server.respond_with(Translator())
    await translate(store, llm_settings)
    feedback = "Use «кошт» for price, not «цана»."
    store.add_request("retranslate", "houses", feedback, field="description", language="be")
    await translate(store, llm_settings)

    stage = TranslateStage(llm_settings, "be")
    sources = {"description": SOURCES["house_description"], "data_card": SOURCES["titanic_data_card"],
               "domain": "real estate"}
    sent = translate_requests(llm_server)
    compared = 0
    for field, source in sources.items():
        masked = mask_identifiers(source, () if field == "domain" else names_of(store, "houses")).text
        for request in [r for r in sent if text_to_translate(r.user_text) == masked]:
            asked = feedback if feedback in request.user_text else ""
            system, user = stage.first_request(field, masked, feedback=asked)
            assert (request.system_text, request.user_text) == (system["content"], user["content"])
            compared += 1
    assert compared == len(sent) == 4  # three fields, and the description again with its feedback


async def test_texts_not_written_yet_wait_and_english_is_never_sent(store, llm_settings, llm_server):
    add_competition(store, "houses", description=None, domain=None)
    llm_server.respond_with(Translator())
    stage = TranslateStage(llm_settings, "be")

    items = stage.pending(store, llm_settings)

    assert [item.field for item in items] == ["data_card"]
    assert stage.waiting == ["houses/description: no English text yet (run `curate describe`)",
                             "houses/domain: no English text yet (run `curate tag`)"]


# -- the command line, on the sample ------------------------------------------------------------------


def test_curate_translate_on_the_sample(project, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    runner = CliRunner()
    assert runner.invoke(app, ["ingest"]).exit_code == 0
    from curation.config import load_settings

    settings = load_settings(project / "curate.toml")
    with Store(settings.path("store")) as store:
        slugs = [c.competition for c in store.competitions()]
        assert len(slugs) >= 5
        for slug in slugs:  # describe and tag are other stages; their outputs (the sample's texts) are seeded here
            texts = sample_texts(slug)
            store.save_description(Description(competition=slug, provenance="machine", grade="C",
                                               text=texts["description"]))
            store.save_domain(DomainTag(competition=slug, domain=texts["domain"]))
    translator = Translator()
    # The spaceship data card comes back in Belarusian every time (a careful translation, into the wrong language):
    # it ends flagged, with the reason. Every other text gets its careful Russian translation.
    spaceship = mask_identifiers(store_card(settings, "spaceship-titanic"), names_in(settings, "spaceship-titanic")).text
    translator.script("ru", spaceship, careful_answer("be", spaceship))
    llm_server.respond_with(translator)

    result = runner.invoke(app, ["translate", "--lang", "ru"])

    assert result.exit_code == 0, result.output
    assert f"translate:ru: {3 * len(slugs)} done, 0 failed" in result.output
    assert "ru: 1 text flagged for the annotator (checks still failing): spaceship-titanic/data_card" in result.output
    with Store(settings.path("store")) as store:
        translations = store.translations(language="ru")
        assert {(t.competition, t.field) for t in translations} == {(s, f) for s in slugs
                                                                   for f in ("description", "data_card", "domain")}
        for t in translations:
            assert t.text and t.language == "ru"
            assert t.flagged == ((t.competition, t.field) == ("spaceship-titanic", "data_card"))
        [flagged] = [t for t in translations if t.flagged]
        # Russian's sentence encoder does not read Belarusian as the English it translates: adequacy fails it too.
        assert [c.name for c in flagged.failed_checks] == ["language", "adequacy"]
        assert "is not Russian: letters the Russian alphabet lacks: іў" in flagged.failed_checks[0].detail
        assert flagged.attempts == 3
        assert store.status("spaceship-titanic", "translate:ru").status == "needs_human"
        assert store.translations(language="be") == []

    status = runner.invoke(app, ["status", "--lang", "ru"])
    assert status.exit_code == 0 and "Translation checks (pass rate of the stored translations)" in status.output
    report = json.loads(runner.invoke(app, ["status", "--lang", "ru", "--json"]).output)
    [section] = [s for s in report["sections"] if s["title"].startswith("Translation checks")]
    assert section["columns"][4:] == ["placeholders", "numbers", "language", "length", "not_copy", "script", "adequacy",
                                      "meaning", "terms", "roles"]
    [row] = section["rows"]
    flagged = sum(t.flagged for t in translations)
    assert row[:4] == ["ru", 3 * len(slugs), flagged, 0]
    rate = f"{round(100 * (3 * len(slugs) - 1) / (3 * len(slugs)))}%"  # the Belarusian card failed language, adequacy
    assert row[4:] == ["100%", "100%", rate, "100%", "100%", "100%", rate, "100%", "100%", "100%"]
    again = runner.invoke(app, ["translate", "--lang", "ru"])
    assert "translate:ru: 0 done, 0 failed, 0 not started; 0 LLM calls" in again.output


def store_card(settings: Settings, slug: str) -> str:
    with Store(settings.path("store")) as store:
        return store.competition(slug).data_card


def names_in(settings: Settings, slug: str) -> tuple[str, ...]:
    with Store(settings.path("store")) as store:
        return names_of(store, slug)


def test_bad_language_options_and_a_missing_key_are_one_line(project):
    runner = CliRunner()
    assert runner.invoke(app, ["ingest"]).exit_code == 0

    unknown = runner.invoke(app, ["translate", "--lang", "xx"])
    assert unknown.exit_code == 2 and "unknown language code 'xx'" in unknown.output
    unconfigured = runner.invoke(app, ["translate", "--lang", "uk"])
    assert unconfigured.exit_code == 2 and "uk is not under [project] languages in curate.toml" in unconfigured.output
    keyless = runner.invoke(app, ["translate", "--lang", "be"])
    assert keyless.exit_code == 2 and "OPENAI_API_KEY" in keyless.output
    assert "Traceback" not in unknown.output + unconfigured.output + keyless.output


async def test_a_fenced_or_delimited_answer_is_unwrapped(store, llm_settings, llm_server):
    add_competition(store, "houses", description=SOURCES["bikes_instruction"], domain="finance")
    translator = Translator()
    translator.script("be", SOURCES["bikes_instruction"], "```\n" + TRANSLATIONS["be"]["bikes_instruction"] + "\n```")
    translator.script("be", "finance", "<<<\nфінансы\n>>>")
    llm_server.respond_with(translator)

    await translate(store, llm_settings)

    assert store.translation("houses", "description", "be").text == TRANSLATIONS["be"]["bikes_instruction"]
    assert store.translation("houses", "domain", "be").text == "фінансы"
