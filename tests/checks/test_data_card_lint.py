"""The data-card lint reports sentences about the submission format and the test files, and nothing else."""

from __future__ import annotations

from curation.checks.data_card_lint import lint_data_card, sentences

CARD = """The data describes residential homes in Ames, Iowa.
- train.csv holds one row per home with its sale price.
- test.csv holds the same columns without the price.
- data_description.txt explains every column.
The submission file must contain an Id and a SalePrice column. Prices are in US dollars."""


def test_card_lint_reports_whole_sentences_with_the_rule() -> None:
    findings = lint_data_card(CARD)
    assert [(f.rule, f.matched) for f in findings] == [
        ("test_files", "test.csv holds the same columns without the price."),
        ("submission_format", "The submission file must contain an Id and a SalePrice column."),
    ]


def test_card_about_the_data_only_is_clean() -> None:
    card = ("Each image is a 28x28 grayscale picture of a handwritten digit. train.csv has a label column and 784 "
            "pixel columns. Pixel values range from 0 to 255, higher meaning darker.")
    assert lint_data_card(card) == []


def test_test_folders_and_hidden_labels_are_reported() -> None:
    card = "Images are in train_images/ and test_images/. The hidden test labels are kept by the host."
    assert [f.rule for f in lint_data_card(card)] == ["test_files", "test_files"]


def test_file_names_do_not_split_sentences() -> None:
    assert sentences("Read train.csv first. Then the rest.") == ["Read train.csv first.", "Then the rest."]


def test_sample_cards_and_person_written_descriptions_are_clean() -> None:
    from tests.conftest import SAMPLE

    from curation.checks.description_lint import lint_description

    cards = sorted(SAMPLE.glob("*/data_card.md"))
    assert len(cards) >= 5, "the sample competitions under data/sample are missing"
    assert {card.parent.name: lint_data_card(card.read_text(encoding="utf-8")) for card in cards} == \
        {card.parent.name: [] for card in cards}
    descriptions = sorted(SAMPLE.glob("*/description.md"))
    assert {d.parent.name: lint_description(d.read_text(encoding="utf-8")) for d in descriptions} == \
        {d.parent.name: [] for d in descriptions}
