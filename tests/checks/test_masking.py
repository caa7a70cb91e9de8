"""Masking protected spans: what is protected, and that placeholders come back exactly in every script."""

from __future__ import annotations

import pytest

from curation.checks.masking import mask_identifiers, placeholder_numbers, protected_spans, restore_identifiers
from curation.languages import LANGUAGES

DATA_CARD = (
    "Files: `train.csv`, test.csv and sample_submission.csv (see https://www.kaggle.com/c/titanic/data).\n"
    "Images are .jpg files under train_images/, each about 2 MB; 10% are blank.\n"
    "The target is SalePrice; isFraud marks fraud. Scored with RMSLE, or roc_auc, or MAP@5; prize $10,000.\n"
    "```python\nprint(df.head())\n```"
)


def test_every_kind_of_identifier_is_protected():
    spans = protected_spans(DATA_CARD)
    for expected in ("`train.csv`", "test.csv", "sample_submission.csv", "https://www.kaggle.com/c/titanic/data", ".jpg",
                     "train_images/", "2 MB", "10%", "SalePrice", "isFraud", "RMSLE", "roc_auc", "MAP@5", "$10,000",
                     "```python\nprint(df.head())\n```"):
        assert expected in spans, expected


def test_prose_words_stay_translatable():
    spans = protected_spans("Predict the target for each eCommerce order in the text; Survived passengers count.",
                            names=["target", "text", "Survived"])
    # lowercase names are ordinary words unless backticked; the capitalized column name is protected
    assert spans == ["Survived"]
    assert protected_spans("Use the `target` column.", names=["target"]) == ["`target`"]


def test_restore_is_exact():
    masked = mask_identifiers(DATA_CARD, names=["SalePrice"])
    assert "⟦1⟧" in masked.text and "train.csv" not in masked.text
    assert placeholder_numbers(masked.text) == list(range(1, len(masked.spans) + 1))
    assert restore_identifiers(masked.text, masked.spans) == DATA_CARD


SAMPLES = {
    "ar": "تنبأ بقيمة", "be": "Прадкажыце значэнне", "zh": "预测每个", "en": "Predict the", "ru": "Предскажите значение",
    "fr": "Prédisez la", "it": "Prevedi il", "ja": "予測してください", "kk": "Болжаңыз мәнін", "pl": "Przewidź wartość",
    "ro": "Preziceți valoarea", "es": "Predice el", "tr": "Tahmin edin", "uk": "Передбачте значення",
}


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_placeholders_survive_every_script(code):
    source = "Predict `SalePrice` from train.csv using RMSLE."
    masked = mask_identifiers(source)
    words = SAMPLES[code]
    # glued to the script's letters without spaces, spaced, and mangled the ways models mangle them
    translated = f"{words}⟦1⟧{words} ⟦ 2 ⟧ {words}⟦٣⟧."
    restored = restore_identifiers(translated, masked.spans)
    assert restored == f"{words}`SalePrice`{words} train.csv {words}RMSLE."
    if LANGUAGES[code].script != "Latin":  # glued to another script's letters, identifiers are still found
        assert protected_spans(restored) == ["`SalePrice`", "train.csv", "RMSLE"]
    # full-width digits as CJK input methods write them, CJK look-alike brackets, direction marks in RTL text
    assert restore_identifiers("⟦１⟧〚2〛⟦\u200f3\u200f⟧", masked.spans) == "`SalePrice`train.csvRMSLE"


def test_masking_a_translation_does_not_eat_neighbouring_letters():
    masked = mask_identifiers("Набор данных: `train.csv` и `test.csv`.")
    assert masked.text == "Набор данных: ⟦1⟧ и ⟦2⟧."
    glued = restore_identifiers("数据集⟦1⟧和⟦2⟧。", masked.spans)
    assert glued == "数据集`train.csv`和`test.csv`。"


def test_unknown_placeholders_are_left_for_the_checks():
    masked = mask_identifiers("Predict `y`.")
    assert restore_identifiers("Предскажите ⟦1⟧ и ⟦7⟧.", masked.spans) == "Предскажите `y` и ⟦7⟧."
