"""The ML glossary: the file a curator edits, what the translator is told, the terminology check, and the changes
annotators make to glossary terms."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from curation.checks.glossary import GlossaryError, check_terms, entries_for, load_glossary, parse_glossary, term_changes
from tests.checks import natural

REPO = Path(__file__).resolve().parents[2]
GLOSSARY = load_glossary(REPO / "glossary.csv")

SMALL = """# a comment line
term,group,en,ru,fr,source,date
recall,metric,recall | sensitivity,полнота,rappel,a course,2026-11-26
precision,metric,precision,точность,précision,a course,2026-11-26
mean,statistic,mean | average,среднее,moyenne,a course,2026-11-26
median,statistic,median,медиана,médiane,a course,2026-11-26
"""


def test_the_repository_glossary_covers_every_target_with_a_source_and_a_date():
    assert len(GLOSSARY.entries) >= 25
    for entry in GLOSSARY.entries:
        assert entry.source and entry.date and entry.group, entry.term
        for language in natural.LANGUAGES:
            assert entry.forms.get(language), (entry.term, language)


def test_the_translator_is_told_the_renderings_of_the_terms_its_text_uses():
    glossary = parse_glossary(SMALL)
    text = "Models are ranked by recall at a fixed precision of 0.9; the mean is reported."
    assert entries_for(glossary, text, "ru") == [("recall", "полнота"), ("precision", "точность"), ("mean", "среднее")]
    assert entries_for(glossary, "Nothing of the kind here.", "ru") == []


def test_a_term_rendered_with_another_term_of_its_group_is_flagged():
    glossary = parse_glossary(SMALL)
    source = "Fill the gaps with the median of the column."
    assert check_terms(glossary, source, "Заполните пропуски медианой столбца.", "ru").passed
    result = check_terms(glossary, source, "Заполните пропуски средним столбца.", "ru")
    assert not result.passed
    assert result.detail == ("term: the English says 'median' (median), the translation has none of медиана but "
                             "'средним' (mean)")
    # another word that is no glossary term is the translator's choice, not a swap
    assert check_terms(glossary, source, "Заполните пропуски серединным значением столбца.", "ru").passed



def test_one_of_two_mentions_swapped_is_flagged_but_a_feature_named_once_less_is_not():
    glossary = parse_glossary(SMALL)
    source = "Report the recall of each class, and the recall of the minority class separately."
    good = "Укажите полноту каждого класса и отдельно полноту миноритарного класса."
    assert check_terms(glossary, source, good, "ru").passed
    # the second recall became precision: the translation still says recall once (the fifth calibration set)
    result = check_terms(glossary, source, "Укажите полноту каждого класса и отдельно точность миноритарного класса.",
                         "ru")
    assert not result.passed
    assert result.detail == ("term: the English says 'recall' (recall) 2 times, the translation once, and 'точность' "
                             "(precision) once, which the English does not say")
    # a translation that names a term once where the English names it twice, with no other term instead, passes
    assert check_terms(glossary, source, "Укажите полноту каждого класса, отдельно — миноритарного.", "ru").passed
    # feature, target and label are compared only when the translation lacks the term
    source = "The target is `yield`; predict the target for each plot. `plot_id` is a feature."
    said_once = ("Целевая переменная — `yield`; предскажите её для каждого участка. `plot_id` — признак, как и "
                 "остальные признаки.")
    assert check_terms(GLOSSARY, source, said_once, "ru").passed


@pytest.mark.parametrize("language,translation", [
    # "دقة" is precision and accuracy both: said for the English precision, it is no accuracy put in its place
    ("ar", "أبلغ عن الدقة لكل فئة، ثم للفئة النادرة وحدها."),
    # a weighted average with its word for mean is no mean (the fifth calibration set, 2026-11-27)
    ("ja", "マクロ平均と加重平均を並べて報告し、`ph` のモードも示してください。"),
])
def test_a_word_of_two_terms_and_an_average_with_its_mean_word_are_no_swap(language, translation):
    source = {"ar": "Report the precision of each class, then the precision of the rare class alone.",
              "ja": "Report the macro average and the weighted average side by side, and give the mode of `ph` too."}[language]
    assert check_terms(GLOSSARY, source, translation, language).passed

def test_a_threshold_that_moves_to_the_other_metric_is_flagged():
    source = "Models are ranked by their recall at a fixed precision of 0.9."
    good = "Модели ранжируются по полноте при фиксированной точности 0.9."
    swapped = "Модели ранжируются по точности при фиксированной полноте 0.9."
    assert check_terms(GLOSSARY, source, good, "ru").passed
    result = check_terms(GLOSSARY, source, swapped, "ru")
    assert not result.passed and "puts 0.9 with 'полноте' (recall)" in result.detail


def test_a_negation_or_threshold_near_two_terms_decides_nothing():
    # "No participant of the test file appears in the training file": the negation is the verb's, not a term's
    source = "No participant of the test file appears in the training file."
    good = "Тест файлындағы бірде-бір қатысушы оқыту файлында кездеспейді."
    assert check_terms(GLOSSARY, source, good, "kk").passed
    # Kazakh puts the threshold's metric on either side: with a term on both, word order decides nothing
    source = "The metric is recall at a precision of 0.9."
    assert check_terms(GLOSSARY, source, "Метрика — precision 0.9 кезіндегі recall.", "kk").passed


@pytest.mark.parametrize("language, source, translation", [
    # practitioners' jargon for the target (the fifth surface calibration set, calibration_5f)
    ("ru", "Do not use `rating_live` as a feature: it is measured during the broadcast and leaks the target.",
     "`rating_live` как фичу не используйте: он замеряется во время эфира, и через него в признаки утекает таргет."),
    # a Turkish "model" is no "mod" (the mode) with an ending
    ("tr", "Rankings are evaluated with NDCG@20 per district and then averaged over all districts with equal weights. "
           "A baseline reaches 0.71 NDCG@20.",
     "Sıralamalar her ilçe için ayrı ayrı NDCG@20 ile değerlendirilir ve ardından tüm ilçeler üzerinden eşit "
     "ağırlıklarla ortalaması alınır. Temel model 0.71 NDCG@20 değerine ulaşır."),
])
def test_words_the_fifth_surface_calibration_set_taught_the_glossary(language, source, translation):
    assert check_terms(GLOSSARY, source, translation, language).passed


def test_a_threshold_of_two_listed_terms_goes_with_both():
    # "Precision and recall at 0.5": Kazakh puts the threshold before the list, beside its first term
    source = "Precision and recall at a threshold of 0.5 are also reported."
    assert check_terms(GLOSSARY, source, "Сондай-ақ 0.5 шегіндегі дәлдік пен толықтық жарияланады.", "kk").passed
    # two terms side by side with no "and" between are one phrase: precision at a fixed recall
    source = "Models are ranked by their recall at a fixed precision of 0.9."
    result = check_terms(GLOSSARY, source, "Модельдер 0.9 тіркелген толықтықтағы дәлдік бойынша реттеледі.", "kk")
    assert not result.passed and "puts 0.9 with 'толықтықтағы' (recall)" in result.detail


def test_a_broken_glossary_is_one_line_naming_the_file_and_line(tmp_path):
    path = tmp_path / "glossary.csv"
    path.write_text("term,group,en,ru,source,date\nrecall,metric,recall,полнота,a course\n", encoding="utf-8")
    with pytest.raises(GlossaryError, match=r"glossary.csv line 2: 5 cells where the header has 6"):
        load_glossary(path)
    path.write_text("term,en,ru\n", encoding="utf-8")
    with pytest.raises(GlossaryError, match=r"line 1: the header lacks the column\(s\) group, source, date"):
        load_glossary(path)
    assert load_glossary(tmp_path / "none.csv").entries == ()  # no file, no glossary


def test_an_edited_glossary_is_read_again(tmp_path):
    path = tmp_path / "glossary.csv"
    path.write_text(SMALL, encoding="utf-8")
    assert load_glossary(path).by_term()["recall"].rendering("ru") == "полнота"
    path.write_text(SMALL.replace("полнота", "отзыв"), encoding="utf-8")
    assert load_glossary(path).by_term()["recall"].rendering("ru") == "отзыв"


def test_a_fix_that_replaces_a_glossary_rendering_is_found():
    glossary = parse_glossary(SMALL)
    source = "Models are ranked by recall."
    assert term_changes(glossary, source, "Модели ранжируются по полноте.", "Модели упорядочены по полноте.", "ru") == []
    assert term_changes(glossary, source, "Модели ранжируются по полноте.", "Модели ранжируются по отклику.",
                        "ru") == [("recall", "полноте", "отклику")]


def test_an_english_term_kept_as_a_loanword_is_its_own_rendering():
    glossary = load_glossary(Path(__file__).parents[2] / "glossary.csv")
    # the translation also says "target" where the English does not: the check would take it for the swapped term
    source = "Every record has a `doc_id`, a `title` and a `category`. Treat `doc_id` as a key, not as a feature."
    turkish = ("Kayıtlarda `doc_id`, `title` ve hedef `category` bulunur. `doc_id` yalnızca bir anahtardır, onu "
               "feature olarak kullanmayın.")
    assert check_terms(glossary, source, turkish, "tr", ["doc_id", "title", "category"]).passed


def test_an_error_metric_or_a_model_kind_swapped_within_its_group_is_flagged():
    # "mean absolute error" is one term of the error group: the longer term wins over "mean" (moyenne)
    source = "Submissions are evaluated with the mean absolute error in kilowatt-hours."
    assert check_terms(GLOSSARY, source, "Les soumissions sont évaluées selon l'erreur absolue moyenne en "
                       "kilowattheures.", "fr").passed
    result = check_terms(GLOSSARY, source, "Les soumissions sont évaluées selon l'erreur quadratique moyenne en "
                         "kilowattheures.", "fr")
    assert not result.passed
    assert "(mean absolute error)" in result.detail and "'erreur quadratique moyenne' (mean squared error)" in result.detail
    # a classifier shares the task group with classification and regression: a regression model is a swap
    source = "Train your classifier on the comments longer than 5 words."
    assert check_terms(GLOSSARY, source, "Wytrenuj swój klasyfikator na komentarzach dłuższych niż 5 słów.", "pl").passed
    assert check_terms(GLOSSARY, source, "Wytrenuj swój model klasyfikacyjny na komentarzach dłuższych niż 5 słów.",
                       "pl").passed
    result = check_terms(GLOSSARY, source, "Wytrenuj swój model regresji na komentarzach dłuższych niż 5 słów.", "pl")
    assert not result.passed and "'model regresji' (regressor)" in result.detail


def test_a_word_that_is_no_term_in_its_sentence_decides_nothing():
    glossary = load_glossary(Path(__file__).parents[2] / "glossary.csv")
    # a timestamp's "second precision" is no metric; "your goal" is no target column
    assert check_terms(glossary, "`picked_at` is a timestamp with second precision.",
                       "`picked_at` to znacznik czasu z dokładnością do sekundy.", "pl").passed
    assert check_terms(glossary, "Your goal is to forecast stock-outs. Build features with `groupby`.",
                       "Tu objetivo es predecir roturas de stock. Construye variables con `groupby`.", "es",
                       ("groupby",)).passed
    # the metric itself still is
    assert not check_terms(glossary, "Report the precision at a recall of 0.9.",
                           "Podaj dokładność przy czułości 0.9.", "pl").passed


def test_a_detail_lists_its_terms_in_the_same_order_in_every_process():
    # "дакладнасць" is both accuracy and precision: two problems for one recall. Their order came from iterating a
    # set of strings, which Python's hash seed reorders from one process to the next, so the same translation's
    # detail read differently in each process that checked it (a run, a later `curate check`).
    case = next(case for case in natural.load("meaning_calibration_4b", ("be",)) if case.text_id == "d3_turnaround"
                and case.defect == "wrong_term" and "; term" in check_terms(GLOSSARY, case.source, case.translation,
                                                                             "be").detail)
    script = ("import json, sys; from pathlib import Path; from curation.checks.glossary import check_terms, load_glossary; "
              "case = json.load(sys.stdin); "
              "print(check_terms(load_glossary(Path('glossary.csv')), case['source'], case['translation'], 'be').detail)")
    details = {subprocess.run([sys.executable, "-c", script], input=json.dumps({"source": case.source,
                              "translation": case.translation}), capture_output=True, text=True, check=True,
                              cwd=REPO, env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout
               for seed in range(4)}
    assert len(details) == 1 and "recall" in details.pop()


def test_an_italian_loan_takes_no_ending_so_text_is_not_a_test_set():
    # "test" is invariable in Italian; "testo" is text (meaning_calibration_4c, rx_signal_detection)
    source = "Use `reports.csv` for training, and ignore the `case_narrative` text."
    translation = "Usate `reports.csv` per l'addestramento e ignorate il testo di `case_narrative`."
    assert check_terms(GLOSSARY, source, translation, "it").passed
    swapped = "Usate `reports.csv` per il test e ignorate il testo di `case_narrative`."
    result = check_terms(GLOSSARY, source, swapped, "it")
    assert not result.passed and "'test' (test set)" in result.detail and "testo" not in result.detail


@pytest.mark.parametrize("language,source,translation", [
    # "検証" is the noun and the verb: the English verb says the same term (meaning_calibration_5a, leaf_disease)
    ("ja", "`rust_late` has fewer than 40 training images. Validate with stratified k-fold over 5 folds.",
     "`rust_late` の学習画像は 40 枚未満です。5 分割の層化 k 分割で検証してください。"),
    # "treningu" is a form of "trening"; "testu" of "test" (meaning_calibration_5d, calibration_4c)
    ("pl", "Do not use them for training. Validate on 20% of the data and keep 10% for the test set.",
     "Nie używaj ich do treningu. Walidację przeprowadź na 20% danych, a 10% zostaw do testu."),
    # "таңба" (mark) is Kazakh's usual word for a label; "сипаттама" beside it is the feature (meaning_calibration_5b)
    # "en entraînant" is "training" the gerund (meaning_calibration_6c, fare_validation)
    ("fr", "Classify each ticket tap in `taps_test.csv`, training on `taps_train.csv`.",
     "Classez chaque validation de titre de `taps_test.csv`, en entraînant votre modèle sur `taps_train.csv`."),
    ("kk", "The spectra are features; the lab value is not, because it defines the label.",
     "Спектрлер сипаттама қызметін атқарады; зертханалық көрсеткіш сипаттама бола алмайды, өйткені таңба содан "
     "алынған."),
])
def test_a_verb_of_a_term_and_the_inflected_forms_of_a_term_are_that_term(language, source, translation):
    assert check_terms(GLOSSARY, source, translation, language).passed


@pytest.mark.parametrize("language,source,translation", [
    # "تقطيع دلالي" is semantic segmentation; the pixel accuracy beside it is a classification's (meaning_calibration_5a)
    ("ar", "Perform semantic segmentation of weeds. The segmentation is scored by mean IoU; pixel accuracy is reported.",
     "نفِّذ تقطيعًا دلاليًا للأعشاب الضارة. يُقيَّم التقطيع بمتوسط IoU، وتُذكر دقة التصنيف على مستوى البكسل."),
    # "racine d'erreur quadratique moyenne", without the article (meaning_calibration_5c)
    ("fr", "The baseline reaches a root mean squared error of 26 kg.",
     "Le modèle de référence obtient une racine d'erreur quadratique moyenne de 26 kg."),
    # "of the logarithms" for "logarithmic" (the held-out set's taxi trips)
    ("pl", "The metric is the root mean squared logarithmic error (RMSLE), so lower is better.",
     "Metryką jest pierwiastek błędu średniokwadratowego logarytmów (RMSLE), więc im niższa wartość, tym lepiej."),
])
def test_a_rendering_without_an_article_or_with_another_usual_word_is_that_term(language, source, translation):
    assert check_terms(GLOSSARY, source, translation, language).passed


def test_one_of_two_mentions_swapped_is_caught_beside_an_english_gloss_in_brackets():
    # "полнота (recall)": the English word in brackets is a gloss, not the term kept as a loan; the second mention
    # turned into precision is still a swap
    source = ("Submissions are ranked by recall at a precision of at least 0.6; higher recall is better.")
    correct = "Сабмиты ранжируются по полноте (recall) при точности не ниже 0.6; чем выше полнота, тем лучше."
    swapped = "Сабмиты ранжируются по полноте (recall) при точности не ниже 0.6; чем выше точность, тем лучше."
    assert check_terms(GLOSSARY, source, correct, "ru").passed
    result = check_terms(GLOSSARY, source, swapped, "ru")
    assert not result.passed and "'recall' (recall) 2 times, the translation once" in result.detail
    # a term left as the English word throughout is still a loan
    assert check_terms(GLOSSARY, "Use `id` as a key, not as a feature.",
                       "`id`'yi anahtar olarak kullanın, feature olarak değil.", "tr").passed


@pytest.mark.parametrize("language, source, correct, swapped", [
    # a short form declined ("модой", "модамен": too short to take any ending unlisted, or "моде" would be "модель")
    ("ru", "Fill the gaps with the median of the herd.", "Заполните пропуски медианой по стаду.",
     "Заполните пропуски модой по стаду."),
    ("kk", "Fill the gaps with the median of the herd.", "Бос мәндерді табынның медианасымен толтырыңыз.",
     "Бос мәндерді табынның модамен толтырыңыз."),
    # "testing" for the test split; an adjective of a task; English loans for averages in a Turkish sentence
    ("ru", "Validate on folds split by `subject_id`.", "Проводите валидацию на фолдах, разбитых по `subject_id`.",
     "Проводите тестирование на фолдах, разбитых по `subject_id`."),
    ("pl", "`days_in_transit` is the target of the regression track.",
     "`days_in_transit` jest zmienną docelową ścieżki regresyjnej.",
     "`days_in_transit` jest zmienną docelową ścieżki klasyfikacyjnej."),
    ("tr", "Submissions are scored by macro F1.", "Gönderimler macro F1 ile değerlendirilir.",
     "Gönderimler weighted F1 ile değerlendirilir."),
    # a Kazakh stem whose last consonant voices before a vowel ("толықтық", "толықтығы")
    ("kk", "Models are ranked by recall.", "Модельдер толықтығы бойынша реттеледі.",
     "Модельдер дәлдігі бойынша реттеледі."),
])
def test_a_term_swapped_in_a_declined_or_borrowed_form_is_flagged(language, source, correct, swapped):
    assert check_terms(GLOSSARY, source, correct, language).passed
    assert not check_terms(GLOSSARY, source, swapped, language).passed


@pytest.mark.parametrize("language,translation", [
    ("zh", "模型依据钓鱼类别的 PR AUC，即 precision-recall 曲线下面积，越高越好。"),
    ("zh", "模型依据钓鱼类别的精确率–召回率曲线下面积（PR AUC）排名，越高越好。"),
    ("ja", "モデルの順位は PR AUC（precision-recall 曲線の下の面積）で決まり、値が大きいほど良好です。"),
    ("ar", "معيار ترتيب النماذج هو PR AUC (المساحة تحت منحنى precision-recall)، والقيمة الأعلى أفضل."),
    ("es", "Los envíos se evalúan con el área bajo la curva de precisión-recall (PR AUC); cuanto más alto, mejor."),
])
def test_the_precision_recall_curve_with_the_english_words_or_a_dash_is_pr_auc(language, translation):
    source = "Models are ranked by the area under the precision-recall curve (PR AUC); higher is better."
    assert check_terms(GLOSSARY, source, translation, language).passed


def test_the_task_said_for_its_model_is_no_swap_but_another_metric_inside_a_metric_is():
    source = "Train a regression model on the busy-hour features."
    assert check_terms(GLOSSARY, source, "Обучите регрессию на признаках часа наибольшей нагрузки.", "ru").passed
    assert not check_terms(GLOSSARY, source, "Обучите классификатор на признаках часа наибольшей нагрузки.", "ru").passed
    # and the model said for its task: "a regression model" for "regression" (eighth calibration set)
    task = "This is a regression problem on the fare."
    assert check_terms(GLOSSARY, task, "هذه مسألة يُبنى لها نموذج الانحدار على الأجرة.", "ar").passed
    assert not check_terms(GLOSSARY, task, "هذه مسألة تصنيف على الأجرة.", "ar").passed
    # "root mean squared error" holds "mean squared error", but that is another metric
    result = check_terms(GLOSSARY, "The metric is the root mean squared error.", "La métrica es el error cuadrático medio.",
                         "es")
    assert not result.passed


@pytest.mark.parametrize("language, translation", [
    ("fr", "Validez par plis temporels : pour chaque pli, l'entraînement ne porte que sur les semaines antérieures."),
    ("it", "Valida con fold temporali: per ogni fold l'addestramento usa solo le settimane precedenti."),
    ("es", "Valida con folds temporales: en cada fold, el entrenamiento usa solo las semanas anteriores."),
])
def test_the_verb_validate_is_the_validation_term_in_the_translation_too(language, translation):
    # the English verb is a form of the validation split; its imperative is too (seventh calibration set)
    english = "Validate with time-based folds: train each fold on the weeks before it."
    assert check_terms(GLOSSARY, english, translation, language).passed


def test_a_hyphenated_form_written_with_a_dash_is_the_same_term():
    english = "- Compare models by the area under the precision-recall curve, not by accuracy;"
    assert check_terms(GLOSSARY, english, "- Сравнивайте модели по площади под кривой точность–полнота, а не по доле "
                                          "правильных ответов;", "ru").passed
    assert check_terms(GLOSSARY, english, "- Модельдерді дұрыстық бойынша емес, дәлдік–толықтық қисығының астындағы "
                                          "аудан бойынша салыстырыңыз;", "kk").passed
    # the ROC curve there is still another term
    assert not check_terms(GLOSSARY, english, "- Сравнивайте модели по площади под ROC-кривой, а не по доле "
                                              "правильных ответов;", "ru").passed


def test_a_term_s_gloss_in_brackets_does_not_cut_it_from_its_number():
    # "дәлдік (precision) кемінде 0.6 болғандағы толықтық": the number follows precision and its gloss; the brackets
    # had cut precision off, and 0.6 went with recall after it (calibration sets 6b and 7b)
    english = "Submissions are scored by recall at a precision of at least 0.6, and higher recall is better."
    kazakh = ("Сабмиттерді бағалау — дәлдік (precision) кемінде 0.6 болғандағы толықтық (recall); толықтық неғұрлым "
              "жоғары болса, соғұрлым жақсы.")
    assert check_terms(GLOSSARY, english, kazakh, "kk").passed


@pytest.mark.parametrize("name,language,text_id", [
    ("calibration_4b", "be", "d3_clickstream"),  # the test set as the loan "тэст" ("на тэсце")
    ("calibration_5f", "tr", "hemolysis_desc"),  # features said with a word the glossary lacked
    ("meaning_calibration_6d", "tr", "c6d_attendance_forecast"),  # validation as the loan "validasyon"
])
def test_renderings_from_practitioners_usage_keep_correct_calibration_texts_clean(name, language, text_id):
    """The renderings a helper listed from practitioners' usage (docs/benchmarks.md, seventeenth session): each correct
    version of these calibration texts was flagged as a swapped term before they were added."""
    cases = [case for case in natural.load(name, (language,)) if case.text_id == text_id and case.defect is None]
    assert cases
    for case in cases:
        assert check_terms(GLOSSARY, case.source, case.translation, language).passed, case.translation
