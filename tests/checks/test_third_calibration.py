"""The third surface calibration set (tests/checks/natural/calibration_3a … _3d, written by helpers that had not seen the
checks): correct phrasings the checks once failed pass, defects they once missed are caught."""

from __future__ import annotations

import pytest

from curation.checks.translation import check_translation
from curation.config import Settings
from tests.checks import natural

SETTINGS = Settings()


def _correct(name: str, language: str, text_id: str, index: int) -> natural.Case:
    return [case for case in natural.load(name, (language,)) if case.text_id == text_id and case.defect is None][index]


def _broken(name: str, language: str, text_id: str, defect: str, note: str) -> natural.Case:
    return next(case for case in natural.load(name, (language,))
                if case.text_id == text_id and case.defect == defect and note in case.note)


def _failed(case: natural.Case) -> dict[str, str]:
    results = check_translation(case.source, case.translation, case.language, SETTINGS, case.names)
    return {result.name: result.detail for result in results if not result.passed}


@pytest.mark.parametrize("name,language,text_id,index,check", [
    # Belarusian compounds with што- (штогадовыя: yearly) have two stresses, so two о: not Russian spelling.
    ("calibration_3b", "be", "desc_co2_plants", 0, "language"),
    # "per" is Romanian too (per document), "fila" Italian too (a row): neither gives a neighbour away.
    ("calibration_3d", "ro", "card_bike_share", 1, "language"),
    ("calibration_3c", "it", "credit_default_task", 1, "language"),
    # 分位点 is a quantile, not minutes; "dalla prima transazione" is the first one, not "before"; "күн" in a solar
    # installation is the sun, not a day; "nothing but" says "only", not a negation.
    ("calibration_3a", "ja", "desc_flu", 0, "meaning"),
    ("calibration_3c", "it", "card_fraud_task", 0, "meaning"),
    ("calibration_3b", "kk", "desc_solar_output", 1, "meaning"),
    ("calibration_3a", "ja", "desc_sepsis", 2, "meaning"),
    # Chinese says "do not" to the reader with 别 (别用准确率评判: do not judge by accuracy).
    ("calibration_3a", "zh", "desc_readmission", 2, "meaning"),
    # "scoring" is a loan in French, Italian and Spanish; a hyphenated English compound kept whole is a loan too.
    ("calibration_3c", "fr", "credit_tag", 1, "not_copy"),
    ("calibration_3c", "it", "credit_tag", 2, "not_copy"),
    ("calibration_3d", "pl", "tag_ride_demand", 1, "not_copy"),
    # A clause of the English made a sentence of its own ("…, and it then leaves the file") is not added content.
    ("calibration_3c", "es", "loan_book_card", 2, "adequacy"),
])
def test_correct_phrasings_the_checks_once_failed_pass(name, language, text_id, index, check):
    assert check not in _failed(_correct(name, language, text_id, index))


@pytest.mark.parametrize("name,language,text_id,note,check,detail", [
    # A clause left in English inside a translated sentence: words of the English in a row.
    ("calibration_3d", "ro", "desc_ride_fare", "header row", "not_copy", "in English"),
    # A clause in a neighbour language inside a sentence that reads as the target as a whole.
    # (found by lingua reading the clause first; since word frequencies, by "cual" before lingua is asked)
    ("calibration_3c", "it", "loan_book_card", "tal cual", "language",
     "cual: an everyday Spanish word, rare in Italian"),
])
def test_defects_the_checks_once_missed_are_caught(name, language, text_id, note, check, detail):
    case = _broken(name, language, text_id, "english_echo" if check == "not_copy" else "mixed_language", note)
    assert detail in _failed(case).get(check, "")


def test_e5_is_not_asked_for_a_translation_that_renders_each_english_sentence_in_its_place():
    from curation.checks.adequacy import check_adequacy, units
    from curation.checks.alignment import recalled
    from curation.checks.encoders import vectors

    case = next(case for case in natural.load("calibration_3b", ("be",)) if case.defect is None
                and len(units(case.source, case.names)) == len(units(case.translation, case.names))
                and "one for each English one" in check_adequacy(case.source, case.translation, "be", case.names).detail)
    vectors.clear()
    result = check_adequacy(case.source, case.translation, "be", case.names)
    assert result.passed and "one for each English one" in result.detail
    assert not any(("e5", unit.plain) in vectors._cache for unit in units(case.translation, case.names))
    links = recalled((case.source, case.translation, "be", case.names))  # the meaning checks read the same pairs
    assert [(link.t, link.s) for link in links] == [((i,), (i,)) for i in range(len(links))]


def test_e5_still_judges_a_translation_that_lost_a_sentence():
    from curation.checks.adequacy import check_adequacy

    case = _broken("calibration_3b", "be", "desc_grid_load", "omission", "")
    result = check_adequacy(case.source, case.translation, "be", case.names)
    assert "one for each English one" not in result.detail


@pytest.mark.parametrize("language", ["be", "kk", "ro"])
def test_e5_is_not_asked_for_the_sentences_use_pairs_beyond_doubt(language):
    from curation.checks.adequacy import check_adequacy, units
    from curation.checks.encoders import vectors
    from curation.checks.settling import TYPICAL_RATIO, structure_fits

    # A data card with one sentence more than its English (a split) whose first line is longer than a line for line
    # rendering would be: the structure alone settles nothing at its start, USE settles the first lines.
    case = next(case for case in natural.load("calibration_extra", (language,))
                if case.text_id == "reviews_data_card" and case.defect is None
                and len(units(case.translation, case.names)) == len(units(case.source, case.names)) + 1)
    english, translated = units(case.source, case.names), units(case.translation, case.names)
    assert not structure_fits(english[0], translated[0], TYPICAL_RATIO[language])
    vectors.clear()
    assert check_adequacy(case.source, case.translation, language, case.names).passed
    embedded = [("e5", unit.plain) in vectors._cache for unit in translated]
    assert not any(embedded[:2]) and any(embedded)  # the first lines paired by USE, the split by e5


# (Kazakh's digits_data_card, here before, now fits by its structure alone: settling.SPAN)
@pytest.mark.parametrize("natural_set,language,text_id", [("calibration", "be", "house_data_card"),
                                                          ("calibration_extra", "kk", "reviews_data_card"),
                                                          ("calibration", "ro", "spaceship_description")])
def test_e5_is_not_asked_at_all_when_every_sentence_fits_or_use_is_sure_of_it(natural_set, language, text_id):
    from curation.checks.adequacy import check_adequacy, units
    from curation.checks.alignment import recalled
    from curation.checks.encoders import vectors

    case = next(case for case in natural.load(natural_set, (language,))
                if case.text_id == text_id and case.defect is None)
    vectors.clear()
    result = check_adequacy(case.source, case.translation, language, case.names)
    assert result.passed and "matched beyond doubt" in result.detail
    assert not any(("e5", unit.plain) in vectors._cache for unit in units(case.translation, case.names))
    links = recalled((case.source, case.translation, language, case.names))
    assert [(link.t, link.s) for link in links] == [((i,), (i,)) for i in range(len(links))]
