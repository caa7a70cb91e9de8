"""The lexical meaning checks (meaning, terms, roles) and the word lists they read: a translation that keeps every
token and still says something else is caught, and the sentence and the words are named; natural variation passes."""

from __future__ import annotations

import re
import tomllib

import pytest

from curation.checks.meaning import check_meaning
from curation.checks.roles import check_roles
from curation.checks.senses import FOLDER, language_data, lower, relations, senses
from curation.checks.translation import check_translation
from curation.config import Settings
from curation.languages import LANGUAGES
from tests.checks import natural

SOURCE = ("Train your model on `train.csv` and predict `churn` for each customer in `test.csv`. "
          "Do not use external data. A higher score is better. Forecast the consumption per hour.")


def failed(result) -> bool:
    return not result.passed


def checked(name: str, english: str, translation: str, language: str):
    """One check's result on a translation as a run checks it: on the sentences adequacy aligned."""
    return next(r for r in check_translation(english, translation, language, Settings()) if r.name == name)


def test_every_word_file_parses_and_names_only_known_concepts():
    rel = relations()
    known = ({rel.strong, rel.absent, rel.soft, rel.kept, rel.ensure, rel.alter, rel.always, rel.range, "ignore",
              rel.clause, "if", "each", "except", "within", *rel.instead, *rel.conditions, *rel.roles}
             | {c for _, one, other in rel.axes.values() for c in (one, other)}
             | {unit for members in rel.units.values() for unit in members})
    files = sorted(FOLDER.glob("*.toml"))
    assert {path.stem for path in files} >= {"concepts", "en", *(c for c in natural.LANGUAGES)}
    for path in files:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        if path.stem != "concepts":
            assert set(data["concepts"]) <= known, (path.name, set(data["concepts"]) - known)
            assert senses(path.stem) is not None


@pytest.mark.parametrize("language, correct, broken, words", [
    # a negation lost, in morphology: Turkish -ma/-me, Kazakh -ба/-па, Japanese ない
    ("tr", "Harici veri kullanmayın.", "Harici veri kullanın.", "'not'"),
    ("kk", "Сыртқы деректерді пайдаланбаңыз.", "Сыртқы деректерді пайдаланыңыз.", "'not'"),
    ("ja", "外部データは使用しないでください。", "外部データを使用してください。", "'not'"),
    ("ru", "Не используйте внешние данные.", "Используйте внешние данные.", "'not'"),
])
def test_a_lost_negation_is_caught_with_the_sentence_and_word(language, correct, broken, words):
    source = "Do not use external data."
    assert check_meaning(source, correct, language).passed
    result = check_meaning(source, broken, language)
    assert failed(result) and result.detail.startswith("negation: line 1 ") and words in result.detail


def test_a_negation_said_with_a_word_of_absence_is_not_a_flip():
    # "not included" rendered as "excluded", "missing" as "не заполнен": the same meaning in other words
    assert check_meaning("Sales on holidays are not included.", "Продажи в праздничные дни исключены.", "ru").passed
    assert check_meaning("When `x` is missing, fill it.", "Если `x` не заполнен, заполните его.", "ru").passed


@pytest.mark.parametrize("source, correct, broken, language, kind", [
    ("A higher score is better.", "Чем выше балл, тем лучше.", "Чем ниже балл, тем лучше.", "ru", "direction"),
    ("Minimize the error.", "Minimisez l'erreur.", "Maximisez l'erreur.", "fr", "direction"),
    ("List results in descending order.", "结果按降序排列。", "结果按升序排列。", "zh", "direction"),
    ("At least one product is on sale.", "En az bir ürün indirimdedir.", "En fazla bir ürün indirimdedir.", "tr",
     "comparison"),
    ("Trips made before July 2016.", "Viajes realizados antes de julio de 2016.",
     "Viajes realizados después de julio de 2016.", "es", "comparison"),
    ("Readings every 10 seconds.", "Odczyty co 10 sekund.", "Odczyty co 10 minut.", "pl", "unit"),
    ("Units sold, in thousands.", "Unități vândute, în mii.", "Unități vândute, în milioane.", "ro", "unit"),
    # power, energy, mass, length, area, volume, frequency, money: SI prefixes and the units translators swap
    ("Load in megawatts.", "Нагрузка в мегаваттах.", "Нагрузка в киловаттах.", "ru", "unit"),
    ("Capacity in gigawatts.", "Capacità in gigawatt.", "Capacità in megawatt.", "it", "unit"),
    ("Energy in kilowatt-hours.", "能耗以千瓦时计。", "能耗以兆瓦时计。", "zh", "unit"),
    ("Doses in micrograms.", "Dosis en microgramos.", "Dosis en miligramos.", "es", "unit"),
    ("Pixels are 0.5 micrometres wide.", "Шырыня пікселя — 0.5 мікраметра.", "Шырыня пікселя — 0.5 міліметра.", "be",
     "unit"),
    ("Area in hectares.", "Alan hektar cinsindendir.", "Alan akre cinsindendir.", "tr", "unit"),
    ("Areas in square feet.", "Площади в квадратных футах.", "Площади в квадратных метрах.", "ru", "unit"),
    ("Area in square metres.", "المساحة بالمتر المربع.", "المساحة بالفدان.", "ar", "unit"),
    ("Volume in litres.", "Objętość w litrach.", "Objętość w metrach sześciennych.", "pl", "unit"),
    ("Volume in millilitres.", "容量はミリリットル単位です。", "容量はリットル単位です。", "ja", "unit"),
    ("Sampled at 50 hertz.", "50 герц жиілікпен алынған.", "50 килогерц жиілікпен алынған.", "kk", "unit"),
    ("Frequency in megahertz.", "Frecvența în megaherți.", "Frecvența în kiloherți.", "ro", "unit"),
    ("Amounts in cents.", "Montants en centimes.", "Montants en euros.", "fr", "unit"),
    ("The backhaul capacity in gigabits per second.", "Ёмкость backhaul, Гбит/с.", "Ёмкость backhaul, Мбит/с.", "ru",
     "unit"),  # a data rate's abbreviation
])
def test_a_reversed_direction_limit_or_unit_is_caught(source, correct, broken, language, kind):
    assert check_meaning(source, correct, language).passed
    result = check_meaning(source, broken, language)
    assert failed(result) and result.detail.startswith(f"{kind}: line 1 "), result.detail


def test_a_bound_in_time_reversed_in_one_sentence_is_caught_though_the_text_says_after_elsewhere():
    # "after 1 July 2023" bounds a moment; "después" of the second sentence orders steps and evens the whole text out
    source = "Only claims filed after 1 July 2023 are scored. Normalise the amounts, then fit the model."
    good = ("Solo se evalúan los siniestros presentados después del 1 de julio de 2023. Normaliza los importes y "
            "después ajusta el modelo.")
    assert checked("meaning", source, good, "es").passed
    result = checked("meaning", source, good.replace("después del", "antes del"), "es")
    assert failed(result) and result.detail.startswith("comparison: line 1 ") and "'antes' (before)" in result.detail


def test_a_number_whose_own_unit_changed_is_caught_though_the_counts_even_out():
    # two numbers exchanged their units: as many hours and minutes on both sides, each number's unit another
    source = "Keep interviews booked at least 48 hours in advance, and ignore slots shorter than 30 minutes."
    good = "Zachowaj rozmowy umówione co najmniej 48 godzin wcześniej i pomiń terminy krótsze niż 30 minut."
    broken = "Zachowaj rozmowy umówione co najmniej 48 minut wcześniej i pomiń terminy krótsze niż 30 godzin."
    assert checked("meaning", source, good, "pl").passed
    result = checked("meaning", source, broken, "pl")
    assert failed(result) and "says 48 'minut' (minute) where English line 1" in result.detail
    assert "says 48 'hours' (hour)" in result.detail


def test_a_negation_whose_only_trace_is_the_english_absent_word_is_lost():
    # "Missing values were not imputed" as "missing values were imputed": the absent word renders "missing", nothing
    # renders "not" (the check used to take any absent word for the negation)
    source = "Missing values were not imputed."
    assert check_meaning(source, "Les valeurs manquantes n'ont pas été imputées.", "fr").passed
    result = check_meaning(source, "Les valeurs manquantes ont été imputées.", "fr")
    assert failed(result) and result.detail.startswith("negation: line 1 ")


def test_a_negation_said_twice_in_another_sentence_does_not_excuse_a_lost_one():
    # Italian negates twice ("non usare mai") where English negates once: that sentence took no negation from here
    source = "The column `sensor_id` is not a feature. Never use intervals recorded later."
    broken = "La colonna `sensor_id` è una feature. Non usare mai intervalli registrati dopo."
    [result] = [r for r in check_translation(source, broken, "it", Settings()) if r.name == "meaning"]  # aligned
    assert failed(result) and result.detail.startswith("negation: line 1 "), result.detail


@pytest.mark.parametrize("source, translation, language", [
    ("Do not use weather observations recorded after the forecast hour.",  # a prohibition said with "avoid"
     "Évitez d'utiliser les observations météo postérieures à l'heure prévue.", "fr"),
    ("Do not use the actual departure time.", "Prescinde de la hora real de salida.", "es"),
    ("Data card: urban NO2 and traffic.", "Fiche de données : NO2 urbain et trafic.", "fr"),  # NO2 is no "no"
    ("The data describes last-mile deliveries.", "数据描述了最后一公里配送。", "zh"),  # an idiom, not a distance
    ("A flight counts as delayed if it arrives more than 15 minutes late.",
     "Un volo è in ritardo se arriva più di 15 minuti dopo; altrimenti è in orario.", "it"),  # on time, not hours
    ("Pick the threshold with the highest recall among those whose precision is at least 0.9.",
     "適合率が 0.9 を下回らない閾値の中で、再現率が最大となるものを選びます。", "ja"),  # "does not fall below"
    ("Predictions must not be negative.", "Predicțiile trebuie să fie nenegative.", "ro"),
    ("Your score is the macro F1, which you should maximize.",
     "Ваша ацэнка — macro F1, і яе трэба максімізаваць.", "be"),
    ("A higher value means a better model.", "La métrica hay que maximizarla.", "es"),  # higher is better = maximize
])
def test_correct_phrasings_of_the_second_calibration_set_pass(source, translation, language):
    result = check_meaning(source, translation, language)
    assert result.passed, result.detail


@pytest.mark.parametrize("source, broken, language", [
    ("The score, to be maximized, is the mean ROC AUC.", "Wynikiem, który należy zminimalizować, jest średnie ROC AUC.",
     "pl"),  # a perfective prefix
    ("The one with the highest recall is taken.", "Seçilen, duyarlılığı en düşük olandır.", "tr"),  # a superlative
    ("A higher value means a better model.", "La métrica hay que minimizarla.", "es"),  # across pairs: higher/minimize
])
def test_a_reversed_direction_in_other_words_is_caught(source, broken, language):
    result = check_meaning(source, broken, language)
    assert failed(result) and result.detail.startswith("direction: line 1 "), result.detail


@pytest.mark.parametrize("source, correct, broken, language", [
    ("F1 is the primary metric and should be maximized.", "F1 birincil metriktir ve en üst düzeye çıkarılmalıdır.",
     "F1 birincil metriktir ve en alt düzeye indirilmelidir.", "tr"),  # "to the lowest level"
    ("Minimise the mean absolute error (MAE).", "Riducete al minimo l'errore assoluto medio (MAE).",
     "Portate al massimo l'errore assoluto medio (MAE).", "it"),  # "bring to the maximum", not "at most"
    ("The metric is ROC AUC, which should be maximized.", "المقياس هو ROC AUC، وينبغي تعظيمه.",
     "المقياس هو ROC AUC، وينبغي تقليله.", "ar"),  # "maximize it" / "reduce it", with the pronoun
])
def test_maximize_and_minimize_said_as_a_phrase_or_with_a_pronoun(source, correct, broken, language):
    assert check_meaning(source, correct, language).passed
    result = check_meaning(source, broken, language)
    assert failed(result) and result.detail.startswith("direction: line 1 "), result.detail


@pytest.mark.parametrize("correct, broken, language", [
    ("模型依据 PR AUC 排名，越高越好。", "模型依据 PR AUC 排名，越低越好。", "zh"),
    ("Модели сравнивайте по PR AUC; больше — лучше.", "Модели сравнивайте по PR AUC; меньше — лучше.", "ru"),
    ("Los modelos se ordenan por el área bajo la curva de precisión-exhaustividad (PR AUC); cuanto más alta, mejor.",
     "Los modelos se ordenan por el área bajo la curva de precisión-exhaustividad (PR AUC); cuanto más baja, mejor.",
     "es"),
])
def test_the_area_under_a_curve_says_nothing_about_lower_values(correct, broken, language):
    # "under" is a word for "less": read in "the area under the curve", it made the English say "lower" as often as
    # a translation that reversed "higher is better" into "lower is better", and the reversal passed
    english = "Models are ranked by the area under the precision-recall curve (PR AUC), where higher is better."
    assert check_meaning(english, correct, language).passed
    result = check_meaning(english, broken, language)
    assert failed(result) and result.detail.startswith("direction: line 1 "), result.detail


def test_conditions_are_compared_only_when_concepts_toml_names_them(monkeypatch):
    # Off by default (correct translations leave "only" and "except" implicit too often); a project can name them.
    source = "Predict the churn for each customer. Use only the data provided."
    dropped = "Предскажите отток для клиента. Используйте только данные."
    assert relations().conditions == () and check_meaning(source, dropped, "ru").passed
    monkeypatch.setattr("curation.checks.meaning.relations",
                        lambda: relations().__class__(**{**relations().__dict__, "conditions": ("each",)}))
    result = check_meaning(source, dropped, "ru")
    assert failed(result) and "'for each' (each)" in result.detail


def test_a_language_without_a_word_file_is_not_checked():
    result = check_meaning("Do not use external data.", "Verwenden Sie externe Daten.", "de")
    assert result.passed and result.detail == "not checked: no word list for de"


def test_lowercase_reads_each_script_as_its_language_writes_it():
    assert lower("İSTANBUL", "tr") == "istanbul" and lower("IŞIK", "tr") == "ışık"
    assert lower("ştiinţă", "ro") == "știință"
    assert lower("درّب", "ar") == "درب"


def test_swapped_files_and_swapped_key_and_target_are_caught():
    correct = ("Обучите модель на `train.csv` и предскажите `churn` для каждого клиента из `test.csv`. "
               "Не используйте внешние данные. Чем выше балл, тем лучше. Прогнозируйте потребление за каждый час.")
    assert check_roles(SOURCE, correct, "ru").passed
    swapped = correct.replace("`train.csv`", "@").replace("`test.csv`", "`train.csv`").replace("@", "`test.csv`")
    result = check_roles(SOURCE, swapped, "ru")
    assert failed(result) and "gives `test.csv` the part of `train.csv`" in result.detail
    source = "Use `TransactionID` as the key and predict the probability in `isFraud`."
    good = "Используйте `TransactionID` как ключ и предскажите вероятность в `isFraud`."
    bad = "Используйте `isFraud` как ключ и предскажите вероятность в `TransactionID`."
    assert check_roles(source, good, "ru").passed and failed(check_roles(source, bad, "ru"))


def test_identifiers_whose_surrounding_words_crossed_are_a_swap_without_any_role_word():
    # no word gives either file a part ("gives", "holds"): the words around each say what it is
    source = "`sensors.csv` gives the location of every sensor, while `no2_hourly.csv` holds the hourly readings."
    good = ("`sensors.csv` indique l'emplacement de chaque capteur, tandis que `no2_hourly.csv` contient les relevés "
            "horaires.")
    reordered = ("Les relevés horaires sont dans `no2_hourly.csv`, et l'emplacement de chaque capteur dans "
                 "`sensors.csv`.")
    swapped = (good.replace("`sensors.csv`", "@").replace("`no2_hourly.csv`", "`sensors.csv`")
               .replace("@", "`no2_hourly.csv`"))
    assert check_roles(source, good, "fr").passed and check_roles(source, reordered, "fr").passed
    result = check_roles(source, swapped, "fr")
    assert failed(result) and ("has `sensors.csv` where the English has `no2_hourly.csv`: 'tandis que `sensors.csv` "
                               "contient les relevés horaires' says what the English says of `no2_hourly.csv`, "
                               "'while `no2_hourly.csv` holds the hourly readings'") in result.detail


def test_a_part_that_moves_to_the_other_file_is_a_swap_even_when_the_other_had_no_role_word():
    # "submit for" is no role word: only `train.csv` has a part in the English, and the translation gives it to
    # `test.csv` (calibration set 2d, Turkish and Polish)
    source = "Train on `train.csv` and submit one row for each `loan_id` in `test.csv`."
    good = "Modeli `train.csv` üzerinde eğitin ve `test.csv` içindeki her `loan_id` için bir satır gönderin."
    swapped = "Modeli `test.csv` üzerinde eğitin ve `train.csv` içindeki her `loan_id` için bir satır gönderin."
    assert ("puts 'eğitin' (train) with `test.csv`; the English puts 'train' with `train.csv`"
            in _swap_caught(source, good, swapped, "tr"))


def test_a_prediction_said_with_the_noun_gives_its_file_a_part():
    # "predictions are made for" names the file predicted for as "predict for" does; the English list had only the
    # verb, so a translation that trained on the test file and predicted for the training file kept every part the
    # English gave (calibration set 2d, Turkish; 2026-11-29). Italian says "le previsioni" as well as "la previsione".
    source = "Models are fitted on `claims_train.csv`, and predictions are made for `claims_test.csv`."
    good = "Modeller `claims_train.csv` üzerinde eğitilir ve tahminler `claims_test.csv` için yapılır."
    swapped = "Modeller `claims_test.csv` üzerinde eğitilir ve tahminler `claims_train.csv` için yapılır."
    assert "gives `claims_test.csv` the part of `claims_train.csv`" in _swap_caught(source, good, swapped, "tr")
    italian = "I modelli vengono addestrati su `claims_train.csv` e le previsioni si fanno per `claims_test.csv`."
    _swap_caught(source, italian, italian.replace("claims_train", "@").replace("claims_test", "claims_train")
                 .replace("@", "claims_test"), "it")


def _swap_caught(source: str, good: str, swapped: str, language: str) -> str:
    """The roles check passes the good translation and fails the swapped one: the failure's detail."""
    assert check_roles(source, good, language).passed
    result = check_roles(source, swapped, language)
    assert failed(result)
    return result.detail


def test_a_part_shared_by_two_identifiers_named_together_or_given_to_an_id_column_is_no_swap():
    # identifiers the English names together share their part, whichever the word order puts it beside
    source = "The column `load_mw` is the target; `timestamp` and `substation_id` together identify a row."
    assert check_roles(source, "Целевая переменная — `load_mw`, а строку идентифицирует пара `timestamp` и "
                               "`substation_id`.", "ru").passed
    # predictions are given per id: "predictions" beside the id column instead of the target is word order
    # (calibration set 2b, Kazakh)
    source = ("Train on `admissions_train.csv` and submit predictions for every `encounter_id` in `admissions_test.csv`; "
              "the target column is `readmitted_30d` (1 if the patient was readmitted, 0 otherwise).")
    assert check_roles(source, "Оқыту үшін `admissions_train.csv` қолданыңыз. Болжамдарды `admissions_test.csv` ішіндегі "
                               "әрбір `encounter_id` бойынша жіберіңіз; таргет — `readmitted_30d` (1 — қайта "
                               "госпитализация болды, 0 — болмады).", "kk").passed
    # a column and a file are no pair: the target and its test file both go with "predict" (calibration set 3d)
    source = ("For every record in `test.csv`, predict `delay_s`: the difference, in seconds, between the actual and "
              "the scheduled arrival. A negative value means the bus was early.")
    assert check_roles(source, "`delay_s` to różnica w sekundach między rzeczywistym a rozkładowym przyjazdem – przewidź "
                               "ją dla każdego rekordu z `test.csv`; wartość ujemna oznacza, że autobus przyjechał za "
                               "wcześnie.", "pl").passed


# The calibration sets' role false alarms (2026-11-29): a part beside code or a format string, a list item's words
# reordered around a value, the verb nearest the file the data comes from, "predictor" (a feature).
_TAXI = "Predict the duration in seconds of each ride in `test.csv`, using the completed rides in `train.csv`."


@pytest.mark.parametrize("source, good, language", [
    ("Submit rows of `pixel_id,prob` without the index column (pass `index=False` in pandas).",
     "提交 `pixel_id,prob` 行，不含索引列（向 pandas 传入 `index=False`）。", "zh"),
    ("- `label`: target class, `benign` or one of 6 attack types; missing in test_flows.parquet",
     "- `label`: в test_flows.parquet отсутствует; целевой класс — `benign` или один из 6 типов атак", "ru"),
    (_TAXI, "Na podstawie zakończonych przejazdów z `train.csv` przewidź, ile sekund potrwa każdy przejazd z "
            "`test.csv`.", "pl"),
    ("The target is the column `tmax_c` of `daily_obs.csv`; the column `tmax_f` holds the same value in Fahrenheit "
     "and must not be used as a feature.",
     "La variable a predecir es la columna `tmax_c` de `daily_obs.csv`. Está prohibido usar como predictor la columna "
     "`tmax_f`, que tiene el mismo valor.", "es"),
])
def test_no_move_onto_code_from_a_list_items_head_or_onto_the_source_file(source, good, language):
    assert check_roles(source, good, language).passed


def test_the_data_source_given_the_other_files_part_is_still_a_move():
    swapped = "Na podstawie przejazdów z `test.csv` przewidź, ile sekund potrwa każdy przejazd z `train.csv`."
    assert failed(check_roles(_TAXI, swapped, "pl"))
    assert failed(check_roles("Train on `train.csv` and submit one row for each `loan_id` in `test.csv`.",
                              "Modeli `test.csv` üzerinde eğitin ve `train.csv` içindeki her `loan_id` için bir satır "
                              "gönderin.", "tr"))


def test_identifiers_that_change_list_items_are_a_swap_but_one_that_moves_is_not():
    source = "- `id` — the key of the table.\n- `label` — the target."
    swapped = "- `label` — ключ таблицы.\n- `id` — целевая переменная."
    assert failed(check_roles(source, swapped, "ru"))
    # values with their sides: pixels inside the mask are 1, outside 0
    source = "Pixels inside the mask are labelled 1, pixels outside it 0."
    assert check_roles(source, "Пиксели внутри маски помечены 1, пиксели вне её — 0.", "ru").passed
    assert failed(check_roles(source, "Пиксели вне маски помечены 1, пиксели внутри неё — 0.", "ru"))


@pytest.mark.parametrize("source, good, swapped, language", [
    # the second held-out set's and the fourth calibration set's numerator and denominator
    ("Utilization is `traffic_gbps` divided by `capacity_gbps`; it rarely exceeds 0.9.",
     "L'utilizzo è `traffic_gbps` diviso per `capacity_gbps`; raramente supera 0.9.",
     "L'utilizzo è `capacity_gbps` diviso per `traffic_gbps`; raramente supera 0.9.", "it"),
    ("Columns: `school_id`, `date`, `enrolled` and `present`. `attendance_rate` is `present` divided by `enrolled`.",
     "Бағандар: `school_id`, `date`, `enrolled` және `present`. `attendance_rate` — `present` мәнін `enrolled` мәніне "
     "бөлгенге тең.",
     "Бағандар: `school_id`, `date`, `enrolled` және `present`. `attendance_rate` — `enrolled` мәнін `present` мәніне "
     "бөлгенге тең.", "kk"),
    ("The ratio `allowed_usd` / `billed_usd` never exceeds 1.", "`allowed_usd` / `billed_usd` oranı hiçbir zaman 1'i aşmaz.",
     "`billed_usd` / `allowed_usd` oranı hiçbir zaman 1'i aşmaz.", "tr"),
    ("Estimate one minus the ratio of `yield_obs` to `yield_ref`.", "Oszacuj jeden minus stosunek `yield_obs` do `yield_ref`.",
     "Oszacuj jeden minus stosunek `yield_ref` do `yield_obs`.", "pl"),
])
def test_operands_the_english_orders_are_caught_the_other_way_round(source, good, swapped, language):
    # two names in a list ("`enrolled` және `present`") have no order; the operation's have
    assert check_roles(source, good, language).passed
    result = check_roles(source, swapped, language)
    assert failed(result) and "the two are swapped" in result.detail


@pytest.mark.parametrize("source, swapped, language", [
    # "identified by" as the verb: the key's part (the held-out set's wheat yields, the second's retail sales)
    ("Each field is identified by `field_id`; the target column is `yield_t_ha`.",
     "Ogni campo è identificato da `yield_t_ha`; la colonna target è `field_id`.", "it"),
    ("Each row of `test.csv` is identified by `id`; predict `sales` for it.",
     "Her bir `test.csv` satırı `sales` ile belirlenir; bu satırlar için `id` değerini tahmin edin.", "tr"),
    ("Each field is identified by `field_id`; the target column is `yield_t_ha`.",
     "Әр алқап `yield_t_ha` арқылы анықталады; мақсатты баған — `field_id`.", "kk"),
])
def test_a_key_said_with_the_verb_identify_keeps_its_part(source, swapped, language):
    good = swapped.replace("`field_id`", "@").replace("`yield_t_ha`", "`field_id`").replace("@", "`yield_t_ha`")
    good = good.replace("`sales`", "@").replace("`id`", "`sales`").replace("@", "`id`")
    assert check_roles(source, good, language).passed
    assert failed(check_roles(source, swapped, language))


def test_a_description_in_brackets_or_after_a_colon_gives_the_identifier_its_part():
    # the fourth calibration set's flight legs: the key and the target said in brackets after each column
    source = ("Each row has `leg_id` (key), `tail` (aircraft registration), `distance_km` and `fuel_kg` (the target, "
              "in kilograms).")
    good = ("В каждой строке есть `leg_id` (ключ), `tail` (бортовой номер), `distance_km` и `fuel_kg` (целевая "
            "переменная, в килограммах).")
    swapped = good.replace("(ключ)", "(целевая переменная)").replace("(целевая переменная, в", "(ключ, в")
    assert check_roles(source, good, "ru").passed
    result = check_roles(source, swapped, "ru")
    assert failed(result) and "gives `fuel_kg` the part of `leg_id`" in result.detail
    # a description that names another identifier gives the part to that one (calibration set 7c)
    source = "Train on `history.csv`, whose target column is `n_orders`, and produce forecasts for `merchants_test.csv`."
    assert check_roles(source, "Entraînez le modèle sur `history.csv` (colonne cible : `n_orders`) et produisez des "
                               "prévisions pour `merchants_test.csv`.", "fr").passed
    # ... but after a dash inside a colon's description, another identifier opens the values (calibration set 5b)
    source = "- `label`: target class, `benign` or one of 6 attack types"
    assert check_roles(source, "- `label`: целевой класс — `benign` или один из 6 типов атак", "ru").passed
    assert failed(check_roles(source, "- `label`: класс атаки — `benign` или целевой из 6 типов атак", "ru"))


def test_list_items_that_exchange_their_parts_are_a_swap_across_sentences():
    # each item is a sentence of its own, aligned with its English one: the parts are compared over the whole text
    source = ("`visits.csv` has one row per visit. Its columns:\n- `visit_id`: the key of the table;\n"
              "- `clinic_id`: the clinic;\n- `no_show`: the target, 1 if the patient did not come, else 0.")
    good = ("`visits.csv` змяшчае адзін радок на кожны візіт. Яго слупкі:\n- `visit_id`: ключ табліцы;\n"
            "- `clinic_id`: клініка;\n- `no_show`: мэтавая зменная, 1, калі пацыент не прыйшоў, інакш 0.")
    swapped = good.replace("ключ табліцы", "мэтавая зменная").replace("мэтавая зменная, 1", "ключ табліцы, 1")
    assert checked("roles", source, good, "be").passed
    result = checked("roles", source, swapped, "be")
    assert failed(result) and "gives `no_show` the part of `visit_id`" in result.detail, result.detail


@pytest.mark.parametrize("language, correct, broken", [
    # the held-out set's taxi trips: the prohibition lost, the second clause's negation kept
    ("ru", "Не используйте время высадки: в момент прогноза оно неизвестно и не может служить признаком.",
     "Используйте время высадки: в момент прогноза оно неизвестно и не может служить признаком."),
    ("zh", "请勿使用下车时间：它在预测时是未知的，不能作为特征。", "请使用下车时间：它在预测时是未知的，不能作为特征。"),
])
def test_a_prohibition_lost_in_one_clause_of_a_sentence_that_still_negates_is_caught(language, correct, broken):
    english = "Do not use the drop-off time: it is not known at prediction time and cannot be a feature."
    assert check_meaning(english, correct, language).passed
    result = check_meaning(english, broken, language)
    assert failed(result) and "has no negation" in result.detail


@pytest.mark.parametrize("language, correct, broken", [
    # the held-out set's chest X-rays: the second prohibition of two, joined by a comma's "and"
    ("fr", "Ne réduisez pas les images de test en dessous de 256 pixels de côté, et ne les utilisez pas pour le "
           "pseudo-étiquetage.",
     "Ne réduisez pas les images de test en dessous de 256 pixels de côté, et utilisez-les pour le pseudo-étiquetage."),
    ("zh", "不要把测试图像缩小到每边 256 像素以下，并且不要将其用于伪标签。", "不要把测试图像缩小到每边 256 像素以下，并将其用于伪标签。"),
])
def test_a_prohibition_lost_after_a_comma_and_is_caught(language, correct, broken):
    english = "Do not downscale the test images below 256 pixels per side, and do not use them for pseudo-labelling."
    assert check_meaning(english, correct, language).passed
    assert failed(check_meaning(english, broken, language))


# A lost negation the sentence hides, as a translation recasts it: (English, correct, broken, language, what the detail
# says). The names are found by their backticks.
RECAST = [
    # calibration set 6b: "so" after a comma opens a clause, as "and" does; the first negation is kept
    ("The column `tower_id` is not a feature, so do not feed it to the model.",
     "Столбец `tower_id` не является признаком, поэтому не подавайте его в модель.",
     "Столбец `tower_id` не является признаком, поэтому подавайте его в модель.", "ru", "has no negation"),
    ("The column `tower_id` is not a feature, so do not feed it to the model.",
     "`tower_id` бағаны белгі емес, сондықтан оны модельге бермеңіз.",
     "`tower_id` бағаны белгі емес, сондықтан оны модельге беріңіз.", "kk", "has no negation"),
    ("The column `tower_id` is not a feature, so do not feed it to the model.",
     "Kolumna `tower_id` nie jest cechą, więc nie podawaj jej modelowi.",
     "Kolumna `tower_id` nie jest cechą, więc podawaj ją modelowi.", "pl", "has no negation"),
    # the sample's data card: "missing" is a negation without "not"; "filled" instead flips it
    ("When `LotFrontage` is missing, fill it with the median of the houses in the same `Neighborhood`.",
     "Если `LotFrontage` пропущен, подставьте медиану по домам того же `Neighborhood`.",
     "Если `LotFrontage` заполнен, подставьте медиану по домам того же `Neighborhood`.", "ru", "negation"),
    ("When `LotFrontage` is missing, fill it with the median of the houses in the same `Neighborhood`.",
     "Quando `LotFrontage` manca, sostituiscilo con la mediana delle case dello stesso `Neighborhood`.",
     "Quando `LotFrontage` è presente, sostituiscilo con la mediana delle case dello stesso `Neighborhood`.", "it",
     "negation"),
    ("When `LotFrontage` is missing, fill it with the median of the houses in the same `Neighborhood`.",
     "当 `LotFrontage` 缺失时，用同一 `Neighborhood` 中房屋的中位数填充。",
     "当 `LotFrontage` 存在时，用同一 `Neighborhood` 中房屋的中位数填充。", "zh", "negation"),
    # the ninth calibration set: "never" as "always", the sentence's other negation kept
    ("Do not use external wealth data, and never infer income from a postcode.",
     "Не используйте внешние данные и никогда не выводите доход из почтового индекса.",
     "Не используйте внешние данные и всегда выводите доход из почтового индекса.", "ru", "negation"),
    ("The inspector's name is not a feature and must never be used.",
     "Il nome dell'ispettore non è una feature e non deve mai essere usato.",
     "Il nome dell'ispettore non è una feature e deve sempre essere usato.", "it", "negation"),
    # "構いません" is "it is fine": "使って構いません" permits
    ("Do not use external data such as weather or holiday calendars.",
     "天気・祝日カレンダーといった外部データは使わないでください。",
     "天気・祝日カレンダーといった外部データを使って構いません。", "ja", "negation"),
    # "do not ignore" said as "be sure to handle" (an `ensure` word renders a negated absence, as a `kept` word does)
    ("Attacks make up less than 3 percent of the flows, so do not ignore the class imbalance.",
     "由于攻击占比还不到 3%，请务必处理类别不平衡。", "由于攻击占比还不到 3%，请忽略类别不平衡。", "zh", "negation"),
    ("Do not remove the rare class of refusals from your predictions.",
     "Nadir ret sınıfı tahminlerinizde mutlaka yer almalı.", "Nadir ret sınıfını tahminlerinizden çıkarın.", "tr",
     "negation"),
    # Turkish says "later" and "earlier" with the copula: "daha sonradır" ("never earlier" as "always the same day or
    # later" is the same statement; "always earlier" lost the negation)
    ("`report_date` is never earlier than `loss_date`.",
     "`report_date` her zaman `loss_date` ile aynı gün ya da daha sonradır.",
     "`report_date` her zaman `loss_date` değerinden öncedir.", "tr", "negation"),
]


@pytest.mark.parametrize("english, correct, broken, language, says", RECAST)
def test_a_negation_lost_in_a_recast_sentence_is_caught(english, correct, broken, language, says):
    names = re.findall(r"`([^`]+)`", english)
    assert check_meaning(english, correct, language, names).passed
    result = check_meaning(english, broken, language, names)
    assert failed(result) and says in result.detail, result.detail


# A word read as a negation the translation added excused a prohibition lost in another sentence: (English, correct or
# None, broken, language), checked as a run checks them, on the sentences adequacy aligned.
NOT_ADDED = [
    # calibration set 7c: "Leave out these features:" as "Deja fuera estas variables:" negates on both sides
    ("Leave out these features:\n- `income_verified_date`.\n\nThe submission must not contain more than one row.",
     "Deja fuera estas variables:\n- `income_verified_date`.\n\nLa entrega no debe contener más de una fila.",
     "Deja fuera estas variables:\n- `income_verified_date`.\n\nLa entrega debe contener más de una fila.", "es"),
    # "not only the best fold" negates nothing
    ("Report the mean and the standard deviation of RMSE across the 5 folds, not only the best fold. "
     "Do not use external weather data.", None,
     "RMSE-нің 5 фолд бойынша орташа мәні мен стандартты ауытқуын көрсетіңіз, тек ең жақсы фолдты емес. "
     "Сыртқы ауа райы деректерін пайдаланыңыз.", "kk"),
    ("Report the mean and the standard deviation of RMSE across the 5 folds, not only the best fold. "
     "Do not use external weather data.", None,
     "最良のフォールドだけでなく、5 つのフォールドにわたる RMSE の平均と標準偏差を報告してください。"
     "外部の気象データを使用してください。", "ja"),
    # "处理不当" (mishandled) is an adjective of negative sense, no added negation
    ("Forecast the mishandled-baggage rate for each airport. Do not use the `claims_filed` column: it leaks the target.",
     "预测每个机场的行李处理不当率。请勿使用 `claims_filed` 列：它会泄露目标。",
     "预测每个机场的行李处理不当率。请使用 `claims_filed` 列：它会泄露目标。", "zh"),
]


@pytest.mark.parametrize("english, correct, broken, language", NOT_ADDED)
def test_a_word_that_adds_no_negation_excuses_no_lost_prohibition(english, correct, broken, language):
    if correct is not None:
        assert checked("meaning", english, correct, language).passed
    result = checked("meaning", english, broken, language)
    assert failed(result) and "has no negation" in result.detail, result.detail


def test_a_negative_statement_said_positively_passes():
    # "never provided" as "always hidden", "never outside" as "always within", "need not" as "なくても構いません"
    assert check_meaning("Personal data such as names and ages are never provided.",
                         "Персональные данные (например, имена и возраст) всегда скрыты.", "ru").passed
    assert check_meaning("The state of charge must never fall below 10% or rise above 95%.",
                         "充電状態は常に 10% 以上 95% 以下に保つこと。", "ja").passed
    assert check_meaning("You do not need to clip the predictions.", "予測値をクリップしなくても構いません。", "ja").passed


def test_a_reversed_direction_is_caught_though_the_whole_text_says_each_side_as_often():
    # the held-out set's cassava images: "below 256" said as "au moins 256" takes a "less" out of the whole text, so
    # the whole text says "less" as often as the English; the sentence's one direction word is reversed all the same
    english = ("Submissions are scored by classification accuracy, so a higher score is better. Do not downscale the "
               "test images below 256 pixels per side.")
    correct = ("La métrique est l'accuracy de classification : plus elle est élevée, mieux c'est. Gardez au moins 256 "
               "pixels de côté pour les images de test.")
    assert checked("meaning", english, correct, "fr").passed
    result = checked("meaning", english, correct.replace("élevée", "faible"), "fr")
    assert failed(result) and "direction" in result.detail, result.detail


@pytest.mark.parametrize("broken", [
    # the second held-out set's athletes: "7 days" as "7 weeks", the whole text saying "week" as often as the English
    # ("weekly" is "週平均", which no unit word counts)
    "今後 7 週間以内に負傷のおそれがあるアスリートにフラグを立ててください。慢性負荷は直近 28 日間の週平均負荷です。",
])
def test_a_sentence_whose_one_unit_is_another_is_caught_whatever_the_whole_text_says(broken):
    english = ("Flag athletes at risk of an injury within the next 7 days. The chronic load is the mean weekly load over "
               "the last 28 days.")
    correct = "今後 7 日以内に負傷のおそれがあるアスリートにフラグを立ててください。慢性負荷は直近 28 日間の週平均負荷です。"
    assert checked("meaning", english, correct, "ja").passed
    result = checked("meaning", english, broken, "ja")
    assert failed(result) and "unit" in result.detail, result.detail


@pytest.mark.parametrize("language, text, unit", [
    ("en", "each 10-second window", "second"),  # a compound; "the second file" is no unit
    ("kk", "жолдардың шамамен 2 промиллесі", "permille"),
    ("ru", "около 2 ‰ строк", "permille"),
    ("ja", "毎分10回記録されています", "minute"),
    ("zh", "一台机器一天的读数", "day"),  # a day counted in a Chinese numeral
    ("ar", "إحداثيات الملعب بالياردات", "yard"),
    ("ja", "単位はヤード", "yard"),
    ("ja", "消費エネルギー（キロカロリー）", "kilocalorie"),
    ("ru", "в килокалориях", "kilocalorie"),
    ("ru", "миллиард строк", "billion"),  # a word that holds ярд is no yard
    ("zh", "误差以 500 克计", "gram"),  # 克 after a number (克服, overcome, is no gram)
])
def test_unit_words_in_their_forms(language, text, unit):
    assert senses(language).count(lower(text, language))[unit] == 1
    assert not senses("en").count("the second file")["second"]


@pytest.mark.parametrize("english, language, correct, broken", [
    # the held-out set's bird calls: the protected "32 kHz" said with the language's own unit word
    ("The clips are recorded at 32 kHz.", "ar", "سُجّلت المقاطع بتردد 32 كيلوهرتز.", "سُجّلت المقاطع بتردد 32 ميغاهرتز."),
    # the second calibration set's orders: "2 percent" as "2‰"
    ("Fewer than 2 percent of the orders are fraudulent.", "zh", "订单中只有不足 2% 属于欺诈。", "订单中只有不足 2‰ 属于欺诈。"),
    # a unit symbol in the language's letters after the number counts too (the second calibration set's signals)
    ("Signals are sampled at 64 Hz.", "be", "Сігналы дыскрэтызаваны з частатой 64 Гц.",
     "Сігналы дыскрэтызаваны з частатой 64 кГц."),
])
def test_the_unit_of_a_protected_amount_counts_as_a_unit_word(english, language, correct, broken):
    assert check_meaning(english, correct, language).passed
    result = check_meaning(english, broken, language)
    assert failed(result) and "unit" in result.detail, result.detail


def test_a_bound_said_after_its_number_is_a_bound():
    # the second held-out set's aftershocks: "3.0 or higher" is "at least 3.0", beside another bound
    english = "The target is the number of aftershocks of magnitude 3.0 or higher no more than 50 km from the epicentre."
    assert check_meaning(english, "Celem jest liczba wstrząsów o magnitudzie co najmniej 3.0 w odległości nie większej "
                                  "niż 50 km od epicentrum.", "pl").passed
    correct = "Ținta este numărul de replici cu magnitudinea de 3.0 sau mai mare, la cel mult 50 km de epicentru."
    assert check_meaning(english, correct, "ro").passed
    assert failed(check_meaning(english, correct.replace("sau mai mare", "sau mai mică"), "ro"))


@pytest.mark.parametrize("language, translation", [
    # "0 if not" said as "0 on failure" (the second held-out set's match events)
    ("zh", "`outcome`（成功记 1，失败记 0）"),
    ("ja", "`outcome`（成功 1、失敗 0）"),
])
def test_failure_renders_if_not(language, translation):
    assert check_meaning("`outcome` (1 if successful, 0 if not)", translation, language).passed


def test_a_description_recast_without_its_negation_in_one_clause_passes():
    # "not capped" as "may exceed": a description, not a prohibition (calibration set 4b)
    english = "The load factor is not capped: it can exceed 100 when a flight is overbooked, so do not clip it."
    assert check_meaning(english, "Коэффициент загрузки может превышать 100: так бывает при овербукинге, поэтому не "
                                  "обрезайте его.", "ru").passed


@pytest.mark.parametrize("text, language, neighbour", [
    ("Используйте только данные, которые предоставлены.", "be", "Russian"),  # two о in a word: Russian spelling
    ("Выкарыстоўвайце тільки надані дані.", "be", "Belarusian"),  # ті, ді: Ukrainian
    ("Тек количество проданных товаров берілген.", "kk", "Russian"),
    ("Usa solo los datos proporcionados.", "it", "Spanish"),
    ("Utilisez uniquement les dati forniti.", "fr", "Italian"),
    ("Folosiți il numero di articoli.", "ro", "Italian"),
    ("Użyj tylko pouze poskytnutá dane.", "pl", "Czech"),
    ("Segmenta os pulmões em cada radiografía.", "es", "Portuguese"),
    ("Yalnız təqdim edilən verileri kullanın.", "tr", "Azerbaijani"),
    # the second calibration set's slips: Russian adjective endings and function words, Spanish or Catalan
    ("Деректерді положительный класс бойынша ғана қолданыңыз.", "kk", "Russian"),
    ("Берілген деректерді когда владелец двигается қолданбаңыз.", "kk", "Russian"),
    ("Ни один участник не был моложе 18 лет, жоден учасник не був молодшим.", "ru", "Ukrainian"),
    ("Per ogni sensore, stimate i veicoli en intervalos de 15 minutos.", "it", "Spanish"),
    ("Para cada sensor, estime los vehículos en intervals de 15 minuts.", "es", "Catalan"),
    ("Un comentariu poate avea varias etiquetas sau niciuna.", "ro", "Spanish"),
    # Russian function words and endings no Kazakh or Belarusian word has (the second held-out set's enrollments)
    ("Все файлы вместе 22 модульді және шамамен 10 миллион жолды қамтиды.", "kk", "Russian"),
    ("Оқытудан бұрын шығарындыларды жойыңыз, иначе модель бұзылады.", "kk", "Russian"),
    ("Разам файлы охватывают 22 модулі і каля 10 мільёнаў радкоў.", "be", "Russian"),
    # function words a Romance neighbour writes and the target never does (the calibration sets' one-word slips)
    ("Folosiți doar datele furnizate, quindi nimic altceva.", "ro", "Italian"),
    ("Folosiți doar datele furnizate, siempre cele noi.", "ro", "Spanish"),
    ("Usa solo i dati forniti, siempre quelli nuovi.", "it", "Spanish"),
    ("Utilisez uniquement les données fournies, senza exception.", "fr", "Italian"),
    ("Use solo los datos proporcionados, sem excepción.", "es", "Portuguese"),
    ("Use solo los datos proporcionados, sense excepción.", "es", "Catalan"),
    # function words no letter gives away (2026-11-29): Russian in Belarusian and Kazakh, Azerbaijani in Turkish
    ("Кожная каманда может выкарыстоўваць толькі дадзеныя звесткі.", "be", "Russian"),
    ("Берілген деректерді ғана пайдаланыңыз, чем больше, тем лучше.", "kk", "Russian"),
    ("Yalnızca sağlanan verileri kullanın, heç bir harici kaynak olmadan.", "tr", "Azerbaijani"),
    ("Строки без метки видалено из обучающей выборки.", "ru", "Ukrainian"),
    ("Белгісі жоқ жолдар оқыту жиынынан өчүрүлдү.", "kk", "Kyrgyz"),
])
def test_a_few_words_of_a_neighbour_language_are_caught(text, language, neighbour):
    [result] = [r for r in check_translation("Use only the data provided.", text, language, Settings())
                if r.name == "language"]
    assert failed(result), (language, result.detail)


def test_an_italian_subjunctive_spelled_as_a_spanish_word_is_italian():
    # "che una chiamata cada" (that a call drops): "cada" is Spanish "each" too (the second held-out set's calls)
    assert checked("language", "Predict the probability that a voice call drops.",
                   "Prevedi la probabilità che una chiamata vocale cada.", "it").passed


def test_a_short_kazakh_sentence_of_loanwords_is_not_read_as_bulgarian():
    # the held-out set's "`patient_id` is only a key, not a feature": lingua gives "фича емес" to Bulgarian (0.82)
    assert checked("language", "`patient_id` is only a key. Not a feature.", "`patient_id` — тек кілт. Фича емес.",
                   "kk").passed


def test_a_capitalised_word_inside_a_sentence_is_still_read_as_a_name():
    from curation.checks.signs import foreign_signs

    assert foreign_signs("Данныя з Київ.", "be") is None  # a name, wherever it is from
    assert foreign_signs("Тільки данныя.", "be") is not None  # a sentence's first word is the text's own


@pytest.mark.parametrize("language", natural.LANGUAGES)
def test_every_target_has_its_word_file(language):
    data = language_data(language)
    assert data["concepts"]["not"] and language in LANGUAGES


@pytest.mark.parametrize("language,english,translation", [
    # a negation said by another construction: "avoid", "other than", "unavailable", "lacking", "are missing from"
    ("ja", "Do not tune on participant identity.", "参加者 ID に合わせたチューニングは避けてください。"),
    ("pl", "For articles whose `lang` is not English, you may translate the text.",
     "Tekst artykułu w języku innym niż angielski możesz przetłumaczyć."),
    ("fr", "The payment history of a loan is not available for its first month.",
     "Pour son premier mois, l'historique de paiement d'un prêt est indisponible."),
    ("it", "Rows from the last 90 days are not labelled.", "Le righe degli ultimi 90 giorni ne sono prive."),
    ("ro", "Greenhouses that were empty for more than 14 days are not in the test set.",
     "Serele goale timp de peste 14 zile lipsesc din setul de test."),
    ("ar", "Join it on `test_code`, never on `test_name`.", "والربط يتم بـ `test_code` وحده، وإياك والربط بـ `test_name`."),
    ("ar", "Build the features per participant, not per visit, and use only the first visits.",
     "تُبنى الميزات على مستوى المشارك وليس على مستوى الزيارة، ولا تُستخدم إلا الزيارات الأولى."),
    # a negated opposite: "no sample before 2015" is "every sample in 2015 or later"
    ("pl", "No sample was taken before 2015.", "Wszystkie próbki pobrano w 2015 roku lub później."),
    ("tr", "No sample was taken before 2015.", "Tüm örnekler 2015 ve sonrasında alınmıştır."),
    # Japanese past negative
    ("ja", "A night is not labeled as sleep if the band detected movement.",
     "バンドが動きを検知しなかった場合に限り、夜間は睡眠とラベル付けされます。"),
    # Turkish "left out of scoring" and "left without being filled", Romanian "the gaps" (the fifth calibration set)
    ("tr", "Photos smaller than 224 pixels on either side are not scored.",
     "Kenarlarından biri 224 pikselin altında kalan fotoğraflar puanlama dışı bırakılır."),
    ("tr", "Missing values are not imputed.", "Eksikler doldurulmadan bırakılmıştır."),
    ("ro", "Missing values are not imputed.", "Lipsurile au rămas neimputate."),
    # refrain, keep away, unusable, leave out, "with the exclusion of" (the ninth meaning calibration set)
    ("fr", "Do not use external imagery.", "Abstenez-vous de recourir à des images externes."),
    ("it", "Do not use external imagery.", "Astieniti dal ricorrere a immagini esterne."),
    ("es", "Do not use external imagery.", "Abstente de emplear imágenes externas."),
    ("fr", "Do not send test clips to any external service.", "Gardez les clips de test à l'écart de tout service externe."),
    ("es", "`tile_id` is only a key and is not a feature.", "`tile_id` es una mera clave, inutilizable como variable."),
    ("es", "Online orders are not included.", "Con exclusión de los pedidos en línea."),
    ("it", "None of the rows falls in the test period.", "Il periodo di test resta fuori dai dati."),
    ("ar", "Only first prescriptions are included, not refills.", "تقتصر البيانات على الوصفات الأولى وتستثني إعادات الصرف."),
    ("ar", "Do not use `pickup_time`.", "ابتعد عن `pickup_time`."),
    ("ru", "Plots without a complete series of surveys were dropped.", "Участки, где ряд обследований неполон, убраны."),
    ("kk", "Validate with time-based folds, none shorter than 4 weeks.",
     "Валидацияны уақыт бойынша бөлінген фолдтарда жүргізіңіз, олардың ешқайсысы 4 аптадан қысқа емес."),
    ("ja", "`decision_date` is not a feature.", "`decision_date` は特徴量には使えず、分割を組むためだけのものです。"),
    ("ja", "Rows without an inspection have no target.", "未検査の行はターゲットを欠きます。"),
    # a negated verbal noun, a noun with a negative prefix (calibration set 9d)
    ("tr", "Predict the probability that the owner does not bring the animal.",
     "Hayvan sahibinin hayvanı getirmeme olasılığını tahmin edin."),
    ("ro", "Predict the probability that the owner does not bring the animal.",
     "Calculați probabilitatea de neprezentare a proprietarului cu animalul."),
])
def test_a_negation_said_another_way_passes(language, english, translation):
    assert check_meaning(english, translation, language, ["lang", "test_code", "test_name"]).passed


@pytest.mark.parametrize("language,english,translation", [
    # "by `cell_id`" in Romanian is "după", which is also "after"
    ("ro", "Match a fire to a moisture record by `cell_id` and the most recent week before `start_date`.",
     "Asociază un incendiu cu o înregistrare de umiditate după `cell_id` și cea mai recentă săptămână dinaintea "
     "`start_date`."),
    # Russian "через него" is "through it", not "after"
    ("ru", "Use the earlier trips as a baseline, and never use the log after the cut-off date, because it leaks.",
     "Используйте предыдущие поездки как базовую линию и никогда не используйте журнал после даты отсечения, "
     "поскольку через него происходит утечка."),
    # Belarusian "км/г" and "кВт·г": г after a slash is гадзіна (hour), not год (year)
    ("be", "Speed in kilometres per hour; energy in kilowatt-hours.", "Хуткасць, км/г; энергія ў кВт·г."),
    # a year word after a year number says nothing the English "2019-2023" does not (the fifth calibration set)
    ("ru", "Daily milk records from 3 dairy farms, 2019-2023.", "Суточные записи надоев с 3 молочных ферм за 2019-2023 годы."),
    ("kk", "Daily milk records from 3 dairy farms, 2019-2023.",
     "2019-2023 жылдар аралығындағы 3 сүт фермасының тәуліктік сауын жазбалары."),
    # engine hours written as one word are still hours
    ("ru", "Engine hours are a feature, but the service date is not.", "Моточасы — признак, дата обслуживания — нет."),
    ("kk", "Engine hours are a feature, but the service date is not.",
     "Мотосағаттар — белгі, ал қызмет көрсету күні белгі емес."),
    # "never before it" is "after": "и никогда не раньше"
    ("ru", "Every validation fold must start after the last week of its training window, never before it.",
     "Каждый валидационный фолд должен начинаться после последней недели своего обучающего окна и никогда не раньше."),
])
def test_a_word_read_as_another_sense_passes(language, english, translation):
    assert check_meaning(english, translation, language, ["cell_id", "start_date"]).passed


def test_a_lost_negation_without_an_opposite_is_still_caught():
    assert failed(check_meaning("No sample was taken before 2015.", "Próbki pobrano przed 2015 rokiem.", "pl"))


@pytest.mark.parametrize("language,translation", [
    ("fr", "Tout modèle dont la MAE dépasse de plus de 10 % celle de la référence sera refusé."),
    ("es", "Se rechaza todo modelo cuyo MAE supere en más del 10 % al de la referencia."),
    ("ru", "Любая модель, чья MAE превышает MAE базовой модели более чем на 10%, отклоняется."),
    ("tr", "MAE değeri referansınkinden %10'dan fazla yüksek olan her model reddedilir."),
])
def test_not_accepted_said_as_rejected_passes_and_a_lost_do_not_reject_is_caught(language, translation):
    # the fifth calibration set (2026-11-27): "is not accepted" as "is rejected"
    english = "A model whose MAE is more than 10% above the baseline's is not accepted."
    assert check_meaning(english, translation, language).passed
    # "reject" said as often as in the English renders no negation
    assert failed(check_meaning("Do not reject the outliers.", "Rejetez les valeurs aberrantes.", "fr"))
    assert check_meaning("Do not reject the outliers.", "Ne rejetez pas les valeurs aberrantes.", "fr").passed



# -- a negation said another way (the fourth meaning calibration set, 2026-11-26) --------------------------------------


@pytest.mark.parametrize("language, english, translated", [
    # a negated "more" said as a bound: "never exceeds 1" is "at most 1"
    ("pl", "The ratio never exceeds 1.", "Stosunek wynosi co najwyżej 1."),
    ("ro", "Calls shorter than 30 seconds are not included.", "Setul cuprinde apeluri de cel puțin 30 de secunde."),
    # "only" that the English does not have: "not scored if at most 10" is "scored only above 10"
    ("tr", "Providers with at most 10 claim lines are not scored.",
     "Yalnızca 10'dan fazla hasar kalemi olan sağlayıcılar puanlanır."),
    # a negating suffix on a word that also says something else: Kazakh "бағаланбайды" is "is not evaluated"
    ("kk", "Airports with fewer than 50 flights a day are not scored.",
     "Күніне 50-ден аз рейс жөнелтетін әуежайлар бағаланбайды."),
    # an inflected leaving-out verb, "instead of", "free of", a negated absence said positively
    ("pl", "Do not use payment amounts.", "Pomiń kwoty wypłat."),
    ("ro", "Do not use `call_id` as a feature.", "Excludeți `call_id` din atribute."),
    ("kk", "Scheduled times are in local time, not UTC.", "Кестедегі уақыт UTC орнына жергілікті уақытпен берілген."),
    ("pl", "None of the transcripts contain phone numbers.", "Wszystkie transkrypcje są wolne od numerów telefonów."),
    ("it", "Tests without a `unit` were not removed.", "Gli esami privi di `unit` sono stati mantenuti."),
    # 非 and 未 negate a word ("非 UTC", "未発生"); "يقتصر على" is "only"
    ("zh", "`interval_start`: local time, not UTC.", "`interval_start`：本地时间，非 UTC。"),
    ("ja", "The target is 1 if a trip occurs and 0 if not.", "ターゲットはトリップ発生時に 1、未発生時に 0 となります。"),
    ("ar", "Do not use readings from other stations.", "يقتصر الاستخدام على قراءات هذه المحطة."),
    # a negated absence said with "only" and the thing present: "without a label ... not used" (fifth calibration set)
    ("fr", "Images without a label are not used for training.", "Seules les images annotées servent à l'entraînement."),
    ("es", "Images without a label are not used for training.", "Solo se usan para entrenar las imágenes con etiqueta."),
    # "limit yourself to" is "only": "do not use claims after" as "limit yourself to claims at the latest on"
    ("it", "Do not use claims dated after the index prescription.",
     "Limitatevi alle richieste datate al più tardi il giorno della prescrizione indice."),
])
def test_a_negation_said_with_a_bound_an_only_or_a_suffix_passes(language, english, translated):
    assert check_meaning(english, translated, language).passed


@pytest.mark.parametrize("language, english, translated", [
    # the same sentences with the negation gone
    ("pl", "The ratio never exceeds 1.", "Stosunek przekracza 1."),
    ("tr", "Providers with at most 10 claim lines are not scored.",
     "En fazla 10 hasar kalemi olan sağlayıcılar puanlanır."),
    ("kk", "Airports with fewer than 50 flights a day are not scored.",
     "Күніне 50-ден аз рейс жөнелтетін әуежайлар бағаланады."),
    # an "only" the English has too renders nothing: "is only the key and must not be used" lost its "not"
    ("pl", "`claim_id` is only the key and must not be used as a feature.",
     "`claim_id` jest wyłącznie kluczem i może być używany jako cecha."),
    # the absence kept and the negation gone: "without a label ... used"
    ("es", "Images without a label are not used for training.", "Las imágenes sin etiqueta se usan para entrenar."),
])
def test_the_same_sentences_without_their_negation_are_flagged(language, english, translated):
    result = check_meaning(english, translated, language, ("claim_id",))
    assert failed(result) and "negation" in result.detail


def test_from_is_not_after():
    # "à partir de l'historique" is "from the history"; "à partir du 1 mars" is "from 1 March on"
    assert check_meaning("Predict `risk` from the history before the index date.",
                         "Prédisez `risk` à partir de l'historique antérieur à la date index.", "fr", ("risk",)).passed
    assert failed(check_meaning("Use the claims before 2020-03-01.", "Utilisez les demandes à partir du 2020-03-01.",
                                "fr"))


def test_a_negated_more_and_a_bound_are_no_reversal():
    # "nie przekracza" is at_most: "never exceeds" (not + more) and "at most" say the same, so no direction is reversed
    assert check_meaning("The ratio never exceeds 1.", "Iloraz nigdy nie przekracza 1.", "pl").passed
    assert check_meaning("Load it with pandas 2.0 or later.", "Do wczytania użyj pandas 2.0 lub nowszego.", "pl").passed


def test_a_number_the_english_bounds_on_both_sides_keeps_either_part():
    # "no earlier than 7 days before": 7 has a word of each side of `time`, one before it and one after, as near;
    # a translation that keeps only "7 días antes" moved no part
    english = "Each row is one test taken no earlier than 7 days before and no later than 60 days after the start."
    assert check_roles(english, "Cada fila es una prueba hecha entre 7 días antes y 60 días después del inicio.",
                       "es").passed
    # an exchange of parts between two files is still one
    assert failed(check_roles("Train on `a.csv` and evaluate on `b.csv`.", "Entrena con `b.csv` y evalúa con `a.csv`.",
                              "es", ("a.csv", "b.csv")))


def test_a_year_word_the_english_has_not_is_still_a_unit_change_elsewhere():
    assert failed(check_meaning("Forecast the consumption for the next 3 days.",
                                "Спрогнозируйте потребление на следующие 3 года.", "ru"))


def test_a_negated_side_said_as_only_the_other_side_passes_and_a_flip_that_keeps_the_negation_is_caught():
    # "not after" is "only on or before": the negation went into "only" and the opposite side (fifth calibration set)
    english = "Tariffs introduced after 2023-06-30 are not included."
    assert check_meaning(english, "数据只收录 2023-06-30 当天及之前推出的电价方案。", "zh").passed
    assert check_meaning("Cows younger than 24 months are not included in the evaluation.",
                         "Seules les vaches âgées d'au moins 24 mois entrent dans l'évaluation.", "fr").passed
    # the negation kept and the side turned: "not before" says the opposite of "not after"
    assert failed(check_meaning(english, "2023-06-30 之前推出的电价方案不包括在内。", "zh"))


@pytest.mark.parametrize("language, english, correct, broken", [
    # Arabic writes أن + لا as one word: "يجب ألا" is "must not"
    ("ar", "Forecasts must not use readings from the forecast window.",
     "يجب ألا تستخدم التنبؤات قراءات من نافذة التنبؤ.", "يجب أن تستخدم التنبؤات قراءات من نافذة التنبؤ."),
    # Romanian shortens "nu" before a vowel: "n-au fost eliminate"
    ("ro", "Aftershocks were not removed from the catalogue.",
     "Replicile n-au fost eliminate din catalog.", "Replicile au fost eliminate din catalog."),

    # Turkish's formal present negates inside the word: "bilinmemektedir" (the held-out set's taxi trips)
    ("tr", "The drop-off time is not known at prediction time.",
     "İniş zamanı tahmin anında bilinmemektedir.", "İniş zamanı tahmin anında bilinmektedir."),
    # the English "alone" is an "only": the translation's "seule" renders it, not the lost "do not"
    ("fr", "Do not query DNS servers and decide from the character string alone.",
     "N'interrogez pas les serveurs DNS et décidez d'après la seule chaîne de caractères.",
     "Interrogez les serveurs DNS et décidez d'après la seule chaîne de caractères."),
])
def test_a_negation_written_as_part_of_a_word_counts(language, english, correct, broken):
    assert check_meaning(english, correct, language).passed
    assert failed(check_meaning(english, broken, language))


def test_since_with_a_clause_is_a_reason_and_since_a_moment_is_a_time():
    english = "Only the splits up to the 25 km mark may be used as features, since the prediction is made during the race."
    assert check_meaning(english, "特徴量に使えるスプリットは 25km 地点までです。予測はレース中に行われるからです。", "ja").passed
    # a duration counted from a moment, with or without a clause, is still "after"
    assert failed(check_meaning("`age` is the number of days since the account was opened.",
                                "`age` هو عدد الأيام قبل فتح الحساب.", "ar"))
    assert failed(check_meaning("Readings are kept since 2015.", "القراءات محفوظة قبل 2015.", "ar"))


def test_romanian_dupa_after_sorting_or_splitting_is_by():
    english = "Use a time-series split: train on inspections before 1 January 2022 and validate on later ones."
    assert check_meaning(english, "Împarte datele după timp (time-series split): antrenează modelul pe inspecțiile "
                                  "dinainte de 1 ianuarie 2022 și validează pe cele ulterioare.", "ro").passed
    assert failed(check_meaning("Claims are sorted by date and reported before 2015.",
                                "Daunele sunt sortate după dată și raportate după 2015.", "ro"))


@pytest.mark.parametrize("language, translation", [
    ("pl", "Przesyłane wartości muszą mieścić się w przedziale od 1 do 1095 dni."),
    ("ro", "Valorile trimise trebuie să se încadreze între 1 și 1095 de zile."),
    ("tr", "Gönderilen değerler 1 ile 1095 gün arasında olmalıdır."),
    ("ja", "提出値は 1 日以上 1095 日以下にしてください。"),  # both bounds
])
def test_a_negated_bound_on_both_sides_said_as_a_range_passes(language, translation):
    assert check_meaning("Do not submit values below 1 day or above 1095 days.", translation, language).passed


@pytest.mark.parametrize("language, translation", [
    ("ro", "Trimiteți valori sub 1 zi sau peste 1095 de zile."),
    ("ja", "1 日未満または 1095 日を超える値を提出してください。"),
])
def test_a_negation_lost_from_a_bound_on_both_sides_is_caught(language, translation):
    assert failed(check_meaning("Do not submit values below 1 day or above 1095 days.", translation, language))


def test_few_is_the_less_side():
    english = "Also report PR AUC: with so few positives, PR AUC is more informative than ROC AUC."
    assert check_meaning(english, "PR AUC も報告してください。陽性がこれほど少ない場合、PR AUC は ROC AUC よりも有益です。", "ja").passed
    # ("a few" is "several" and is not read as "less"); "fewer" reversed is still caught
    assert failed(check_meaning("Keep the rows with fewer than 3 readings.", "Оставьте строки, где больше 3 показаний.",
                                "ru"))


def test_polish_minimum_before_a_number_is_at_least_not_minimize():
    english = "The metric is precision, and higher is better, provided recall stays at or above 0.8."
    polish = "Metryką jest precyzja (im wyższa, tym lepiej), pod warunkiem że recall wynosi minimum 0.8."
    assert check_meaning(english, polish, "pl").passed
    assert failed(check_meaning("Maximize the F1 score.", "Zminimalizuj wynik F1.", "pl"))


@pytest.mark.parametrize("language, translation, passes", [
    ("fr", "Les erreurs sont asymétriques : aux heures de pointe, les montées sont sous-estimées.", True),
    ("it", "Gli errori sono asimmetrici: nelle ore di punta i sensori sottostimano le salite.", True),
    ("es", "Los errores son asimétricos: en hora punta, los sensores subestiman las subidas.", True),
    ("fr", "Les erreurs sont symétriques : aux heures de pointe, les montées sont sous-estimées.", False),
    ("it", "Gli errori sono simmetrici: nelle ore di punta i sensori sottostimano le salite.", False),
])
def test_a_negated_word_said_with_a_negative_prefix_renders_the_negation(language, translation, passes):
    english = "The errors are not symmetric: at peak hours the sensors undercount boardings."
    assert check_meaning(english, translation, language).passed is passes


def test_french_bounds_and_contrasts_and_english_previous():
    assert check_meaning("Do not flag more than 1 percent of the readings of any single sensor.",
                         "Limitez les signalements à 1 pour cent au plus des relevés de chaque capteur.", "fr").passed
    assert check_meaning("Submit a predicted class for every row, not a probability.",
                         "Pour chaque ligne, soumettez une classe prédite plutôt qu'une probabilité.", "fr").passed
    # "since the previous bus" is "from the passing of the preceding bus": "previous" is the before side
    assert check_meaning("- `headway_min`: the time in minutes since the previous bus on the same route passed.",
                         "- `headway_min`: minuti trascorsi dal passaggio del bus precedente sulla stessa linea.",
                         "it", ("headway_min",)).passed


def test_french_ecart_the_noun_is_a_difference_not_an_exclusion():
    # "l'écart entre" (the difference between) in one sentence does not excuse a negation lost from another
    english = ("For every row, estimate `delay_s`, the difference in seconds between the actual and the scheduled "
               "arrival time. Train only on trips before 2023-03-01, and do not use external data.")
    broken = ("Pour chaque ligne, estimez `delay_s`, l'écart en secondes entre l'heure d'arrivée réelle et l'heure "
              "prévue. Entraînez le modèle uniquement sur les trajets partis avant le 2023-03-01, et utilisez des "
              "données externes.")
    assert failed(check_meaning(english, broken, "fr", ("delay_s",)))
    assert check_meaning("Outliers were removed.", "Les valeurs aberrantes ont été écartées.", "fr").passed


def test_japanese_age_and_from_now_on_and_arabic_withheld():
    english = "The column `age_days` gives the age of the domain in days, not in months."
    assert check_meaning(english, "列 `age_days` はドメインの年齢を月ではなく日単位で示します。", "ja", ("age_days",)).passed
    assert failed(check_meaning(english, "列 `age_days` はドメインの年齢を日ではなく年単位で示します。", "ja", ("age_days",)))
    assert check_meaning("Forecast failed logins per hour over the next 24 hours.",
                         "今後 24 時間の時間当たりのログイン失敗数を予測してください。", "ja").passed
    assert check_meaning("No usernames or IP addresses are released.", "أسماء المستخدمين وعناوين IP محجوبة عن النشر.",
                         "ar").passed


@pytest.mark.parametrize("language, correct, broken", [
    ("ru", "Пиковая пропускная способность в мегабитах в секунду.", "Пиковая пропускная способность в мегабайтах в секунду."),
    ("kk", "Ең жоғары өткізу қабілеті секундына мегабитпен.", "Ең жоғары өткізу қабілеті секундына гигабитпен."),
    ("fr", "Le débit de pointe, en mégabits par seconde.", "Le débit de pointe, en mégaoctets par seconde."),
    ("ja", "ピーク帯域幅（メガビット毎秒）。", "ピーク帯域幅（ギガビット毎秒）。"),
])
def test_a_data_unit_or_its_multiple_changed_is_caught(language, correct, broken):
    english = "Peak bandwidth in megabits per second."
    assert check_meaning(english, correct, language).passed
    result = check_meaning(english, broken, language)
    assert failed(result) and "unit" in result.detail


@pytest.mark.parametrize("english, language, correct, broken", [
    ("The dose is given in micrograms per kilogram.", "es", "La dosis se expresa en microgramos por kilogramo.",
     "La dosis se expresa en nanogramos por kilogramo."),
    ("Yield is given in tonnes per hectare.", "ru", "Урожайность указана в тоннах с гектара.",
     "Урожайность указана в центнерах с гектара."),
    ("Yield is given in tonnes per hectare.", "kk", "Өнімділік гектарына тоннамен берілген.",
     "Өнімділік гектарына центнермен берілген."),
])
def test_nanograms_and_centners_are_units_of_mass(english, language, correct, broken):
    # micrograms said as nanograms, tonnes as centners (100 kg, the unit of grain yields in Russian and Kazakh): the
    # lists knew neither, so the broken sentence said no unit of mass at all (calibration sets 4c and 5b, 2026-11-29)
    assert check_meaning(english, correct, language).passed
    result = check_meaning(english, broken, language)
    assert failed(result) and "unit" in result.detail


def test_milliseconds_said_as_seconds_is_a_unit_change_and_fifty_and_above_is_at_least():
    english = "The median latency is given in milliseconds."
    assert check_meaning(english, "Медианная задержка указана в миллисекундах.", "ru").passed
    assert failed(check_meaning(english, "Медианная задержка указана в секундах.", "ru"))
    assert check_meaning("Use only rows where `calls_started` is at least 50.",
                         "Бярыце толькі радкі з `calls_started` ад 50 і вышэй.", "be", ("calls_started",)).passed


@pytest.mark.parametrize("language, english, correct, broken", [
    # a negating ending at the end of a listed phrase ("алып таста*", "dışarıda bırak*": remove) negates it
    ("kk", "Stays longer than 60 days are outliers: do not remove them from the training data.",
     "60 күннен ұзақ болулар шектен тыс мәндер: оларды оқыту деректерінен алып тастамаңыз.",
     "60 күннен ұзақ болулар шектен тыс мәндер: оларды оқыту деректерінен алып тастаңыз."),
    ("tr", "Do not remove the refusals.", "Retleri dışarıda bırakmayın.", "Retleri dışarıda bırakın."),
])
def test_a_negating_ending_of_a_listed_phrase_is_a_negation(language, english, correct, broken):
    assert check_meaning(english, correct, language).passed
    assert failed(check_meaning(english, broken, language))


@pytest.mark.parametrize("language, translation", [
    ("pl", "`product_id`: oceniany produkt; każdy produkt trafia albo do części treningowej, albo do testowej."),
    ("ro", "`product_id`: produsul recenzat; un produs apare fie în split-ul de antrenare, fie în cel de test."),
    ("tr", "`product_id`: yorum yapılan ürün; her ürün ya eğitim ya da test bölümünde bulunur."),
])
def test_not_in_both_said_as_either_or_passes(language, translation):
    english = "`product_id`: the reviewed product; no product appears in both the training and the test split."
    assert check_meaning(english, translation, language).passed
    # one "or" is no "either ... or": the negation is lost
    assert failed(check_meaning(english, translation.replace("albo do części", "do części")
                                .replace("fie în split", "în split").replace("ya eğitim", "eğitim"), language))


def test_an_only_said_as_a_negation_of_the_other_side_passes():
    english = "`actual_load_mw`: the metered load, known only after delivery; do not use it as a feature."
    assert check_meaning(english, "`actual_load_mw`：计量所得的实际负荷，交割之前无从得知；切勿将其作为特征。", "zh").passed
    assert check_meaning(english, "`actual_load_mw`: الحمل الفعلي المقاس، الذي لا يُعرف قبل التسليم؛ ولا تستخدمه "
                                  "كميزة.", "ar").passed
    # without the added negation, "before" is a flip
    assert failed(check_meaning(english, "`actual_load_mw`：计量所得的实际负荷，交割之前得知；切勿将其作为特征。", "zh"))


@pytest.mark.parametrize("language, english, correct, broken", [
    # "depuis" before a duration is "for", before a moment "since" (after)
    ("fr", "Alerts on accounts opened less than 7 days before the alert are excluded.",
     "Les alertes sur des comptes ouverts depuis moins de 7 jours sont exclues.", None),
    ("fr", "Only readings after 2020 are kept.", "Seuls les relevés depuis 2020 sont conservés.",
     "Seuls les relevés avant 2020 sont conservés."),
    # "au plus" after a counted noun is "at most"
    ("fr", "The submission must not contain more than one row per applicant.",
     "Chaque demandeur doit figurer sur une ligne au plus dans la soumission.",
     "Chaque demandeur doit figurer sur une ligne dans la soumission."),
    # Italian "no" closing a clause; Romanian "ignoră" (ignore) for "do not use"
    ("it", "Transfers within the same bank are included, but cross-border transfers are not.",
     "I bonifici all'interno della stessa banca sono inclusi, ma quelli transfrontalieri no.",
     "I bonifici all'interno della stessa banca sono inclusi, e anche quelli transfrontalieri."),
    ("ro", "Do not use the column `delivered_at`, because it leaks the label.",
     "Ignoră coloana `delivered_at`: prin ea se scurge eticheta.", "Folosește coloana `delivered_at`: prin ea se scurge eticheta."),
    # "no missing values" as "every value filled"; "none of their records" as "free of its records"
    ("ja", "Submit one probability per transformer, with no missing values.",
     "変圧器ごとの確率を一つずつ提出し、値はすべて埋めてください。", "変圧器ごとの確率を一つずつ提出してください。"),
    ("ar", "The last 3 months form the test period, and none of their records appear in the training file.",
     "تمثل آخر 3 أشهر فترة الاختبار، وملف التدريب خالٍ من سجلاتها.",
     "تمثل آخر 3 أشهر فترة الاختبار، وملف التدريب يضم سجلاتها."),
    # "no turbine misses more than 5 percent" as "within 5%"; "capped at" and 最高为 are "at most"
    ("ja", "No turbine is missing more than 5 percent of its intervals.",
     "欠損区間の割合は、どの風車も 5% 以内に収まっています。", None),
    ("zh", "Power is capped at the rated 2,050 kW; values below zero are not errors.",
     "功率最高为额定的 2,050 kW；零以下的数值不是错误。", None),
    ("pl", "Do not remove the rare class of refusals from your predictions.",
     "Rzadka klasa odmów musi pozostać w Twoich predykcjach.", "Rzadka klasa odmów musi zniknąć z Twoich predykcji."),
])
def test_words_the_seventh_calibration_set_taught(language, english, correct, broken):
    assert check_meaning(english, correct, language).passed
    if broken:
        assert failed(check_meaning(english, broken, language))


@pytest.mark.parametrize("language, english, correct, broken", [
    # "no-show" names a thing; its "no" negates nothing
    ("ja", "Predict whether each booking in `pnr_test.csv` ends as a no-show.",
     "`pnr_test.csv` の各予約について、ノーショー（no-show）となるかを予測してください。", None),
    # two negations said with one "only if": "does not beat it ... will not be accepted"
    ("fr", "A model that does not beat it by at least 0.3 degrees will not be accepted.",
     "Un modèle n'est accepté que s'il la bat d'au moins 0.3 degré.", "Un modèle est accepté s'il la bat d'au moins 0.3 degré."),
    # a ban said as a state: "под запретом", "ممنوعة"; "discard" and "stay out of" for "do not include/use"
    ("ru", "Do not use `inspector_id` as a feature, because it leaks the label.",
     "Признак `inspector_id` под запретом.", "Признак `inspector_id` используйте."),
    ("ar", "Do not resample `ops_2023.csv`: the evaluation file keeps its natural class balance.",
     "إعادة أخذ العينات ممنوعة في `ops_2023.csv`، فملف التقييم يبقى على توازن فئاته الطبيعي.",
     "أعد أخذ العينات في `ops_2023.csv`، فملف التقييم يبقى على توازن فئاته الطبيعي."),
    ("it", "Do not include districts with more than 10 percent of months missing.",
     "Scarta i distretti in cui manca più del 10% dei mesi.", None),
    ("es", "- `city_code`: a three-letter city identifier; it is not a feature.",
     "- `city_code`: identificador de tres letras de la ciudad, que debe quedar fuera de las variables predictoras.",
     "- `city_code`: identificador de tres letras de la ciudad, que debe entrar en las variables predictoras."),
    # the fifth surface calibration set (correct translations only, 2026-11-28):
    # a nanometre is no metre, and "cm" in a Latin unit is a centimetre as in the English
    ("zh", "Each sample has conductivity (µS/cm) and UV absorbance at 220 nm.",
     "每个样品提供电导率（µS/cm）以及 220 纳米处的 UV 吸光度。", "每个样品提供电导率（µS/米）以及 220 纳米处的 UV 吸光度。"),
    ("ja", "Each sample has conductivity (µS/cm) and UV absorbance at 220 nm.",
     "各試料には電気伝導率（µS/cm）と 220 ナノメートルの UV 吸光度がある。",
     "各試料には電気伝導率（µS/メートル）と 220 ナノメートルの UV 吸光度がある。"),
    # "or more than 180" is a second comparison, not "180 or more"
    ("es", "Orders delivered in less than 5 minutes or more than 180 minutes are removed.",
     "Los pedidos entregados en menos de 5 minutos o en más de 180 minutos se eliminan.",
     "Los pedidos entregados en más de 5 minutos o en más de 180 minutos se eliminan."),
    # "not just" restricts nothing away, as "не только" does not
    ("ru", "Submit a probability for every class, not just the most likely label.",
     "Отправляйте вероятность для каждого класса, а не только наиболее вероятную метку.", None),
    # weekends and holidays are days off, not days as a unit of time
    ("ru", "Delivery time excluding public holidays and weekends (hours).",
     "Время доставки без учёта праздничных и выходных дней (часы).",
     "Время доставки без учёта праздничных и выходных дней (минуты)."),
    ("be", "Promised delivery time, excluding weekends (hours).",
     "Абяцаны час дастаўкі без уліку выхадных дзён (гадз).", "Абяцаны час дастаўкі без уліку выхадных дзён (хвіліны)."),
    ("kk", "Promised delivery time, excluding weekends (hours).",
     "Демалыс күндерін есепке алмағандағы уәде етілген жеткізу уақыты (сағ).",
     "Демалыс күндерін есепке алмағандағы уәде етілген жеткізу уақыты (минут)."),
])
def test_words_the_eighth_meaning_and_fifth_surface_calibration_sets_taught(language, english, correct, broken):
    assert check_meaning(english, correct, language).passed
    if broken:
        assert failed(check_meaning(english, broken, language))


@pytest.mark.parametrize("language, english, correct, broken", [
    ("ja", "Do not shuffle the rows before you split them by date.", "日付で分割する前に、行の順序を保ってください。",
     "日付で分割する前に、行をシャッフルしてください。"),  # 保つ, keep (calibration set 6b)
    ("es", "Do not shuffle the rows before splitting.", "Conserva el orden de las filas antes de dividirlas.",
     "Mezcla las filas antes de dividirlas."),
    ("pl", "Do not spread samples of one farm across folds.",
     "Próbki z danego gospodarstwa mają pozostać w jednym foldzie.",
     "Rozłóż próbki z jednego gospodarstwa na różne foldy."),
    ("fr", "Never split one customer's orders across folds.",
     "Gardez toujours ensemble, dans un même pli, les commandes d'un client.",
     "Répartissez les commandes d'un client entre plusieurs plis."),
    ("ar", "Timestamps are not adjusted for daylight saving time.",
     "تبقى الطوابع الزمنية على حالها عند التحول إلى التوقيت الصيفي.",
     "تُعدَّل الطوابع الزمنية وفق التوقيت الصيفي."),
])
def test_a_negated_change_said_as_keeping_is_no_lost_negation(language, english, correct, broken):
    """"Do not shuffle the rows" is "keep their order" (calibration sets 5d, 6c, 7a, 9c); the negation lost without a
    word of keeping is still caught."""
    assert check_meaning(english, correct, language).passed
    result = check_meaning(english, broken, language)
    assert not result.passed and result.detail.startswith("negation: line 1 "), result.detail


def test_a_kept_word_the_english_has_too_renders_no_negated_change():
    result = check_meaning("Do not shuffle the rows; keep the time order.", "Mezcla las filas; conserva el orden temporal.",
                           "es")
    assert not result.passed and result.detail.startswith("negation: line 1 "), result.detail


@pytest.mark.parametrize("english, translation", [
    # "yes/no" names a column's values; it negates nothing
    ("- `queen_seen`: whether the queen was seen during the inspection (yes/no)",
     "- `queen_seen`：内検で女王蜂を確認できたか（yes/no）"),
    # "できず" is "cannot"
    ("Vans wider than 2 m are not let in and are sent to another garage.",
     "幅 2 m を超えるバンは入場できず、別の駐車場へ案内されます。"),
])
def test_a_value_list_and_a_cannot_read_as_the_english_says_them(english, translation):
    assert checked("meaning", english, translation, "ja").passed


@pytest.mark.parametrize("language, english, correct, broken", [
    # "do not use X after T" as "use only X up to T", the sentence's other negation kept, once ...
    ("pl", "Do not use readings taken after the deadline, and do not use external data.",
     "Korzystaj tylko z odczytów wykonanych przed terminem i nie używaj danych zewnętrznych.",
     "Nie korzystaj z odczytów wykonanych przed terminem i nie używaj danych zewnętrznych."),
    # ... or more of them
    ("es", "Runners who did not finish are in neither file, and you must not use times recorded after the 10 km mark.",
     "En ninguno de los archivos figuran los corredores que no terminaron, y los tiempos solo pueden usarse hasta los "
     "10 km.",
     "En ninguno de los archivos figuran los corredores que no terminaron, y los tiempos no pueden usarse hasta los "
     "10 km."),
])
def test_a_negation_said_as_only_with_the_opposite_may_keep_the_sentence_s_other_negations(language, english, correct,
                                                                                            broken):
    """"Do not use what came after" is "use only what came before" (calibration sets 6c, 6e) whatever else the sentence
    negates; the same flip with a negation and no "only" is still caught. (Where a language negates twice, "niciunul ...
    nu", the sentence keeps as many negations as the English and the flip is still reported: an "only" there may be an
    English condition's, "counts only if".)"""
    assert check_meaning(english, correct, language).passed
    result = check_meaning(english, broken, language)
    assert not result.passed and result.detail.startswith("comparison: line 1 "), result.detail


@pytest.mark.parametrize("language, english, correct, broken", [
    # "降雪が始まってから" (since the snowfall started) is "after it started"
    ("ja", "Predict how many minutes each route needs to be cleared after a snowfall starts.",
     "降雪が始まってから各ルートの除雪が終わるまでに何分かかるかを予測してください。",
     "降雪が始まる前に各ルートの除雪に何分かかるかを予測してください。"),
    # a bare "minimum" before its number is "at least"
    ("fr", "- `drop`: largest pressure drop within 15 minutes (bar, at least 0)",
     "- `drop` : baisse de pression la plus importante en 15 minutes (bar, minimum 0)",
     "- `drop` : baisse de pression la plus importante en 15 minutes (bar, maximum 0)"),
    # "saat 02:00" is a time of day, no hours
    ("tr", "- `night_flow`: minimum flow between 02:00 and 04:00 (litres per second)",
     "- `night_flow`: saat 02:00 ile 04:00 arasında ölçülen en düşük debi (l/s)",
     "- `night_flow`: 02:00 ile 04:00 arasında ölçülen en düşük debi (litre/saat)"),
    # "the only source" says the English "not allowed, except"
    ("ro", "External data is not allowed, except for the flight schedule in `schedule.csv`.",
     "`schedule.csv`, cu orarul zborurilor, este singura sursă de date externe permisă.",
     "`schedule.csv`, cu orarul zborurilor, este o sursă de date externe permisă."),
    # "positives ou nulles" is "not negative"
    ("fr", "Predictions must not be negative.", "Les prédictions doivent être positives ou nulles.",
     "Les prédictions doivent être positives."),
    ("ru", "- `co2_ppm`: carbon dioxide above the grain (ppm, at least 400)",
     "- `co2_ppm`: углекислый газ над зерном (ppm, минимум 400)",
     "- `co2_ppm`: углекислый газ над зерном (ppm, максимум 400)"),
    # "周期" is a period, no week
    ("zh", "- `price`: price paid in the last billing period (euros per month)",
     "- `price`：最近一个计费周期支付的价格（欧元/月）", "- `price`：最近一个计费周期支付的价格（欧元/周）"),
    ("it", "No external data is allowed except public holiday calendars.",
     "Gli unici dati esterni ammessi sono i calendari dei giorni festivi.",
     "I dati esterni ammessi sono i calendari dei giorni festivi."),
    # "une précision minimale de 0.9" is "a precision of at least 0.9", no minimizing
    ("fr", "The metric is recall at a precision of at least 0.9, and it should be maximized.",
     "La métrique est le rappel pour une précision minimale de 0.9 : plus il est élevé, mieux c'est.",
     "La métrique est le rappel pour une précision maximale de 0.9 : plus il est élevé, mieux c'est."),
    # "no time of day" is no unit; "senza orario" neither
    ("it", "- `delivery_date`: day the order arrived at the restaurant (local date, no time of day)",
     "- `delivery_date`: giorno in cui l'ordine è arrivato al ristorante (data locale, senza orario)",
     "- `delivery_date`: ora in cui l'ordine è arrivato al ristorante (data locale, senza orario)"),
])
def test_words_of_calibration_sets_6c_to_6k_read_as_the_english_says_them(language, english, correct, broken):
    assert check_meaning(english, correct, language).passed
    assert not check_meaning(english, broken, language).passed


@pytest.mark.parametrize("language, english, correct, broken", [
    # an English sentence split at its colon into two (calibration set 2a)
    ("ja", "Do not treat `customer_id` as a feature: no customer appears in both the training and the test set.",
     "`customer_id` を特徴量として扱わないでください。同じ顧客が学習データとテストデータの両方に現れることはありません。",
     "`customer_id` を特徴量として扱ってください。同じ顧客が学習データとテストデータの両方に現れることはありません。"),
    # two English sentences merged at a colon
    ("ru", "Do not use the weather data. It is not known at prediction time.",
     "Не используйте данные о погоде: на момент прогноза они не известны.",
     "Используйте данные о погоде: на момент прогноза они не известны."),
])
def test_a_negation_lost_in_a_split_or_merged_sentence_is_caught(language, english, correct, broken):
    """A sentence split at its colon, or two merged into one, pair a sentence of one side with a clause of the other;
    the clause that lost its prohibition is found though the other still negates."""
    assert check_meaning(english, correct, language).passed
    result = check_meaning(english, broken, language)
    assert not result.passed and result.detail.startswith("negation: line 1 "), result.detail


def _meaning_on_the_alignment(case):
    """The meaning check of a natural set's case, on the sentences the adequacy check aligned (as in a run)."""
    from curation.checks.adequacy import check_adequacy

    check_adequacy(case.source, case.translation, case.language, case.names)
    return check_meaning(case.source, case.translation, case.language, case.names)


@pytest.mark.parametrize("name, index", [("meaning_calibration_7b", 17), ("meaning_calibration_5b", 6),
                                         ("meaning_calibration_5b", 7)])
def test_a_kazakh_time_word_negated_after_it_says_the_other_side(name, index):
    # "2015-10-01-ден ерте емес" (not earlier than 2015-10-01) for "on or after 2015-10-01", "ешқашан одан бұрын емес"
    # (never before it) for "never before": Kazakh puts the negation after the word, and the phrase is `after`, as
    # "не раньше" is in Russian; read word by word it was `before` and a negation, a reversed comparison
    case = natural.load(name, ("kk",))[index]
    assert case.defect is None and ("ерте емес" in case.translation or "бұрын емес" in case.translation)
    assert _meaning_on_the_alignment(case).passed
    finds = senses("kk").finds(lower("2015-10-01-ден ерте емес", "kk"))
    assert [(find.text, sorted(find.concepts)) for find in finds] == [("ерте емес", ["after"])]


@pytest.mark.parametrize("index", [6, 7, 8])
def test_working_days_are_no_unit_of_time_unless_counted(index):
    # "Only weekday opening hours are scored" as "жұмыс күндеріндегі жұмыс сағаттары" (the working days' working
    # hours): the days are which days, not a duration, as days off are ("выходные дни"); "5 жұмыс күні" still counts
    case = natural.load("calibration_6h", ("kk",))[index]
    assert case.text_id == "city_swimming_pools_desc" and case.defect is None and "жұмыс күн" in case.translation
    assert _meaning_on_the_alignment(case).passed
    for code, counted in (("kk", "5 жұмыс күні ішінде"), ("ru", "за 5 рабочих дней"), ("be", "за 5 працоўных дзён")):
        assert "day" in senses(code).count(lower(counted, code)), (code, counted)
    assert "day" not in senses("ru").count(lower("только рабочие дни", "ru"))
