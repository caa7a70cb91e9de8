"""A condition or scope the translation left out of a sentence it otherwise renders (curation/checks/scopes.py), as the
adequacy check reports it."""

import pytest

from curation.checks.adequacy import check_adequacy
from curation.checks.scopes import scope_phrases


def test_a_phrase_runs_from_its_condition_word_to_the_clause_end_or_the_next_join():
    phrases = [phrase for phrase, _ in scope_phrases("Forecast the sales for each store and item over the next 28 "
                                                     "days; ignore the notes unless they are in English.")]
    assert phrases == ["for each store", "for each store and item over the next 28 days", "unless they are in English"]


def test_a_phrase_in_the_subject_stops_before_the_sentence_verb_and_a_relative_clause_stays_in_it():
    assert scope_phrases("Transfers within the same bank are included.") == [
        ("within the same bank", "Transfers are included.")]
    assert [phrase for phrase, _ in scope_phrases("Score it for each customer who is active.")] == [
        "for each customer who is active"]


def test_words_that_translators_recast_open_no_phrase():
    assert scope_phrases("Keep only the earliest scan per patient, sorted by date.") == []


DROPPED = [
    ("Ignore the free-text notes unless they are written in English. Score the submissions with macro F1, where "
     "higher is better.",
     "Не учитывайте текстовые заметки, если только они не написаны на английском. Решения оцениваются по macro F1: "
     "чем выше, тем лучше.",
     "Не учитывайте текстовые заметки. Решения оцениваются по macro F1: чем выше, тем лучше.", "ru",
     "unless they are written in English"),
    ("Count the visits excluding those cancelled by the clinic. Submit one row per patient.",
     "Contate le visite escludendo quelle annullate dalla clinica. Inviate una riga per paziente.",
     "Contate le visite. Inviate una riga per paziente.", "it", "excluding those cancelled by the clinic"),
    # under e5 (be, kk, ro): a sentence the alignment embedded, being too short to be settled in its place
    ("Count the visits excluding those cancelled by the clinic. Submit one row per patient.",
     "Numărați vizitele, excluzându-le pe cele anulate de clinică. Trimiteți un rând pentru fiecare pacient.",
     "Numărați vizitele. Trimiteți un rând pentru fiecare pacient.", "ro", "excluding those cancelled by the clinic"),
    ("Ignore the free-text notes unless they are written in English. Score the submissions with macro F1, where "
     "higher is better.",
     "Не ўлічвайце тэкставыя нататкі, калі толькі яны не напісаныя па-англійску. Рашэнні ацэньваюцца па macro F1: "
     "чым вышэй, тым лепш.",
     "Не ўлічвайце тэкставыя нататкі. Рашэнні ацэньваюцца па macro F1: чым вышэй, тым лепш.", "be",
     "unless they are written in English"),
]


@pytest.mark.parametrize("english, correct, broken, language, phrase", DROPPED)
def test_a_dropped_condition_is_named_and_the_translation_that_keeps_it_passes(english, correct, broken, language,
                                                                               phrase):
    assert check_adequacy(english, correct, language).passed
    result = check_adequacy(english, broken, language)
    assert not result.passed and result.detail.startswith("condition: line 1")
    assert repr(phrase) in result.detail


@pytest.mark.parametrize("language, translation", [
    ("fr", "Colonnes : `unit_id`, `rpm` et l'étiquette `fault`, qui signale une panne dans les 72 heures suivantes. "
           "Les lignes sans étiquette ne sont pas évaluées."),
    ("es", "Columnas: `unit_id`, `rpm` y la etiqueta `fault`, que indica una avería en las 72 horas siguientes. "
           "Las filas sin etiqueta no se evalúan."),
])
def test_a_phrase_whose_numbers_the_translation_has_is_not_suspected(language, translation):
    # "within the following 72 hours" moved into the sentence before: the sentence paired with its English lacks it,
    # but the translation has its number, so the phrase is there
    english = ("Columns: `unit_id`, `rpm` and the label `fault`. The label marks a failure within the following 72 "
               "hours; rows without a label are not scored.")
    assert check_adequacy(english, translation, language, ["unit_id", "rpm", "fault"]).passed
