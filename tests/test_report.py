"""`curate report`: markdown figures and PNG plots from stored verdicts."""

from __future__ import annotations

from typer.testing import CliRunner

from curation.cli import app
from curation.records import Verdict
from curation.report import edit_rate
from curation.review.items import review_items
from curation.stages.merge import merge

from tests.review.seeding import KK, seed_competition, seed_translation, seeded  # noqa: F401  (fixture)

BE = {"description": "Прадкажыце, хто з пасажыраў выжыў, па слупку `Survived` у train.csv.",
      "data_card": "У train.csv адзін радок на пасажыра са слупкамі PassengerId, Pclass і Survived.",
      "domain": "навука пра даныя"}


def _judge(store, language, answers):
    for item, (annotator, verdict, fix) in zip(review_items(store, language), answers):
        store.add_verdict(Verdict(item_id=item.item_id, competition=item.competition, field=item.field,
                                  language=language, annotator=annotator, verdict=verdict,
                                  own_version=fix(item.text) if callable(fix) else fix,
                                  translation=item.text, translation_hash=item.translation_hash))


def test_edit_rate_counts_changed_characters_per_character_of_the_longer_text():
    assert edit_rate("abcd", "abXd") == 0.25
    # a short tag replaced by a longer phrase is at most a whole rewrite, never 243%
    assert edit_rate("", "new") == 1.0
    assert edit_rate("ML", "машинное обучение") == 1.0
    assert 0 < edit_rate("data", "data science") < 1


def test_report_writes_figures_and_plots(seeded, settings):
    for slug in ("titanic", "spaceship-titanic"):
        for field, text in BE.items():
            seed_translation(seeded, slug, field, "be", text)
    _judge(seeded, "kk", [("a", "YES and YES", ""), ("a", "NO and YES", lambda text: text[:-1] + "!"),
                          ("a", "YES and YES", ""), ("a", "NO and NO", ""), ("a", "YES and YES", "")])
    _judge(seeded, "be", [("b", "YES and YES", "")] * 6)
    _judge(seeded, "be", [("c", "YES and YES", ""), ("c", "NO and NO", "")])  # second annotator on two items
    merge(seeded, settings, ["kk", "be"])

    result = CliRunner().invoke(app, ["report"])
    assert result.exit_code == 0, result.output

    folder = settings.path("reports")
    for png in ("verdicts_by_language.png", "verdicts_by_field.png", "fixes.png"):
        assert (folder / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = (folder / "review.md").read_text(encoding="utf-8")
    kk = next(line for line in text.splitlines() if line.startswith("| Kazakh (kk)"))
    cells = [cell.strip() for cell in kk.strip("|").split("|")]
    # judged 5; shares 60/20/0/20; 1 of 4 merged texts fixed; one character changed of the data card; 1 open + 1 unjudged
    assert cells[1:6] == ["5", "60%", "20%", "0%", "20%"]
    assert cells[6] == "25%"
    assert cells[7] == f"{1 / len(KK['description']):.0%}"  # the fixed item is spaceship-titanic's description
    assert cells[-2:] == ["2", "0"]  # open; no text lacks a translation
    be = next(line for line in text.splitlines() if line.startswith("| Belarusian (be)"))
    cells = [cell.strip() for cell in be.strip("|").split("|")]
    assert cells[8:11] == ["2", "50%", "0.00"]
    assert "| kk | description | 50% | 50% | 0% | 0% |" in text
    assert "| kk | data_card | 50% | 0% | 0% | 50% |" in text
    assert "retranslations requested and not done yet: 2" in text


def test_report_without_verdicts_says_what_to_do(settings, store):
    result = CliRunner().invoke(app, ["report"])
    assert result.exit_code == 0
    assert "No verdicts pulled yet" in (settings.path("reports") / "review.md").read_text(encoding="utf-8")


def test_texts_without_a_translation_are_counted_and_listed_and_the_chart_counts_the_merged_fix(seeded, settings):
    # house-prices has English texts and only its description in Kazakh: its data card and domain have no
    # translation (translate failed on them), which review.md used to leave out while saying "open 0".
    seed_competition(seeded, "house-prices")
    seed_translation(seeded, "house-prices", "description", "kk", KK["description"])
    # Two annotators on titanic's domain: the first says YES, the second fixes it; merge takes the fix.
    [domain] = [item for item in review_items(seeded, "kk") if item.item_id == "titanic/domain/kk"]
    for annotator, verdict, fix in (("a", "YES and YES", ""), ("b", "NO and YES", "деректер туралы ғылым")):
        seeded.add_verdict(Verdict(item_id=domain.item_id, competition="titanic", field="domain", language="kk",
                                   annotator=annotator, verdict=verdict, own_version=fix, translation=domain.text,
                                   translation_hash=domain.translation_hash))
    merge(seeded, settings, ["kk"])

    assert CliRunner().invoke(app, ["report"]).exit_code == 0
    text = (settings.path("reports") / "review.md").read_text(encoding="utf-8")
    kk = next(line for line in text.splitlines() if line.startswith("| Kazakh (kk)"))
    assert kk.rstrip(" |").endswith("| 2")
    assert ("- kk: 2 texts without a translation to judge (failed or not translated yet; `curate status --lang kk` "
            "says why): house-prices/data_card/kk, house-prices/domain/kk") in text
    assert "| kk | domain | 0% | 100% | 0% | 0% |" in text  # the fix merged, not the first annotator's YES


def test_a_fix_that_replaces_a_glossary_term_is_counted_so_the_glossary_learns_from_review(seeded, settings):
    from curation.records import Translation

    english = "Models are ranked by their recall at a fixed precision of 0.9."
    machine = "Модели ранжируются по полноте при фиксированной точности 0.9."
    fixed = "Модели ранжируются по чувствительности при фиксированной точности 0.9."  # a glossary term replaced
    rephrased = "Модели упорядочены по полноте при точности, зафиксированной на 0.9."  # terms kept, words changed
    for slug, field, version in (("titanic", "description", fixed), ("titanic", "data_card", rephrased)):
        seeded.save_translation(Translation(competition=slug, field=field, language="ru", source_text=english,
                                            source_hash=f"src-{field}", text=machine, model="openai:gpt-4o",
                                            checks=[], flagged=False, provenance="machine", round=1))
        [item] = [i for i in review_items(seeded, "ru") if i.item_id == f"{slug}/{field}/ru"]
        seeded.add_verdict(Verdict(item_id=item.item_id, competition=slug, field=field, language="ru", annotator="a",
                                   verdict="YES and NO", own_version=version, translation=item.text,
                                   translation_hash=item.translation_hash))
    merge(seeded, settings, ["ru"])

    assert CliRunner().invoke(app, ["report"]).exit_code == 0
    text = (settings.path("reports") / "review.md").read_text(encoding="utf-8")
    section = text.split("## Glossary terms annotators changed", 1)[1].split("\n## ", 1)[0]
    # "чувствительность" is one of the glossary's own forms of recall too: a fix to another accepted form is no change
    assert "No annotator's fix replaced a glossary term's rendering." in section
    glossary = settings.path("glossary")
    glossary.write_text(glossary.read_text(encoding="utf-8").replace("полнота | чувствительность | recall",
                                                                     "полнота | recall"), encoding="utf-8")

    assert CliRunner().invoke(app, ["report"]).exit_code == 0
    text = (settings.path("reports") / "review.md").read_text(encoding="utf-8")
    assert "| ru | recall | полноте | чувствительности | 1 |" in text
