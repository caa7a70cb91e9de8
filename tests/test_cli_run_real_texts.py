"""`curate run` on the sample in the default configuration — all 12 target languages, every check, adequacy included —
against a fake provider that answers with real translations (tests/fakes/sample_model.py): broken first answers
are retried, correct ones are kept however they are phrased, no item fails, and the review sheets mark only the
texts that are still broken."""

from __future__ import annotations

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from curation.cli import app
from curation.store import Store
from tests.checks import natural
from tests.fakes.sample_model import SampleModel

runner = CliRunner()


@pytest.fixture
def model(project, llm_server, monkeypatch):
    model = SampleModel()
    llm_server.respond_with(model)
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)
    return model


def flagged_rows(project) -> set[tuple[str, str]]:
    """(language, item id) of every row whose 'Check failed' cell says something, over all review workbooks."""
    found = set()
    for workbook_path in (project / "review").glob("*/*-annotator-1.xlsx"):
        workbook = load_workbook(workbook_path, read_only=True)
        for sheet in workbook.worksheets:
            rows = list(sheet.iter_rows(values_only=True))
            header = next((number for number, row in enumerate(rows) if "Item id" in row and "Check failed" in row), None)
            if header is None:
                continue
            item, check = rows[header].index("Item id"), rows[header].index("Check failed")
            found |= {(workbook_path.parent.name, row[item]) for row in rows[header + 1:] if row[item] and row[check]}
    return found


def test_the_default_run_keeps_good_translations_retries_broken_ones_and_fails_nothing(project, model, llm_server):
    result = runner.invoke(app, ["run"], env={"COLUMNS": "200"})

    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    texts = natural.sources("calibration")
    field_of = {"description": "description", "data_card": "data_card", "domain": "domain"}
    plan = model.plan
    with Store(project / "data" / "curation.sqlite") as store:
        for language in natural.LANGUAGES:
            assert f"translate:{language}: 21 done, 0 failed" in result.output
            stored = {(t.competition, t.field): t for t in store.translations(language=language)}
            assert len(stored) == 21
            for text_id, text in texts.items():
                translation = stored[text["competition"], field_of[text["kind"]]]
                kind = plan.kinds[language, text_id]
                where = f"{language} {text_id} ({kind})"
                if kind == "always broken":
                    assert translation.flagged and translation.attempts == 3, where
                    continue
                assert translation.text == plan.final(language, text_id), where
                assert not translation.flagged, (where, [c.line() for c in translation.checks if not c.passed])
                assert translation.attempts == (2 if kind == "broken first" else 1), where
    # Each broken first answer was sent back once, with its failures in the prompt; nothing was asked a fourth time.
    retried = {(language, text_id) for language, text_id, attempt in model.asked if attempt == 2}
    assert retried == {key for key, kind in plan.kinds.items() if kind in ("broken first", "always broken")}
    assert max(attempt for _, _, attempt in model.asked) == 3
    # The annotators' sheets mark exactly the texts that are still broken.
    ids = {f"{text['competition']}/{field_of[text['kind']]}/{language}": (language, text_id)
           for language in natural.LANGUAGES for text_id, text in texts.items()}
    marked = {ids[item] for _, item in flagged_rows(project) if item in ids}
    assert marked == {key for key, kind in plan.kinds.items() if kind == "always broken"}


def test_a_batch_run_sends_one_batch_a_round_however_long_the_checks_take(project, model, llm_server):
    # Before, a translate round's retries went out in a batch of their own whenever 0.2 s passed without a new
    # request while other items were still in their checks: 47 batches, most of one or two requests, and 177 lines
    # on stderr. Now a round's batch waits until every item waits on a batch or has ended.
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("[llm]\n", "[llm]\nbatch_poll_seconds = 0.01\n", 1),
                    encoding="utf-8")
    result = CliRunner().invoke(app, ["run", "--batch", "--lang", "kk,fr,ja"], env={"COLUMNS": "200"})

    assert result.exit_code == 0, result.output
    for language in ("kk", "fr", "ja"):
        assert f"translate:{language}: 21 done, 0 failed" in result.output
    with Store(project / "data" / "curation.sqlite") as store:
        batches = [tuple(row) for row in store.db.execute("SELECT id, model FROM llm_batches ORDER BY id")]
        calls = store.llm_calls()
    [tag_batch] = [number for number, batch_model in batches if batch_model == "gpt-5.4-mini-2026-03-17"]
    translate_batches = [number for number, _ in batches if number > tag_batch]
    retried = sum(1 for call in calls if call.role == "translate") > 63  # the fake's broken first answers
    assert retried and 2 <= len(translate_batches) <= 3  # a first round and the retries' rounds (max_attempts = 3)
    assert len(batches) - len(translate_batches) <= 4  # describe (describe, score, a refine round), tag
    assert len(result.stderr.splitlines()) < 40, result.stderr
    assert "with 1 requests" not in result.stderr


def test_with_qe_on_good_translations_are_kept_and_what_only_word_lists_doubt_is_left_to_the_reviewer(
        project, model, llm_server):
    # The same run with `qe = "auto"` for two languages: the reviewing model (another vendor's) reads every text the
    # automatic checks passed or only the word-list checks doubted, finds nothing in the correct ones and one error in
    # each answer broken on purpose; no good translation is retried because of it.
    config = project / "curate.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('# qe = "auto"', 'qe = "auto"', 1), encoding="utf-8")
    result = runner.invoke(app, ["run", "--lang", "be,fr"], env={"COLUMNS": "200"})

    assert result.exit_code == 0, result.output
    texts = natural.sources("calibration")
    field_of = {"description": "description", "data_card": "data_card", "domain": "domain"}
    with Store(project / "data" / "curation.sqlite") as store:
        for language in ("be", "fr"):
            assert f"translate:{language}: 21 done, 0 failed" in result.output
            stored = {(t.competition, t.field): t for t in store.translations(language=language)}
            for text_id, text in texts.items():
                translation = stored[text["competition"], field_of[text["kind"]]]
                kind, where = model.plan.kinds[language, text_id], f"{language} {text_id}"
                if kind == "always broken":
                    assert translation.flagged, where
                    continue
                assert translation.text == model.plan.final(language, text_id), where
                assert not translation.flagged and translation.checks[-1].name == "qe", where
                assert translation.attempts == (2 if kind == "broken first" else 1), where
                assert all(check.name in ("meaning", "terms", "roles") for check in translation.checks
                           if check.overruled), where
    assert any(request.api == "anthropic" and "reviewer of translations" in request.system_text
               for request in llm_server.requests)
