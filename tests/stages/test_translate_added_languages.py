"""Languages a curator adds to [project] languages beyond ML²B's, end to end against the fake LLM server: translate
(German, Hindi, Korean, with real translations and every check, adequacy included), review push and pull, merge and
publish under the harness file name the project gives the language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import yaml
from typer.testing import CliRunner

from curation.checks.masking import mask_identifiers
from curation.cli import app
from curation.config import load_settings
from curation.languages import SUPPORTED
from curation.llm import LLM
from curation.stages.translate import translate_languages
from curation.store import Store
from tests.fakes.llm_server import pointed_at
from tests.review.test_full_loop import answer_all
from tests.stages.test_translate import add_competition, masked_answer, names_of, text_to_translate

CHECKS = Path(__file__).parents[1] / "checks"
SOURCES = json.loads((CHECKS / "sentences.json").read_text(encoding="utf-8"))["sources"]
ADDED = json.loads((CHECKS / "added_languages.json").read_text(encoding="utf-8"))
# The store's fields of the competition `houses` and the texts of sentences.json they hold.
FIELDS = {"description": "house_description", "data_card": "titanic_data_card", "domain": "domain_real_estate"}
BY_NAME = {language.english: code for code, language in SUPPORTED.items()}


def configure(project: Path, languages: list[str], extra: str = "") -> None:
    """curate.toml with these [project] languages (and `extra` appended), as a curator edits it."""
    toml = project / "curate.toml"
    text = re.sub(r"^languages = \[.*\]$", f"languages = {json.dumps(languages)}", toml.read_text(encoding="utf-8"),
                  count=1, flags=re.MULTILINE)
    toml.write_text(text + extra, encoding="utf-8")


class Translator:
    """Answers each translate request with the hand-written translation into the language the prompt names; a text
    scripted in `first` is answered so at the first attempt."""

    def __init__(self, store: Store) -> None:
        self.masked = {field: mask_identifiers(SOURCES[key], () if field == "domain" else names_of(store, "houses")).text
                       for field, key in FIELDS.items()}
        self.names = names_of(store, "houses")
        self.first: dict[tuple[str, str], str] = {}

    def answer(self, language: str, field: str, text: str) -> str:
        return masked_answer(text, SOURCES[FIELDS[field]], () if field == "domain" else self.names)

    def __call__(self, request) -> str:
        language = BY_NAME[re.match(r"Translate this .*? into (.+?)\.\n", request.user_text).group(1)]
        field = next(field for field, masked in self.masked.items() if masked == text_to_translate(request.user_text))
        wrong = self.first.get((language, field))
        if wrong and "(attempt" not in request.user_text:
            return self.answer(language, field, wrong)
        return self.answer(language, field, ADDED["translations"][language][FIELDS[field]])


async def translate(project: Path, llm_server, languages: list[str], first: dict | None = None):
    settings = pointed_at(load_settings(project / "curate.toml"), llm_server)
    with Store(settings.path("store")) as store:
        add_competition(store, "houses", description=SOURCES["house_description"], data_card=SOURCES["titanic_data_card"],
                        domain="real estate")
        translator = Translator(store)
        translator.first.update(first or {})
        llm_server.respond_with(translator)
        async with LLM(settings, store, stage="translate") as llm:
            runs = await translate_languages(store, settings, llm, languages)
        assert all(summary.complete for _, summary in runs)
        return {(t.language, t.field): t for t in store.translations()}


async def test_german_hindi_and_korean_are_translated_and_pass_every_check(project, llm_server):
    configure(project, ["en", "de", "hi", "ko"])

    stored = await translate(project, llm_server, ["de", "hi", "ko"])

    for language in ("de", "hi", "ko"):
        for field, key in FIELDS.items():
            translation = stored[(language, field)]
            assert translation.text == ADDED["translations"][language][key]
            assert translation.attempts == 1 and not translation.flagged
            assert [check.name for check in translation.checks if not check.passed] == []
        adequacy = next(c for c in stored[(language, "description")].checks if c.name == "adequacy")
        assert "aligned" in adequacy.detail  # adequacy judged it
    systems = {request.system_text.split(".")[0] for request in llm_server.requests}
    assert {"You translate texts of a machine-learning benchmark from English into German (Deutsch)",
            "You translate texts of a machine-learning benchmark from English into Hindi (हिन्दी)",
            "You translate texts of a machine-learning benchmark from English into Korean (한국어)"} == systems


async def test_an_answer_in_the_neighbour_language_is_caught_and_retried(project, llm_server):
    configure(project, ["en", "de", "hi", "ko"])
    wrong = {(language, "description"): ADDED["wrong_language"][language]["house_description"]
             for language in ("de", "hi", "ko")}

    stored = await translate(project, llm_server, ["de", "hi", "ko"], first=wrong)

    retries = [request.user_text for request in llm_server.requests if "(attempt 2" in request.user_text]
    assert len(retries) == 3
    said = {language: next(text for text in retries if f"into {SUPPORTED[language].english}." in text)
            for language in ("de", "hi", "ko")}
    assert "- language: line 1 'Voorspel de verkoopprijs" in said["de"] and "reads as Dutch" in said["de"]
    assert "reads as Marathi" in said["hi"]
    assert "no text in the Hangul script to read as Korean" in said["ko"] and "not Hangul (Kana" in said["ko"]
    for language in ("de", "hi", "ko"):
        translation = stored[(language, "description")]
        assert translation.attempts == 2 and not translation.flagged
        assert translation.text == ADDED["translations"][language]["house_description"]


def curate(*args: str):
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


async def test_an_added_language_is_reviewed_merged_and_published_under_its_harness_name(project, llm_server):
    configure(project, ["en", "de", "ko"], '\n[languages.de]\nharness = "Deutsch"\n')
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("min_rubric_score = 1", "min_rubric_score = 0"),
                    encoding="utf-8")
    await translate(project, llm_server, ["de", "ko"])

    curate("review", "push", "--lang", "de,ko")
    books = sorted((project / "review").glob("*/*.xlsx"))
    assert {book.parent.name for book in books} == {"de", "ko"}
    for book in books:
        answer_all(book)
    pulled = curate("review", "pull", "--lang", "de,ko")
    assert re.search(r"^de: \d+ new verdicts", pulled, re.MULTILINE) and re.search(r"^ko: \d+ new", pulled, re.MULTILINE)
    merged = curate("merge", "--lang", "de,ko")
    assert "de: 3 keep" in merged and "ko: 3 keep" in merged
    published = curate("publish", "--version", "1.0.0", "--to", "dist/bench")

    release = project / "dist" / "bench"
    assert sorted(path.name for path in (release / "tasks").iterdir()) == ["Deutsch.csv", "English.csv", "Korean.csv"]
    german = pd.read_csv(release / "tasks" / "Deutsch.csv")
    assert german.loc[0, "description"] == ADDED["translations"]["de"]["house_description"]
    assert german.loc[0, "domain"] == ADDED["translations"]["de"]["domain_real_estate"]
    korean = pd.read_parquet(next((release / "ko").glob("test-*.parquet")))
    assert korean.loc[0, "data_card"] == ADDED["translations"]["ko"]["titanic_data_card"]
    manifest = json.loads((release / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["languages"]["de"]["harness_file"] == "tasks/Deutsch.csv"
    assert manifest["languages"]["ko"]["harness_file"] == "tasks/Korean.csv"
    card = (release / "README.md").read_text(encoding="utf-8")
    assert yaml.safe_load(card.split("---")[1])["language"] == ["en", "de", "ko"]
    assert "v1.0.0" in published
