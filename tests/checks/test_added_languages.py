"""Languages a curator adds beyond ML²B's: every check reads them, or says plainly what it does not cover.

German (Latin script, a neighbour lingua confuses it with), Hindi (Devanagari, sentences ending in the danda) and
Korean (Hangul) on hand-written translations of tests/checks/sentences.json (tests/checks/added_languages.json).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curation.checks.coverage import coverage, coverage_of_targets
from curation.checks.language_id import rivals
from curation.checks.scripts import ALLOWED
from curation.checks.segments import sentences
from curation.checks.translation import CHECKS, check_length, check_translation
from curation.config import Settings, ProjectSettings
from curation.languages import SUPPORTED

HERE = Path(__file__).parent
SOURCES = json.loads((HERE / "sentences.json").read_text(encoding="utf-8"))["sources"]
ADDED = json.loads((HERE / "added_languages.json").read_text(encoding="utf-8"))
SETTINGS = Settings(project=ProjectSettings(languages=["en", "de", "hi", "ko", "th", "zu"]))
CASES = [(language, key) for language, texts in ADDED["translations"].items() for key in texts]


@pytest.mark.parametrize("language,key", CASES)
def test_a_correct_translation_into_an_added_language_passes_every_check(language, key):
    results = check_translation(SOURCES[key], ADDED["translations"][language][key], language, SETTINGS)
    assert [r.name for r in results] == list(CHECKS)
    assert {r.name: r.detail for r in results if not r.passed} == {}
    adequacy = next(r.detail for r in results if r.name == "adequacy")
    assert "aligned" in adequacy or "nothing to align" in adequacy  # judged, not skipped


@pytest.mark.parametrize("language,rival,why", [
    ("de", "nl", "reads as Dutch"), ("hi", "mr", "reads as Marathi"), ("ko", "ja", "no text in the Hangul script"),
])
def test_a_translation_in_the_neighbour_language_is_flagged(language, rival, why):
    wrong = ADDED["wrong_language"][language]
    assert wrong["language"] == rival
    failed = {r.name: r.detail for r in check_translation(SOURCES["house_description"], wrong["house_description"],
                                                          language, SETTINGS) if not r.passed}
    assert why in failed["language"]
    if language == "ko":
        assert "of the letters are not Hangul (Kana" in failed["script"]


def test_an_added_language_is_told_from_its_neighbours_not_only_from_english():
    assert {"nl", "da", "sv", "nb"} <= set(rivals("de")) and {"fr", "pl"} <= set(rivals("de"))
    assert rivals("hi") == ("hi", "en", "mr")
    assert rivals("ko") == ("ko", "en")
    # ML²B's own keep the rivals they always had
    assert rivals("kk") == ("kk", "en", "ru", "be", "uk", "bg", "mk", "sr", "mn")


def test_every_script_of_the_registry_has_its_letters_known():
    assert {language.script for language in SUPPORTED.values()} <= set(ALLOWED)


def test_the_danda_ends_a_hindi_sentence():
    hindi = ADDED["translations"]["hi"]["titanic_description"]
    assert len(sentences(hindi)) == 3
    assert check_length(SOURCES["titanic_description"], hindi, "hi", SETTINGS).passed
    cut = hindi.rsplit("।", 2)[0] + "। प्रविष्टियों का मूल्यांकन"
    assert "stops mid-sentence" in check_length(SOURCES["titanic_description"], cut, "hi", SETTINGS).detail


def test_a_thai_text_is_not_said_to_stop_mid_sentence_for_lacking_a_full_stop():
    thai = "ทำนายจำนวนจักรยานที่ถูกเช่าในแต่ละชั่วโมง"  # "Predict the number of bikes rented per hour."
    result = check_length(SOURCES["bikes_instruction"], thai, "th", SETTINGS)
    assert result.passed, result.detail


def test_coverage_names_what_each_added_language_lacks():
    found = {item.language.code: item for item in coverage_of_targets(SETTINGS)}
    de, hi, ko, th, zu = (found[code] for code in ("de", "hi", "ko", "th", "zu"))
    assert de.checks[:4] == ["placeholders", "numbers", "language (lingua, against English and 18 neighbours)",
                             "script (Latin)"]
    assert "adequacy (Universal Sentence Encoder)" in de.checks and "adequacy (multilingual-e5-small)" in hi.checks
    assert [gap.what for gap in de.missing] == ["no word lists (curation/checks/lexicon/de.toml)",
                                                "length bounds not measured", "adequacy threshold not calibrated"]
    assert "length 0.25-1.00" in ko.checks  # Hangul packs a syllable per character
    assert str(th.missing[-1]) == "no adequacy check: Thai marks no sentence end to align sentences on"
    assert str(zu.missing[-1]) == "no adequacy check: neither sentence encoder was trained on Zulu"
    assert not any(check.startswith("adequacy") for check in th.checks + zu.checks)


def test_ml2b_languages_are_covered_in_full():
    settings = Settings()
    assert all(coverage(code, settings).complete for code in settings.project.targets)
