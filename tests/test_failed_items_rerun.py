"""A failed item whose model answered is answered from the cache on a rerun and fails the same way, at no cost
(issue 24, item 2): `curate costs`, `curate status` and `--dry-run` say so, and what makes the stage ask anew; a
failure whose call got no answer is asked again, and they say that instead."""

from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from curation.cli import app
from tests.conftest import commands_on
from tests.fakes.llm_server import bad_request
from tests.test_cli_run import Model


runner = CliRunner()


def curate(*args: str, width: int = 200):
    return runner.invoke(app, list(args), env={"COLUMNS": str(width)})


class RefusesDataCards(Model):
    """The Model of test_cli_run, except that every data card comes back as a refusal (or as `answer`)."""

    def __init__(self, answer=None) -> None:
        super().__init__()
        self.answer = answer

    def __call__(self, request):
        if request.user_text.startswith("Translate this data card") and "passenger" in request.user_text.lower():
            return self.answer or "I'm sorry, but I cannot translate this text."
        return super().__call__(request)


def russian(project, llm_server, monkeypatch, model) -> None:
    llm_server.respond_with(model)
    commands_on(project, llm_server, monkeypatch, "ru")
    toml = project / "curate.toml"  # no real provider's rate limit to wait out against the fake
    toml.write_text(re.sub(r"(?m)^(requests|tokens)_per_minute = \d+$", r"\1_per_minute = 100000000",
                           toml.read_text(encoding="utf-8")), encoding="utf-8")


def test_failures_from_cached_answers_are_said_to_fail_again_with_what_to_change(project, llm_server, monkeypatch):
    russian(project, llm_server, monkeypatch, RefusesDataCards())
    assert curate("run").exit_code == 1  # the data cards of titanic and spaceship-titanic (they name passengers)

    costs = curate("costs")
    assert costs.exit_code == 0, costs.output
    header, *rows = costs.output.splitlines()
    assert header.split()[3:6] == ["calls", "cached", "errors"]  # was "failed 0": calls, not items
    translate = next(row for row in rows if row.startswith("translate "))
    assert translate.split()[5] == "0"  # every call was answered: no call failed
    assert ("  translate: 2 competitions failed (ru 2); a rerun fails them again at no cost, from the cached answers"
            in costs.output)
    assert "read why (`curate status --why`), then change prompts/translate.md" in costs.output
    assert json.loads(curate("costs", "--json").stdout)["failed_competitions"] == {"translate:ru": 2}

    status = curate("status", width=100)
    assert "Next: `curate status --why`" in status.output  # was `curate translate`, which repeats the failure
    hint = " ".join(status.output.split())
    assert "translate: 2 competitions failed (ru 2); a rerun fails them again at no cost" in hint
    assert "or raise [translate] max_attempts" in hint

    dry = curate("run", "--dry-run", "--lang", "ru")
    assert dry.exit_code == 0, dry.output
    translate_row = next(line for line in dry.output.splitlines() if line.startswith("translate  ru"))
    assert translate_row.split()[2:4] == ["2", "0"]  # 2 items, 0 calls: a plan that looked free and harmless
    assert ("translate: 2 of these items (ru) fail again, at no cost" in dry.output
            or "translate: 2 of these items (ru 2) fail again, at no cost" in dry.output), dry.output
    assert json.loads(curate("run", "--dry-run", "--json").stdout)["fail_again"] == 2

    calls = llm_server.count()
    again = curate("translate", "--lang", "ru")
    assert again.exit_code == 1 and "2 failed" in again.output
    assert llm_server.count() == calls  # what they said: no call, the same failure

    # What they advise works: a fourth attempt is a request the cache has never seen.
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("max_attempts = 3", "max_attempts = 4"), encoding="utf-8")
    plan = json.loads(curate("translate", "--lang", "ru", "--dry-run", "--json").stdout)
    assert (plan["calls"], plan["fail_again"]) == (2, 0)


def test_failures_whose_calls_got_no_answer_are_said_to_be_asked_again(project, llm_server, monkeypatch):
    russian(project, llm_server, monkeypatch, RefusesDataCards(answer=bad_request("context length exceeded")))
    assert curate("run").exit_code == 1

    costs = curate("costs")
    translate = next(row for row in costs.output.splitlines() if row.startswith("translate "))
    assert translate.split()[5] == "2"  # two calls got an HTTP 400
    assert "translate: 2 competitions failed (ru 2); a rerun asks for them again" in costs.output

    status = curate("status")
    assert "Next: `curate translate`" in status.output  # a rerun sends them: worth running once the cause is fixed
    assert "fails them again" not in status.output
    assert "a rerun asks for them again (their calls got no answer); why: `curate status --why`" in status.output
    assert "fail again" not in curate("run", "--dry-run").output
