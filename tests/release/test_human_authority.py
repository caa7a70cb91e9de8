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
    """kk and be translated and approved in full; two Kazakh data cards flagged: one far too long (length), one that
    lost a protected column name (placeholders)."""
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    toml = project / "curate.toml"
    text = toml.read_text(encoding="utf-8").replace(
        'languages = ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"]',
        'languages = ["en", "kk", "be"]')
    toml.write_text(text.replace("[review.annotators]\n", '[review.annotators]\nkk = ["aigerim"]\nbe = ["ales"]\n'),
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
    wordy = pseudo_translation(cards["spaceship-titanic"], "Әр сағат сайын жалға алынған велосипедтер санын болжаңыз")
    first, _, rest = wordy.partition("\n")
    translator.script("kk", cards["spaceship-titanic"], first + " " + " ".join(["деректер бойынша"] * len(wordy)) + "\n" + rest)
    # the careful translation without its first placeholder: only the placeholders check fails, which no YES overrides
    translator.script("kk", cards["titanic"], careful_answer("kk", cards["titanic"]).replace("⟦1⟧", "", 1))
    llm_server.respond_with(translator)
    translated = curate("translate", "--lang", "kk,be")
    assert "flagged for the annotator (checks still failing): spaceship-titanic/data_card, titanic/data_card" \
        in translated.output, translated.output
    assert curate("review", "push", "--lang", "kk,be").exit_code == 0
    for workbook in ("kk/kk-aigerim.xlsx", "be/be-ales.xlsx"):
        answer_unanswered(project / "review" / workbook)
    assert curate("review", "pull", "--lang", "kk,be").exit_code == 0
    merged = curate("merge", "--lang", "kk,be")
    assert "kk: 21 keep, 1 overridden" in merged.output, merged.output
    return project


def test_an_approved_flagged_translation_publishes_and_is_counted(reviewed):
    sheet = openpyxl.load_workbook(reviewed / "review" / "kk" / "kk-aigerim.xlsx")["data_card"]
    checks = {row[0]: row[-1] for row in sheet.iter_rows(min_row=2, values_only=True) if row[0]}
    # the length check's line first; the adequacy and meaning checks read the filler words as added content too
    assert checks["spaceship-titanic/data_card/kk"].startswith(
        "Much longer than the English: something may be added or repeated.\n")
    assert checks["titanic/data_card/kk"].startswith("The identifier ") and checks["titanic/data_card/kk"].endswith(
        "a YES cannot publish it, so correct it in 'Your version'.")

    refused = curate("publish", "--version", "1.0.0", "--to", "dist/ml2b")
    assert refused.exit_code == 1
    assert ("kk/titanic/data_card: reviewers approved it, but protected identifiers or numbers are damaged or missing "
            "(placeholders:") in refused.output and "which no YES overrides" in refused.output
    assert "spaceship-titanic" not in refused.output  # its failed length check was overridden by the reviewer
    status = curate("status", "--lang", "kk")
    assert "Approved, but publish refuses (protected identifiers or numbers)" in status.output
    assert "titanic/data_card" in status.output

    published = curate("publish", "--version", "1.0.0", "--to", "dist/ml2b", "--allow-partial")
    assert published.exit_code == 0, published.output
    release = reviewed / "dist" / "ml2b"
    manifest = json.loads((release / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["reviewer_overrides"] == {"kk": 1}
    assert manifest["counts"] == {"en": 7, "kk": 6, "be": 7}
    card = " ".join((release / "README.md").read_text(encoding="utf-8").split())
    assert "Such overrides per language: kk 1." in card


def test_a_release_that_would_lose_a_whole_language_is_refused_unless_dropped_on_purpose(reviewed):
    assert curate("publish", "--version", "1.0.0", "--to", "dist/ml2b", "--allow-partial").exit_code == 0
    # The Belarusian annotator changes her mind on every text: nothing in be stands any more.
    answer_unanswered(reviewed / "review" / "be" / "be-ales.xlsx", verdict="NO and NO", overwrite=True)
    assert curate("review", "pull", "--lang", "be").exit_code == 0
    assert "21 withdrawn" in curate("merge", "--lang", "be").output

    refused = curate("publish", "--version", "1.1.0", "--to", "dist/ml2b", "--allow-partial")
    assert refused.exit_code == 1
    assert "be: v1.0.0 had it; this release would have none of its rows" in refused.output
    assert "--allow-partial --drop-language be" in refused.output

    published = curate("publish", "--version", "1.1.0", "--to", "dist/ml2b", "--allow-partial", "--drop-language", "be")
    assert published.exit_code == 0, published.output
    assert "since v1.0.0: 0 competitions added, 0 removed, 0 texts changed" in published.output
    assert "  LANGUAGES REMOVED: be" in published.output
    manifest = json.loads((reviewed / "dist" / "ml2b" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["changes"]["languages_removed"] == ["be"]

