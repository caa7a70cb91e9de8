"""A neighbour's everyday words inside a translation, found by word frequencies (curation/checks/word_frequency.py)."""

from __future__ import annotations

import pytest

from curation.checks.signs import foreign_signs
from curation.checks.translation import REGISTRY, Pair
from curation.checks.word_frequency import neighbour_only, neighbour_words_in
from curation.config import Settings
from tests.checks import natural

SETTINGS = Settings()


def language_check(case: natural.Case):
    return REGISTRY["language"](Pair(case.source, case.translation, case.language, SETTINGS, case.names))


def the_case(name: str, language: str, text_id: str, defect: str | None) -> list[natural.Case]:
    cases = [case for case in natural.load(name, (language,)) if case.text_id == text_id and case.defect == defect]
    assert cases, (name, language, text_id, defect)
    return cases


@pytest.mark.parametrize("name,language,text_id,defect,neighbour", [
    ("calibration_extra", "fr", "domain_health", "mixed_language", "Italian"),  # "santé pubblica"
    ("calibration_extra", "it", "domain_reviews", "mixed_language", "Spanish"),  # "del sentimiento"
    ("calibration_4c", "es", "tag_picking", "language_confusion", "Catalan"),  # a whole tag in Catalan
    ("calibration_4c", "ro", "shipments_card", "mixed_language", "Spanish"),  # "tienen"
    ("calibration_4a", "ru", "desc_field_boundaries", "mixed_language", "Ukrainian"),  # "можна"
    ("meaning_calibration_6d", "pl", "c6d_plagiarism_pairs", "language_slip", "Czech"),  # "pokud"
    ("meaning_calibration_7a", "ar", "m7a_card_day_ahead_price", "language_slip", "Persian"),  # "آموزش"
])
def test_a_neighbour_s_everyday_words_the_hand_lists_lack_are_caught(name, language, text_id, defect, neighbour):
    """Broken calibration texts the language check passed before word frequencies: each slipped word is common in the
    neighbour and a thousand times rarer in the target, and the detail names the neighbour."""
    for case in the_case(name, language, text_id, defect):
        result = language_check(case)
        assert not result.passed, case.translation
        assert f"everyday {neighbour} word" in result.detail


@pytest.mark.parametrize("name,language,text_id", [
    ("calibration_hard", "it", "ticket_routing_description"),  # "care": Italian for dear, everyday in Romanian
    ("calibration_hard", "it", "domain_support"),
    ("meaning_calibration_5c", "it", "maize_price"),  # "mais": Italian for maize, everyday in French
    ("calibration_4c", "pl", "route_eta"),  # "hubu": a Polish hub's genitive, everyday in Czech
    ("meaning_calibration_2d", "ro", "loans_card"),  # "personali": Romanian, rarer than its short list goes
])
def test_words_the_target_also_writes_are_no_neighbour_s(name, language, text_id):
    """The correct calibration texts whose words came closest to the thresholds stay clean."""
    for case in the_case(name, language, text_id, None):
        result = language_check(case)
        assert result.passed, result.detail


def test_the_target_s_own_list_decides_what_it_writes():
    assert "não" in neighbour_only("es", "pt")
    assert "dados" not in neighbour_only("es", "pt")  # Spanish dice, and "given"
    assert "tienen" in neighbour_only("ro", "es")
    assert "personali" not in neighbour_only("ro", "it")  # missing from the Romanian list, counted just below its end
    assert "della" in neighbour_only("ro", "it")


def test_a_language_without_a_frequency_list_has_no_such_evidence():
    assert neighbour_words_in(["және", "басқа"], "kk", ("ru",)) is None
    assert neighbour_words_in(["також"], "ru", ("xx",)) is None


def test_a_word_of_the_english_source_is_not_counted():
    """A column or a term the English itself writes ("rischio") is the source's word, whatever the neighbour writes."""
    text = "Analizați coloana rischio și valorile ei."
    assert foreign_signs(text, "ro") == "rischio: an everyday Italian word, rare in Romanian"
    assert foreign_signs(text, "ro", english={"rischio"}) is None


def test_a_neighbour_s_clause_without_such_words_is_still_read_by_lingua():
    """The clause reading that word frequencies now come before still names the neighbour: "furgoneta o bicicleta de
    carga" holds no word the Romanian list lacks a thousand times over, and lingua reads the clause as Spanish."""
    case = next(case for case in natural.load("calibration_4c", ("ro",))
                if case.text_id == "route_eta" and case.defect == "mixed_language")
    assert "has a part in Spanish: 'furgoneta o bicicleta de carga'" in language_check(case).detail
