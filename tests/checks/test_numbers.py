"""Numbers are protected spans: same value, same characters, at least as often as in the source."""

from __future__ import annotations

import pytest

from curation.checks.numbers import check_numbers

SOURCE = "The 28x28 images: 42000 for training, a threshold of 0.5, recorded in 2011 over 48 hours."
RU = "Изображения 28x28: 42000 для обучения, порог 0.5, записаны в 2011 году за 48 часов."


def test_every_number_kept_as_written_passes():
    assert check_numbers(SOURCE, RU).passed


@pytest.mark.parametrize("old,new", [("0.5", "0,5"), ("42000", "42 000"), ("42000", "42\u202f000"),
                                     ("28x28", "28×28"), ("28x28", "28 x 28"), ("28x28", "28х28"),
                                     ("2011", "٢٠١١"), ("48", "４８")])
def test_a_localized_number_is_damaged_and_named(old, new):
    result = check_numbers(SOURCE, RU.replace(old, new))
    assert not result.passed
    assert result.detail == (f"{old} appears 0 times, the source has 1 (written {new!r}: keep numbers exactly as "
                             "in the source)")


@pytest.mark.parametrize("dropped", ["42000 ", " 2011 году", "48 "])
def test_a_dropped_count_year_or_number_of_hours_is_caught(dropped):
    result = check_numbers(SOURCE, RU.replace(dropped, " "))
    assert not result.passed and "appears 0 times, the source has 1" in result.detail


def test_an_extra_harmless_numeral_and_numbers_as_words_pass():
    # Japanese writes "one digit" as 1つ and "two files" as 2つ: numerals the source wrote as words.
    source = "The archive holds two CSV files. For every image, predict one digit from 0 to 9."
    ja = "アーカイブには2つのCSVファイルがあります。各画像について、0から9までの数字を1つ予測してください。"
    assert check_numbers(source, ja).passed
    assert check_numbers("Predict two values.", "Предскажите два значения.").passed


def test_a_number_the_source_has_twice_must_come_back_twice():
    result = check_numbers("From 0 to 9 and from 0 to 255.", "От 0 до 9 и от до 255.")
    assert result.detail == "0 appears 1 time, the source has 2"


def test_numbers_inside_identifiers_and_glued_to_letters():
    # F1 and `pixel0` are identifiers (the placeholders check's); 2012 glued to Arabic و is still 2012.
    assert check_numbers("The F1 score of `pixel0`.", "Оценка F1 для `pixel0`.").passed
    assert check_numbers("In 2011 and 2012.", "في عامي 2011 و2012.").passed
    assert check_numbers("Covers 2011.", "涵盖2011年。").passed
    assert not check_numbers("A date: 2011-01-20.", "Дата: 20.01.2011.").passed


@pytest.mark.parametrize("source, translation", [
    ("Use the years 2019-2021.", "使用 2019—2021 年的数据。"),
    ("Deliveries take 3-5 days.", "Доставка занимает от 3 до 5 дней."),
    ("Scores of 1-5 stars, 5 the best.", "Note de 1 à 5 étoiles, 5 étant la meilleure."),
])
def test_a_range_said_with_both_its_ends_joined_another_way_passes(source, translation):
    assert check_numbers(source, translation).passed


@pytest.mark.parametrize("source, translation", [
    ("Use the years 2019-2021.", "使用 2019 年的数据。"),  # an end missing
    ("Scores of 1-5 stars, 5 the best.", "Note de 1 à 5 étoiles, la meilleure."),  # the other 5 missing
    ("Recorded on 2011-01-20.", "Enregistré le 20 01 2011."),  # a date is no range
    ("In 2011-01.", "En 01 2011."),  # nor a month
])
def test_a_range_with_an_end_missing_and_a_date_split_are_still_caught(source, translation):
    assert not check_numbers(source, translation).passed


@pytest.mark.parametrize("translation, passes", [
    ("- `feed_kg`: сухое вещество за сутки (8.5-27.0 кг)", True),  # the unit in the target's letters leaves it unmasked
    ("- `feed_kg`: сухое вещество за сутки (от 8.5 до 27.0 кг)", True),
    ("- `feed_kg`: сухое вещество за сутки (9.5-27.0 кг)", False),
    ("- `feed_kg`: сухое вещество за сутки (8,5-27,0 кг)", False),
])
def test_a_range_of_decimals_is_read_with_both_its_ends(translation, passes):
    source = "- `feed_kg`: dry matter eaten per day (8.5-27.0 kg)"
    assert check_numbers(source, translation, ["feed_kg"]).passed is passes


def test_a_range_of_decimals_said_with_its_ends_apart_passes():
    assert check_numbers("Keep rates of 0.1-0.5 only.", "Оставьте только доли от 0.1 до 0.5.").passed


def test_a_negative_number_is_read_and_its_sign_may_be_a_typographic_minus():
    source = "Temperatures range from -25 to 40 degrees."
    assert not check_numbers(source, "Температура от 40 градусов.").passed  # -25 dropped
    assert check_numbers(source, "Температура от −25 до 40 градусов.").passed  # U+2212 minus
    assert check_numbers(source, "温度范围为-25至40度。").passed
    assert check_numbers("Ranges: 3-5 and 2011-01-20.", "Диапазоны: 3-5 и 2011-01-20.").detail == "2 number(s) intact"
