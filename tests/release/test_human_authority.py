"""Issue 14, situation 4 (and the publish half of situation 2), through the CLI against the fake LLM server.

A translation the automatic checks flagged (its length check failed) and a native speaker approved with YES and
YES publishes, and the card counts the override per language. One whose protected identifiers were damaged does
not: the sheet, `curate status` and publish say why. A later release that would lose a whole language is refused
unless it is dropped on purpose, and the console states everything the manifest's diff says.
"""

from __future__ import annotations

import json

import openpyxl
import pytest
from typer.testing import CliRunner

from curation.checks.masking import mask_identifiers, protected_names
from curation.cli import app
from curation.records import Description, DomainTag
from curation.store import Store
from tests.review.seeding import answer_unanswered
from tests.fakes.sample_model import careful_answer, sample_texts
from tests.stages.test_translate import Translator, pseudo_translation


runner = CliRunner()


def curate(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "250"})


@pytest.fixture
def reviewed(project, llm_server, monkeypatch):
    """ru and fr translated and approved in full; two Russian data cards flagged: one far too long (length), one that
    lost a protected column name (placeholders)."""
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    toml = project / "curate.toml"
    text = toml.read_text(encoding="utf-8").replace(
        'languages = ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"]',
        'languages = ["en", "ru", "fr"]')
    toml.write_text(text.replace("[review.annotators]\n", '[review.annotators]\nru = ["olga"]\nfr = ["amelie"]\n'),
                    encoding="utf-8")
    assert curate("ingest").exit_code == 0
    translator = Translator()
    with Store(project / "data" / "curation.sqlite") as store:
        for competition in store.competitions():
            slug = competition.competition
            texts = sample_texts(slug)  # the sample's texts: the fake answers each with its careful translation
            store.save_description(Description(competition=slug, provenance="machine", grade="C",
                                               text=texts["description"]))
            store.save_domain(DomainTag(competition=slug, domain=texts["domain"]))
            store.save_rubric_final(slug, 2)
        cards = {slug: mask_identifiers(store.competition(slug).data_card, protected_names(store.competition(slug))).text
                 for slug in ("spaceship-titanic", "titanic")}
    # three times as long as the English: the length check fails; a reviewer may well find it fine
    wordy = pseudo_translation(cards["spaceship-titanic"], "Предскажите количество арендованных велосипедов за каждый час")
    first, _, rest = wordy.partition("\n")
    translator.script("ru", cards["spaceship-titanic"], first + " " + " ".join(["по этим данным"] * len(wordy)) + "\n" + rest)
    # the careful translation without its first placeholder: only the placeholders check fails, which no YES overrides
    translator.script("ru", cards["titanic"], careful_answer("ru", cards["titanic"]).replace("⟦1⟧", "", 1))
    llm_server.respond_with(translator)
    translated = curate("translate", "--lang", "ru,fr")
    assert "flagged for the annotator (checks still failing): spaceship-titanic/data_card, titanic/data_card" \
        in translated.output, translated.output
    assert curate("review", "push", "--lang", "ru,fr").exit_code == 0
    for workbook in ("ru/ru-olga.xlsx", "fr/fr-amelie.xlsx"):
        answer_unanswered(project / "review" / workbook)
    assert curate("review", "pull", "--lang", "ru,fr").exit_code == 0
    merged = curate("merge", "--lang", "ru,fr")
    assert "ru: 21 keep, 1 overridden" in merged.output, merged.output
    return project


def test_an_approved_flagged_translation_publishes_and_is_counted(reviewed):
    sheet = openpyxl.load_workbook(reviewed / "review" / "ru" / "ru-olga.xlsx")["data_card"]
    checks = {row[0]: row[-1] for row in sheet.iter_rows(min_row=2, values_only=True) if row[0]}
    # the length check's line first; the adequacy and meaning checks read the filler words as added content too
    assert checks["spaceship-titanic/data_card/ru"].startswith(
        "Much longer than the English: something may be added or repeated.\n")
    assert checks["titanic/data_card/ru"].startswith("The identifier ") and checks["titanic/data_card/ru"].endswith(
        "a YES cannot publish it, so correct it in 'Your version'.")

    refused = curate("publish", "--version", "1.0.0", "--to", "dist/ml2b")
    assert refused.exit_code == 1
    assert ("ru/titanic/data_card: reviewers approved it, but protected identifiers or numbers are damaged or missing "
            "(placeholders:") in refused.output and "which no YES overrides" in refused.output
    assert "spaceship-titanic" not in refused.output  # its failed length check was overridden by the reviewer
    status = curate("status", "--lang", "ru")
    assert "Approved, but publish refuses (protected identifiers or numbers)" in status.output
    assert "titanic/data_card" in status.output

    published = curate("publish", "--version", "1.0.0", "--to", "dist/ml2b", "--allow-partial")
    assert published.exit_code == 0, published.output
    release = reviewed / "dist" / "ml2b"
    manifest = json.loads((release / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["reviewer_overrides"] == {"ru": 1}
    assert manifest["counts"] == {"en": 7, "ru": 6, "fr": 7}
    card = " ".join((release / "README.md").read_text(encoding="utf-8").split())
    assert "Such overrides per language: ru 1." in card


def test_a_release_that_would_lose_a_whole_language_is_refused_unless_dropped_on_purpose(reviewed):
    assert curate("publish", "--version", "1.0.0", "--to", "dist/ml2b", "--allow-partial").exit_code == 0
    # The French annotator changes her mind on every text: nothing in fr stands any more.
    answer_unanswered(reviewed / "review" / "fr" / "fr-amelie.xlsx", verdict="NO and NO", overwrite=True)
    assert curate("review", "pull", "--lang", "fr").exit_code == 0
    assert "21 withdrawn" in curate("merge", "--lang", "fr").output

    refused = curate("publish", "--version", "1.1.0", "--to", "dist/ml2b", "--allow-partial")
    assert refused.exit_code == 1
    assert "fr: v1.0.0 had it; this release would have none of its rows" in refused.output
    assert "--allow-partial --drop-language fr" in refused.output

    published = curate("publish", "--version", "1.1.0", "--to", "dist/ml2b", "--allow-partial", "--drop-language", "fr")
    assert published.exit_code == 0, published.output
    assert "since v1.0.0: 0 competitions added, 0 removed, 0 texts changed" in published.output
    assert "  LANGUAGES REMOVED: fr" in published.output
    manifest = json.loads((reviewed / "dist" / "ml2b" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["changes"]["languages_removed"] == ["fr"]

