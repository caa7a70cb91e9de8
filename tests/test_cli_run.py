"""`curate run` as a newcomer runs it on the sample: every automatic stage, then the curator's next steps."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.store import Store
from tests.conftest import commands_on
from tests.fakes.sample_model import Plan, SampleModel
from tests.stages.test_translate import Translator

runner = CliRunner()


class Model:
    """Answers describe/score/refine/tag with the sample's texts as SampleModel does, and translate requests as
    Translator does: the careful translation of each of the sample's texts (every check passes it), unless a test
    scripts another answer for a text (`model.translator.script`)."""

    def __init__(self) -> None:
        self.writer = SampleModel(Plan.plain()).writer
        self.translator = Translator()

    def __call__(self, request):
        if request.user_text.startswith("Translate this"):
            return self.translator(request)
        return self.writer(request)


@pytest.fixture
def russian_project(project, llm_server, monkeypatch):
    """The sample project translating into Russian only, every provider on the fake server answering as Model does
    (real texts: careful translations that every check passes): the default configuration, adequacy and meaning
    checks on. Russian, since its checks take milliseconds a text (e5's languages, Kazakh among them, take a second)."""
    llm_server.respond_with(Model())
    return commands_on(project, llm_server, monkeypatch, "ru")


def test_run_chains_the_automatic_stages_and_says_what_comes_next(russian_project, llm_server) -> None:
    project = russian_project

    result = runner.invoke(app, ["run"], env={"COLUMNS": "200"})

    assert result.exit_code == 0, result.output
    assert "7 competitions from" in result.output
    assert "describe: 7 done, 0 failed" in result.output
    assert "tag: 7 done, 0 failed" in result.output
    assert "translate:ru: 21 done, 0 failed" in result.output
    assert "`curate review pull`" in result.output and "curate publish --version 1.0.0" in result.output
    assert (project / "review" / "ru").is_dir() and any((project / "review" / "ru").glob("*.xlsx"))
    with Store(project / "data" / "curation.sqlite") as store:
        assert len(store.translations("ru")) == 21
        assert len(store.pushed_rows()) >= 21

    calls = llm_server.count()
    again = runner.invoke(app, ["run"], env={"COLUMNS": "200"})
    assert again.exit_code == 0, again.output
    assert llm_server.count() == calls  # a rerun of finished stages sends nothing


def test_a_rerun_with_nothing_to_translate_starts_no_checks_process(russian_project) -> None:
    # It used to be started, and every target's models loaded (875 MiB at 500 competitions), before ingest.
    from curation.checks import off_loop

    off_loop._stop()  # none left by an earlier test
    assert runner.invoke(app, ["run"]).exit_code == 0
    assert off_loop._pool is not None  # the translations were checked in it
    off_loop._stop()  # as when that run's process exited

    again = runner.invoke(app, ["run"])
    translate = runner.invoke(app, ["translate"])

    assert again.exit_code == 0, again.output
    assert translate.exit_code == 0, translate.output
    assert off_loop._pool is None


def test_run_again_after_merge_retranslates_what_a_reviewer_rejected_and_pushes_it(russian_project, llm_server) -> None:
    project = russian_project
    from tests.review.seeding import fill

    assert runner.invoke(app, ["run"]).exit_code == 0
    workbook = project / "review" / "ru" / "ru-annotator-1.xlsx"
    fill(workbook, "domain", "titanic/domain/ru", verdict="NO and NO", comment="not the usual term")
    assert runner.invoke(app, ["review", "pull", "--lang", "ru"]).exit_code == 0
    assert "1 retranslate" in runner.invoke(app, ["merge", "--lang", "ru"]).output
    llm_server.reset()

    second = runner.invoke(app, ["run"], env={"COLUMNS": "200"})

    assert second.exit_code == 0, second.output
    assert "translate:ru: 1 done, 0 failed" in second.output
    assert len(llm_server.requests) == 1 and "not the usual term" in llm_server.requests[0].user_text
    assert "ru annotator-1: " in second.output and "1 added, 0 updated" in second.output
    assert "`curate run` again" in second.output


def test_run_without_a_key_stops_at_describe_with_what_to_set(project) -> None:
    result = runner.invoke(app, ["run"])

    assert result.exit_code == 2
    assert "7 competitions from" in result.output  # ingest ran
    assert "OPENAI_API_KEY" in result.output and "stopped at describe" in result.output
    assert "Traceback" not in result.output


def test_a_dead_server_is_one_line_without_key_hints(project, monkeypatch) -> None:
    from tests.llm.test_unreachable import closed_port

    url = f"http://127.0.0.1:{closed_port()}/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    assert runner.invoke(app, ["ingest"]).exit_code == 0

    result = runner.invoke(app, ["describe"])

    assert result.exit_code == 2
    assert f"error: cannot reach {url} (connection refused; 3 attempts)" in result.output
    assert "needs ANTHROPIC_API_KEY" not in result.output  # a key hint would send the curator the wrong way
