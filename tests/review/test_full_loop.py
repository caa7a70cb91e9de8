"""The whole review loop on the sample: translate -> push -> fill -> pull -> merge -> report, and a second round.

An annotator fixes one description herself (it lands in the final text as native_fix) and rejects one data card
without a version (it goes back to translate with her comment, comes back retranslated, and is judged again).
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
from typer.testing import CliRunner

from curation.cli import app
from curation.llm import LLM
from curation.review.statistics import review_statistics
from curation.stages.translate import translate_languages
from curation.store import Store
from tests.review.seeding import fill, seed_sample_sources
from tests.stages.test_translate import Translator

COMMENT = "Названия столбцов переведены неверно"


def curate(*args: str):
    result = CliRunner().invoke(app, list(args))
    return result


async def translate(settings, language="ru"):
    with Store(settings.path("store")) as store:
        async with LLM(settings, store, stage="translate") as llm:
            [(_, summary)] = await translate_languages(store, settings, llm, [language])
    assert summary.complete, summary.lines()


def answer_all(path: Path, verdict: str = "YES and YES") -> None:
    """The annotator answers every row she has not answered yet."""
    book = openpyxl.load_workbook(path)
    for tab in ("description", "data_card", "domain"):
        sheet = book[tab]
        for row in range(2, sheet.max_row + 1):
            if sheet.cell(row, 1).value and not sheet.cell(row, 5).value:
                sheet.cell(row, 5).value = verdict
    book.save(path)


async def test_translate_push_fill_pull_merge_report_and_a_second_round(project, llm_settings, llm_server):
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        '[review.annotators]\n', '[review.annotators]\nru = ["olga"]\n'), encoding="utf-8")
    assert curate("ingest").exit_code == 0
    seed_sample_sources(project)
    with Store(llm_settings.path("store")) as store:
        slugs = [c.competition for c in store.competitions()]
    llm_server.respond_with(Translator())
    await translate(llm_settings)

    pushed = curate("review", "push", "--lang", "ru")
    assert pushed.exit_code == 0, pushed.output
    workbook = project / "review" / "ru" / "ru-olga.xlsx"
    assert f"ru olga: {workbook.relative_to(project)}" in pushed.output.replace(str(project) + "/", "")
    with Store(llm_settings.path("store")) as store:
        machine = store.translation("titanic", "description", "ru").text
    fix = machine.rstrip(".") + " и внимательно проверьте результаты."
    fill(workbook, "description", "titanic/description/ru", verdict="NO and YES", own_version=fix)
    fill(workbook, "data_card", "titanic/data_card/ru", verdict="NO and NO", comment=COMMENT)
    answer_all(workbook)

    pulled = curate("review", "pull", "--lang", "ru")
    assert pulled.exit_code == 0, pulled.output
    judged = 3 * len(slugs)
    assert f"ru: {judged} new verdicts" in pulled.output
    assert "note: ru-olga.xlsx tab 'data_card' row" in pulled.output and "without your version" in pulled.output
    assert len(list((project / "annotations" / "ru").glob("*-olga.csv"))) == 1

    merged = curate("merge", "--lang", "ru")
    assert merged.exit_code == 0, merged.output
    assert f"ru: {judged - 2} keep, 1 fix, 1 retranslate" in merged.output
    with Store(llm_settings.path("store")) as store:
        finals = {(f.competition, f.field): f for f in store.final_texts("ru")}
        assert (finals[("titanic", "description")].text, finals[("titanic", "description")].provenance) == (fix, "native_fix")
        assert ("titanic", "data_card") not in finals
        [request] = store.open_requests("retranslate", language="ru")
        assert request["feedback"] == f"NO and NO: {COMMENT}"

    # round 2: translate redoes the data card with the comment in its prompt; it goes back to the annotator
    llm_server.reset()
    await translate(llm_settings)
    assert len(llm_server.requests) == 1 and COMMENT in llm_server.requests[0].user_text
    with Store(llm_settings.path("store")) as store:
        again = store.translation("titanic", "data_card", "ru")
        assert (again.provenance, again.round) == ("retranslated", 2)
    repushed = curate("review", "push", "--lang", "ru")
    assert "1 added, 0 updated" in repushed.output and "1 filled rows kept" in repushed.output
    rows = [row for row in openpyxl.load_workbook(workbook)["data_card"].iter_rows(min_row=2, values_only=True) if row[0]]
    assert [row[0] for row in rows if row[0].startswith("titanic/")] == ["titanic/data_card/ru", "titanic/data_card/ru #2"]
    answer_all(workbook)
    assert "ru: 1 new verdict," in curate("review", "pull", "--lang", "ru").output
    assert f"ru: {judged - 1} keep, 1 fix" in curate("merge", "--lang", "ru").output

    with Store(llm_settings.path("store")) as store:
        final = next(f for f in store.final_texts("ru") if (f.competition, f.field) == ("titanic", "data_card"))
        assert (final.provenance, final.text) == ("retranslated", again.text)
        assert store.open_requests("retranslate") == []
        stats = review_statistics(store, "ru")
        assert stats.items == judged and stats.open_items == 0
        assert stats.share_fixed == 1 / judged

    reported = curate("report")
    assert reported.exit_code == 0, reported.output
    text = (project / "reports" / "review.md").read_text(encoding="utf-8")
    assert f"| Russian (ru) | {judged} |" in text
    assert (project / "reports" / "verdicts_by_language.png").exists()
