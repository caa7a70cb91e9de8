"""How the checks cut a text into blocks: a list item written as a phrase, with no full stop, does not take the next
paragraph's first sentence with it; a list item wrapped onto the next line is still one block."""

from __future__ import annotations

from curation.checks.adequacy import check_adequacy
from curation.checks.segments import blocks

ENGLISH = ("Predict whether a product will run out of stock during the coming week. Two files are provided:\n"
           "- `stock_history.parquet`: inventory snapshots taken every 6 hours;\n"
           "- `deliveries.csv`: planned replenishments per warehouse.\n"
           "Scoring uses macro F1 over the two classes; a higher score is better. "
           "Never use snapshots taken after the forecast cutoff.")
JAPANESE = ("来週中に商品が在庫切れになるかどうかを予測してください。次の二つのファイルが提供されます。\n"
            "- `stock_history.parquet`：6 時間ごとに取得された在庫スナップショット\n"
            "- `deliveries.csv`：倉庫ごとの補充計画\n"
            "評価には二つのクラスに対する macro F1 を用い、スコアが高いほど良い結果です。"
            "予測のカットオフ時点より後に取得されたスナップショットは決して使用しないでください。")
POLISH = ("Przewidź, czy produktu zabraknie w magazynie w nadchodzącym tygodniu. Dostępne są dwa pliki:\n"
          "- `stock_history.parquet`: stany magazynowe co 6 godzin\n"
          "- `deliveries.csv`: planowane dostawy dla każdego magazynu\n"
          "Wynik to macro F1 dla obu klas; im wyższy, tym lepiej. "
          "Nigdy nie używaj stanów zapisanych po dacie odcięcia prognozy.")


def test_a_list_item_without_a_full_stop_ends_at_its_line():
    for text in (JAPANESE, POLISH):
        kinds = [(block.kind, block.text[:12]) for block in blocks(text)]
        assert [kind for kind, _ in kinds] == ["text", "item", "item", "text"], kinds
    assert [block.kind for block in blocks(ENGLISH)] == ["text", "item", "item", "text"]


def test_a_list_item_wrapped_onto_the_next_line_is_one_block():
    lazy = "- `Pclass`: the ticket class of\nthe passenger, 1 to 3\nSurvival is the target."
    indented = "- `Pclass`: the ticket class of the passenger,\n  1 for first class, 3 for third\nSurvival is the target."
    assert [block.text for block in blocks(lazy)] == ["- `Pclass`: the ticket class of the passenger, 1 to 3",
                                                      "Survival is the target."]
    assert [block.text for block in blocks(indented)][0].endswith("1 for first class, 3 for third")
    assert len(blocks(indented)) == 2


def test_the_sentence_after_a_phrase_item_is_aligned_with_its_english_one():
    for language, text in (("ja", JAPANESE), ("pl", POLISH)):
        result = check_adequacy(ENGLISH, text, language)
        assert result.passed, (language, result.detail)
