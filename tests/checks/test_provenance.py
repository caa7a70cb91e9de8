"""Provenance: the file a sentence takes its data from, exchanged with the file it predicts for (curation/checks/
provenance.py, reported by the roles check)."""

from __future__ import annotations

import pytest

from curation.checks.roles import check_roles

ENGLISH = "Predict the class of each tile in `test_tiles.csv` from the labelled tiles in `train_tiles.csv`."


@pytest.mark.parametrize("language, correct", [
    ("fr", "Prédisez la classe de chaque tuile de `test_tiles.csv` à partir des tuiles étiquetées de `train_tiles.csv`."),
    ("es", "Predice la clase de cada tesela de `test_tiles.csv` a partir de las teselas etiquetadas de `train_tiles.csv`."),
    ("ru", "Предскажите класс каждого тайла из `test_tiles.csv` по размеченным тайлам из `train_tiles.csv`."),
    ("zh", "根据 `train_tiles.csv` 中已标注的图块，预测 `test_tiles.csv` 中每个图块的类别。"),
    ("ja", "`train_tiles.csv` のラベル付きタイルから、`test_tiles.csv` の各タイルのクラスを予測してください。"),
    ("tr", "`train_tiles.csv` dosyasındaki etiketli karolardan yola çıkarak `test_tiles.csv` içindeki her karonun sınıfını "
           "tahmin edin."),
])
def test_files_exchanged_as_the_source_of_the_data_are_a_swap(language, correct):
    assert check_roles(ENGLISH, correct, language).passed
    swapped = correct.replace("test_tiles", "TMP").replace("train_tiles", "test_tiles").replace("TMP", "train_tiles")
    result = check_roles(ENGLISH, swapped, language)
    assert not result.passed and "takes the data from `test_tiles.csv`" in result.detail, result.detail


def test_files_named_together_share_their_marker():
    # calibration set 4b: "from `a` (...) and `b`", the Kazakh ablative only after the second file
    english = "The data come from `enrolments.parquet` (one row per learner) and `modules.csv`."
    kazakh = "Деректер `enrolments.parquet` (әр білім алушыға бір жол) және `modules.csv` файлдарынан алынады."
    assert check_roles(english, kazakh, "kk").passed


def test_a_column_grouped_by_is_no_source():
    # "по" is also "by": only files are compared
    english = "Aggregate `sales` by `store_id` from `daily.csv` and predict for `test.csv`."
    russian = "Агрегируйте `sales` по `store_id` из `daily.csv` и сделайте прогноз для `test.csv`."
    assert check_roles(english, russian, "ru").passed
