"""Failed checks in the annotator's words: a plain sentence for every check, the damaged identifier named."""

from __future__ import annotations

import pytest

from curation.checks.numbers import check_numbers
from curation.checks.placeholders import check_placeholders
from curation.checks.translation import CHECKS, check_length, check_script
from curation.records import CheckResult
from curation.review.explanations import check_cell, explain, refusal

SOURCE = "Predict `Survived` for each passenger in train.csv. Use a threshold of 0.5 on the predicted probability."


@pytest.mark.parametrize("name", [*CHECKS, "qe"])
def test_every_check_has_its_own_sentence_even_without_a_detail(name):
    said = explain(name, "", "kk")
    assert "did not pass" not in said and name not in said.split()  # the sentence, not the check's name
    assert len(said.split()) >= 5


def test_a_changed_identifier_is_named_with_how_often_it_must_appear():
    result = check_placeholders(SOURCE, "Әр жолаушы үшін survived болжаңыз, train.csv. Табалдырық 0.5.")
    assert not result.passed
    assert explain(result.name, result.detail, "kk") == (
        "the identifier `Survived` must stay exactly as written and appear once, as in the English; the translation has it nowhere")
    doubled = check_placeholders(SOURCE, "`Survived` `Survived` болжаңыз, train.csv. Табалдырық 0.5.")
    assert "the identifier `Survived` must stay exactly as written and appear once" in explain("placeholders", doubled.detail, "kk")
    assert "has it twice" in explain("placeholders", doubled.detail, "kk")


def test_a_reformatted_number_is_named_with_how_it_was_written():
    result = check_numbers(SOURCE, "`Survived` болжаңыз, train.csv. Табалдырық 0,5.")
    said = explain(result.name, result.detail, "kk", subject="your version")
    assert said == ("the number 0.5 must stay written exactly so and appear at least once, as in the English; your "
                    "version has it nowhere (it writes 0,5)")


def test_length_problems_say_what_may_be_missing(settings):
    cut = check_length(SOURCE, "`Survived` болжаңыз.", "kk", settings)
    assert explain(cut.name, cut.detail, "kk") == "much shorter than the English: the end or a part may be missing"
    padded = check_length("A short English sentence to translate here.",
                          "Мұнда аударылатын өте ұзын, ұзын, ұзын, ұзын, ұзын, ұзын, ұзын, ұзын, ұзын, ұзын, ұзын "
                          "қазақша сөйлем бар, және тағы бір рет қайталанады.", "kk", settings)
    assert "much longer than the English" in explain(padded.name, padded.detail, "kk")


def test_traditional_chinese_is_named_as_such():
    result = check_script("預測每個乘客是否倖存。", "zh")
    assert not result.passed
    assert explain(result.name, result.detail, "zh") == "it uses traditional Chinese characters: write simplified ones"


def test_the_check_cell_has_one_sentence_per_check_and_says_a_yes_cannot_publish_a_damaged_identifier():
    cell = check_cell([CheckResult(name="length", passed=False,
                                   detail="length ratio 0.31 outside 0.60-1.90 (cut short?)"),
                       CheckResult(name="placeholders", passed=False,
                                   detail="'train.csv' appears 0 times, the source has 1")], "kk")
    assert cell.split("\n") == [
        "Much shorter than the English: the end or a part may be missing.",
        "The identifier train.csv must stay exactly as written and appear once, as in the English; the translation has it nowhere; "
        "a YES cannot publish it, so correct it in 'Your version'.",
    ]
    qe = check_cell([CheckResult(name="qe", passed=False,
                                 detail="omission (major): 'from their age' — The features are missing.")], "be")
    assert qe == ("A second model reading the translation found something of the English left out (serious), 'from "
                  "their age': The features are missing.")


def test_a_check_without_a_detail_gets_its_sentence_and_its_line_is_its_name():
    bare = CheckResult(name="length", passed=False)
    assert bare.line() == "length"
    found = CheckResult(name="qe", passed=False, detail="omission (minor): 'x' — y")
    assert found.line() == "qe: omission (minor): 'x' — y"
    assert check_cell([bare], "kk") == "Much shorter or longer than the English: something may be missing or added."


def test_adequacy_says_missing_or_added():
    assert explain("adequacy", "omitted: English line 1 'Use 0.5.' is not in the translation (closest 0.20, needs "
                               "0.45)", "kk") == "a sentence of the English seems to be missing"
    assert "to say something the English does not" in explain("adequacy", "added: line 2 'Тағы' matches no English "
                                                                         "sentence (closest 0.1, needs 0.4)", "kk")


def test_a_condition_left_out_names_its_english_words_and_the_line():
    detail = ("condition: line 3 'Не учитывайте текстовые заметки.' leaves out 'unless they are written in English' of "
              "English line 3 (it reads closer to the English without it: +0.19)")
    assert explain("adequacy", detail, "ru") == ("a condition seems left out: the English says 'unless they are written "
                                                 "in English', the translation (line 3) seems to say nothing for it")
    both = "omitted: English line 1 'Use 0.5.' is not in the translation (closest 0.20, needs 0.45); " + detail
    assert explain("adequacy", both, "ru").startswith("a sentence of the English seems to be missing; a condition seems")


def test_a_refusal_speaks_of_your_version():
    said = refusal([CheckResult(name="placeholders", passed=False,
                                detail="'`Survived`' appears 2 times, the source has 1")], "kk")
    assert said == "the identifier `Survived` must stay exactly as written and appear once, as in the English; your version has it twice"


def test_a_language_mix_up_names_the_language_it_reads_as():
    assert explain("language", "line 2 'Бұл мәтін' reads as Russian (0.81), Kazakh only 0.12", "kk") == (
        "some of it reads like Russian rather than Kazakh: check that every sentence is natural Kazakh")
    assert explain("language", "the text reads more as Belarusian than as Russian (Russian 0.31 of the two, minimum "
                               "0.6)", "ru").startswith("some of it reads like Belarusian rather than Russian")
    assert explain("language", "line 1 '数据' has no kana: Chinese, not Japanese", "ja").startswith(
        "some of it reads like Chinese rather than Japanese")


def test_a_foreign_alphabet_is_named():
    assert explain("script", "37% of the letters are not Cyrillic (Latin 19 of 51); at most 15% allowed", "kk") == (
        "too many letters are not Cyrillic (here Latin): a word may be left untranslated or transliterated")
    assert explain("language", "no text in the Cyrillic script to read as Kazakh", "kk").startswith(
        "there is no Kazakh text in it")


def test_a_rule_broken_for_many_identifiers_is_said_once_and_lists_them():
    # A version that lost 19 identifiers used to get the same sentence 19 times (a 2,554-character line in pull).
    names = [f"`col_{n}`" for n in range(19)]
    source = "Use " + ", ".join(names) + " from train.csv."
    result = check_placeholders(source, "Бағандарды train.csv файлынан пайдаланыңыз.")
    said = refusal([result], "kk")
    assert said.count("must stay exactly as written") == 1
    assert said.startswith("these identifiers must stay exactly as written and appear as often as in the English: ")
    assert "`col_0`, `col_1`" in said and "`col_7` (once in the English; has it nowhere) and 11 more" in said
    assert len(said) < 250
    numbers = check_numbers("Use 0.5, 0.25 and 0.75.", "0,5, 0,25 және 0,75 пайдаланыңыз.")
    said = explain(numbers.name, numbers.detail, "kk", subject="your version")
    assert said.count("must stay written exactly so") == 1 and "0.25 (once in the English; has it nowhere (it writes 0,25))" in said
    assert said.startswith("these numbers must stay written exactly so")
