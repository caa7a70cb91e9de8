"""`curate merge`: final texts from verdicts, retranslation and redescribe requests, rubric rules, disagreements."""

from __future__ import annotations

from curation.records import RubricScore, Verdict
from curation.review.items import review_items, rubric_items
from curation.stages.merge import merge

from tests.review.seeding import KK, seed_translation, seeded  # noqa: F401  (fixture)

FIX = "Жолаушылардың қайсысы апаттан аман қалғанын `Survived` бағаны бойынша train.csv деректерінен болжаңыз."


def judge(store, item_id: str, annotator: str, verdict: str, fix: str = "", comment: str = "") -> None:
    item = next(i for i in review_items(store, item_id.split("/")[2]) if i.item_id == item_id)
    store.add_verdict(Verdict(item_id=item.item_id, competition=item.competition, field=item.field,
                              language=item.language, annotator=annotator, verdict=verdict, own_version=fix,
                              comment=comment, translation=item.text, translation_hash=item.translation_hash))


def finals(store, language="kk"):
    return {(f.competition, f.field): f for f in store.final_texts(language)}


def test_yes_keeps_the_machine_text_a_fix_wins_a_no_without_fix_goes_back(seeded, settings):
    judge(seeded, "titanic/description/kk", "aigerim", "YES and YES")
    judge(seeded, "titanic/data_card/kk", "aigerim", "NO and YES", fix="Түзетілген деректер картасы.")
    judge(seeded, "titanic/domain/kk", "aigerim", "YES and NO", comment="мағынасы басқа")

    [summary] = merge(seeded, settings, ["kk"])

    merged = finals(seeded)
    assert merged[("titanic", "description")].text == KK["description"]
    assert merged[("titanic", "description")].provenance == "machine"
    assert merged[("titanic", "data_card")].text == "Түзетілген деректер картасы."
    assert (merged[("titanic", "data_card")].provenance, merged[("titanic", "data_card")].verdict) == ("native_fix", "NO and YES")
    assert ("titanic", "domain") not in merged
    [request] = seeded.open_requests("retranslate", language="kk")
    assert (request["competition"], request["field"], request["feedback"]) == ("titanic", "domain", "YES and NO: мағынасы басқа")
    assert summary.counts == {"keep": 1, "fix": 1, "retranslate": 1, "open": 3}
    assert seeded.status("titanic", "merge:kk").status == "pending"

    # merging again changes nothing and asks nothing twice
    merge(seeded, settings, ["kk"])
    assert len(seeded.open_requests("retranslate", language="kk")) == 1

    # the retranslation comes back (round 2) and is judged YES: its provenance says it was retranslated
    seed_translation(seeded, "titanic", "domain", "kk", "деректер туралы ғылым", provenance="retranslated", round=2)
    seeded.resolve_requests("retranslate", "titanic", "domain", "kk")
    judge(seeded, "titanic/domain/kk", "aigerim", "YES and YES")
    merge(seeded, settings, ["kk"])
    assert finals(seeded)[("titanic", "domain")].provenance == "retranslated"
    assert seeded.status("titanic", "merge:kk").status == "done"


def test_two_annotators_disagreeing(seeded, settings):
    judge(seeded, "titanic/description/kk", "aigerim", "YES and YES")
    judge(seeded, "titanic/description/kk", "dana", "NO and YES", fix=FIX)  # a fix beats a YES
    judge(seeded, "titanic/data_card/kk", "aigerim", "YES and YES")
    judge(seeded, "titanic/data_card/kk", "dana", "NO and NO", comment="Pclass қате")  # a doubt asks a retranslation
    judge(seeded, "titanic/domain/kk", "aigerim", "NO and YES", fix="деректер туралы ғылым")
    judge(seeded, "titanic/domain/kk", "dana", "NO and YES", fix="дерек ғылымы")  # two fixes: the first pulled wins

    merge(seeded, settings, ["kk"])

    merged = finals(seeded)
    assert merged[("titanic", "description")].text == FIX
    assert ("titanic", "data_card") not in merged
    assert seeded.open_requests("retranslate", language="kk")[0]["feedback"] == "NO and NO: Pclass қате"
    assert merged[("titanic", "domain")].text == "деректер туралы ғылым"


def test_the_latest_answer_of_an_annotator_counts(seeded, settings):
    judge(seeded, "titanic/description/kk", "aigerim", "NO and NO")
    judge(seeded, "titanic/description/kk", "aigerim", "YES and YES")
    merge(seeded, settings, ["kk"])
    assert finals(seeded)[("titanic", "description")].provenance == "machine"
    assert seeded.open_requests("retranslate") == []


def score(store, competition: str, annotator: str, value: int, comment: str = "") -> None:
    item = next(i for i in rubric_items(store) if i.competition == competition)
    store.add_rubric_score(RubricScore(competition=competition, annotator=annotator, score=value, comment=comment,
                                       description_hash=item.translation_hash))


def test_rubric_rules(seeded, settings):
    from tests.review.seeding import seed_competition

    for slug in ("digit-recognizer", "nlp-getting-started"):
        seed_competition(seeded, slug)
    score(seeded, "titanic", "r1", 2)
    score(seeded, "titanic", "r2", 1, "target unclear")  # one apart: the lower
    score(seeded, "spaceship-titanic", "r1", 0, "wrong task")
    score(seeded, "spaceship-titanic", "r2", 2)  # two apart: open until a third annotator scores
    score(seeded, "digit-recognizer", "r1", 0, "no output format")
    score(seeded, "digit-recognizer", "r2", 1, "hints at a CNN")  # the lower is 0: back to describe
    score(seeded, "nlp-getting-started", "r1", 2)  # only one of two scores: open

    [summary] = merge(seeded, settings, ["en"])

    assert seeded.rubric_final() == {"titanic": 1, "digit-recognizer": 0}
    [request] = seeded.open_requests("redescribe")
    assert request["competition"] == "digit-recognizer"
    assert "r1: no output format" in request["feedback"] and "r2: hints at a CNN" in request["feedback"]
    assert any("spaceship-titanic" in line and "third annotator" in line for line in summary.open)
    assert any("nlp-getting-started" in line and "1 of 2" in line for line in summary.open)

    score(seeded, "spaceship-titanic", "r3", 1)
    merge(seeded, settings, ["en"])
    assert seeded.rubric_final()["spaceship-titanic"] == 1


def test_a_merged_text_is_withdrawn_when_its_translation_changes_or_the_verdict_turns(seeded, settings):
    from tests.review.seeding import seed_competition

    judge(seeded, "titanic/description/kk", "aigerim", "YES and YES")
    judge(seeded, "titanic/domain/kk", "aigerim", "YES and YES")
    merge(seeded, settings, ["kk"])
    assert {("titanic", "description"), ("titanic", "domain")} <= set(finals(seeded))

    judge(seeded, "titanic/description/kk", "aigerim", "NO and NO", comment="мүлде басқа")  # a changed mind
    seed_translation(seeded, "titanic", "domain", "kk", "дерек ғылымы")  # the domain was translated anew
    [summary] = merge(seeded, settings, ["kk"])

    assert not {("titanic", "description"), ("titanic", "domain")} & set(finals(seeded))
    assert summary.counts["withdrawn"] == 2
    assert "titanic/domain/kk: not judged yet" in summary.open

    score(seeded, "titanic", "r1", 2)
    score(seeded, "titanic", "r2", 2)
    merge(seeded, settings, ["en"])
    assert seeded.rubric_final() == {"titanic": 2}
    seed_competition(seeded, "titanic", description="A rewritten description of the task.")
    merge(seeded, settings, ["en"])
    assert seeded.rubric_final() == {}
