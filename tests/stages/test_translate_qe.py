"""The optional `qe` pass against the fake server: a translation only the reviewing model finds fault with goes
back to the translator with the findings in the prompt, and to the annotator with the findings shown."""

from __future__ import annotations

import json

import openpyxl
from typer.testing import CliRunner

from curation.cli import app

from curation.checks.masking import mask_identifiers
from curation.config import Settings
from curation.review.backends import backend_for
from curation.review.push import push
from tests.stages.test_translate import (SOURCES, TRANSLATIONS, Translator, add_competition, masked_answer,
                                         names_of, text_to_translate, translate)


QE_MODEL = "anthropic:claude-sonnet-5-5"
FINDING = {"category": "omission", "severity": "major", "span": "from their age, sex, ticket class and fare",
           "explanation": "The features the model should use are missing."}


def with_qe(settings: Settings) -> Settings:
    return settings.model_copy(update={"models": settings.models.model_copy(update={"qe": QE_MODEL})})


class Reviewer:
    """Answers qe requests about the Titanic description with scripted findings (the last one repeats), other
    qe requests (the other fields are reviewed too) with none, and everything else as the translator."""

    def __init__(self, translator: Translator, *findings: list[dict]) -> None:
        self.translator, self.findings, self.requests = translator, list(findings), []

    def __call__(self, request):
        if "reviewer of translations" not in request.system_text:
            return self.translator(request)
        if "sinking of the Titanic" not in request.user_text:
            return {"findings": []}
        self.requests.append(request)
        return {"findings": self.findings[0] if len(self.findings) == 1 else self.findings.pop(0)}


def titanic_translator(store, language: str, *answers: str) -> tuple[Translator, str]:
    masked = mask_identifiers(SOURCES["titanic_description"], names_of(store, "houses")).text
    translator = Translator()
    translator.script(language, masked, *answers)
    return translator, masked


async def test_a_translation_flagged_only_by_qe_is_retranslated_with_the_findings(store, llm_settings, llm_server):
    add_competition(store, "houses", description=SOURCES["titanic_description"])
    good = masked_answer(TRANSLATIONS["be"]["titanic_description"], SOURCES["titanic_description"],
                         names_of(store, "houses"))
    # Two correct wordings, so the second is a new text for the reviewer (the same text would get the same,
    # cached, verdict).
    first = good.replace("Распрацуйце", "Стварыце")
    translator, masked = titanic_translator(store, "be", first, good)
    reviewer = Reviewer(translator, [FINDING], [])
    llm_server.respond_with(reviewer)

    [summary] = await translate(store, with_qe(llm_settings))

    assert summary.complete
    translation = store.translation("houses", "description", "be")
    assert translation.attempts == 2 and not translation.flagged
    assert translation.checks[-1].name == "qe" and translation.checks[-1].detail == "no findings"
    retry = [r for r in llm_server.requests if "reviewer of translations" not in r.system_text
             and text_to_translate(r.user_text) == masked][-1].user_text
    assert ("- qe: omission (major): the translation leaves out 'from their age, sex, ticket class and fare' — The "
            "features the model should use are missing.") in retry
    # the reviewer read the English and the restored translation, and was the other vendor's model
    assert SOURCES["titanic_description"] in reviewer.requests[0].user_text
    assert TRANSLATIONS["be"]["titanic_description"].replace("Распрацуйце", "Стварыце") in reviewer.requests[0].user_text
    assert reviewer.requests[0].api == "anthropic"
    # `curate costs` shows what the qe role spent, on its own line
    costs = CliRunner().invoke(app, ["costs"])
    assert costs.exit_code == 0, costs.output
    assert any(" qe " in f" {line} " and "anthropic:claude-sonnet-5-5" in line for line in costs.output.splitlines())


async def test_findings_that_stay_flag_the_row_and_reach_the_review_sheet(store, llm_settings, llm_server, project):
    add_competition(store, "houses", description=SOURCES["titanic_description"])
    good = masked_answer(TRANSLATIONS["be"]["titanic_description"], SOURCES["titanic_description"],
                         names_of(store, "houses"))
    translator, _ = titanic_translator(store, "be", good)
    llm_server.respond_with(Reviewer(translator, [FINDING]))
    settings = with_qe(llm_settings)

    await translate(store, settings)

    translation = store.translation("houses", "description", "be")
    assert translation.flagged and [c.name for c in translation.failed_checks] == ["qe"]
    assert "qe failed after 3 attempts" in store.status("houses", "translate:be").detail

    assert check_failed_cell(store, settings) == (
        "A second model reading the translation found something of the English left out (serious), the translation "
        "leaves out 'from their age, sex, ticket class and fare': The features the model should use are missing.")


def test_qe_is_off_by_default_and_auto_picks_the_other_vendor(project):
    from curation.config import load_settings
    from curation.model_settings import DEFAULT_MODELS

    assert load_settings(project / "curate.toml").models.qe is None
    config = project / "curate.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('# qe = "auto"', 'qe = "auto"', 1), encoding="utf-8")
    settings = load_settings(config)
    assert settings.models.translate.startswith("openai:") and settings.models.qe == DEFAULT_MODELS["refine"]
    config.write_text(text.replace('# qe = "auto"', 'qe = "auto"', 1).replace(
        f'translate = "{DEFAULT_MODELS["translate"]}"', f'translate = "{DEFAULT_MODELS["refine"]}"', 1), encoding="utf-8")
    settings = load_settings(config)
    assert settings.models.qe == DEFAULT_MODELS["translate"] and settings.models.qe != settings.models.translate


async def test_a_meaning_finding_reaches_the_retry_and_the_sheet_in_plain_words(store, llm_settings, llm_server,
                                                                                 project):
    # The qe prompt names the meaning classes; a scripted "direction" finding with the words on both sides goes
    # back to the translator and, while it stays, into the annotator's "Check failed" cell as a sentence.
    finding = {"category": "direction", "severity": "critical", "span": "ніжэйшы", "source_span": "higher",
               "explanation": "The metric rewards higher scores."}
    add_competition(store, "houses", description=SOURCES["titanic_description"])
    good = masked_answer(TRANSLATIONS["be"]["titanic_description"], SOURCES["titanic_description"],
                         names_of(store, "houses"))
    translator, masked = titanic_translator(store, "be", good)
    reviewer = Reviewer(translator, [finding])
    llm_server.respond_with(reviewer)
    settings = with_qe(llm_settings)

    await translate(store, settings)

    system = reviewer.requests[0].system_text
    for category in ("negation", "direction", "comparison", "role", "condition", "unit", "term"):
        assert f"- {category}:" in system
    assert '"source_span"' in json.dumps(reviewer.requests[0].body)  # the answer schema asks for the English words
    retry = [r for r in llm_server.requests if "reviewer of translations" not in r.system_text
             and text_to_translate(r.user_text) == masked][-1].user_text
    assert ("- qe: direction (critical): the translation says 'ніжэйшы' where the English says 'higher' — The "
            "metric rewards higher scores.") in retry
    assert check_failed_cell(store, settings) == (
        "A second model reading the translation found a direction reversed (critical), the translation says "
        "'ніжэйшы' where the English says 'higher': The metric rewards higher scores.")


def check_failed_cell(store, settings) -> str:
    """The 'Check failed' cell of the Belarusian description of `houses` in annotator ales's pushed workbook."""
    settings = settings.model_copy(update={"review": settings.review.model_copy(update={"annotators": {"be": ["ales"]}})})
    report = push(store, settings, "be", backend_for(settings))
    book = openpyxl.load_workbook(next(sheet.ref for sheet in report.sheets if sheet.annotator == "ales"))
    sheet = book["description"]
    header = [cell.value for cell in sheet[1]]
    row = next(row for row in sheet.iter_rows(min_row=2, values_only=True) if row[0] == "houses/description/be")
    return row[header.index("Check failed")]


TERM_SUSPECTED = "- terms: term: the English says 'test set' (test set), the translation has none of"


def doubted_by_the_glossary(store) -> tuple[str, str]:
    """The Belarusian description, and the same with its test set said as the training set: a wording only the
    glossary check flags."""
    good = masked_answer(TRANSLATIONS["be"]["titanic_description"], SOURCES["titanic_description"],
                         names_of(store, "houses"))
    return good, good.replace("з тэставай выбаркі", "з навучальнай выбаркі")


async def test_what_only_the_word_lists_flag_is_overruled_when_qe_told_of_it_finds_nothing(store, llm_settings,
                                                                                           llm_server):
    add_competition(store, "houses", description=SOURCES["titanic_description"])
    _, doubted = doubted_by_the_glossary(store)
    translator, masked = titanic_translator(store, "be", doubted)
    reviewer = Reviewer(translator, [])
    llm_server.respond_with(reviewer)

    await translate(store, with_qe(llm_settings))

    translation = store.translation("houses", "description", "be")
    assert translation.attempts == 1 and not translation.flagged  # no retranslation paid for
    terms = next(check for check in translation.checks if check.name == "terms")
    assert terms.passed and terms.detail.startswith("overruled by the qe model: term: the English says 'test set'")
    assert translation.checks[-1].name == "qe" and translation.checks[-1].passed
    # the reviewer was told what the glossary check suspected, and the translator was asked once
    assert TERM_SUSPECTED in reviewer.requests[0].user_text
    assert len([r for r in llm_server.requests if "reviewer of translations" not in r.system_text
                and text_to_translate(r.user_text) == masked]) == 1
    # `curate status --lang be` counts the translations where qe overruled a word-list check
    status = CliRunner().invoke(app, ["status", "--lang", "be"])
    assert status.exit_code == 0, status.output
    lines = status.output.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[-3:] == ["overruled", "by", "qe"])
    assert lines[header + 1].split() == ["be", "1"]


async def test_what_qe_confirms_is_retranslated_with_both_findings(store, llm_settings, llm_server):
    add_competition(store, "houses", description=SOURCES["titanic_description"])
    good, doubted = doubted_by_the_glossary(store)
    translator, masked = titanic_translator(store, "be", doubted, good)
    finding = {"category": "term", "severity": "major", "span": "навучальнай выбаркі", "source_span": "test set",
               "explanation": "The probabilities are asked for the test set."}
    reviewer = Reviewer(translator, [finding], [])
    llm_server.respond_with(reviewer)

    await translate(store, with_qe(llm_settings))

    translation = store.translation("houses", "description", "be")
    assert translation.attempts == 2 and not translation.flagged
    assert next(check for check in translation.checks if check.name == "terms").detail.endswith("as their own")
    retry = [r for r in llm_server.requests if "reviewer of translations" not in r.system_text
             and text_to_translate(r.user_text) == masked][-1].user_text
    assert "- terms: term: the English says 'test set'" in retry
    assert "- qe: term (major): the translation says 'навучальнай выбаркі' where the English says 'test set'" in retry
    # the good retranslation was read by the reviewer too, with nothing suspected
    assert TERM_SUSPECTED not in reviewer.requests[-1].user_text


async def test_turning_qe_on_is_estimated_at_the_qe_calls_alone(store, llm_settings, llm_server):
    # Every stored translation is checked again, but the translate requests come from the LLM cache: the estimate the
    # redo confirmation states counts only what the qe model will be paid for.
    from curation.stages.redo import translate_redo
    from curation.stages.translate import TranslateStage

    add_competition(store, "houses", description=SOURCES["titanic_description"])
    translator, _ = titanic_translator(store, "be", masked_answer(
        TRANSLATIONS["be"]["titanic_description"], SOURCES["titanic_description"], names_of(store, "houses")))
    llm_server.respond_with(Reviewer(translator, []))
    await translate(store, llm_settings)

    settings = with_qe(llm_settings)
    plan = translate_redo(store, settings, [TranslateStage(settings, "be")])

    assert plan.total == plan.from_cache == 3 and plan.rates.keys() == {"qe"} and plan.cost_usd > 0
    assert "3 of them answered from the LLM cache, at no cost" in plan.line()
    # without the cache (another translate model) every text would be paid for again
    other = settings.model_copy(update={"models": settings.models.model_copy(update={"translate": QE_MODEL})})
    assert translate_redo(store, other, [TranslateStage(other, "be")]).from_cache == 0
