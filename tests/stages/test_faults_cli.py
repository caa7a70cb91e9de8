"""Faulty provider answers through the CLI: a body cut in the middle of a Cyrillic character, an empty answer, a
refusal. Each is asked again; one item that never gets a readable answer fails alone, in one line, and the next
run retries it."""

from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from curation.cli import app
from curation.store import Store
from tests.fakes.llm_server import Response, Storm, cut_off, refusal
from tests.test_cli_run import Model, russian_project  # noqa: F401 (a fixture)


runner = CliRunner()


def competition_of(request) -> str:
    found = re.search(r"^Competition: (.*)$", request.user_text, re.M)
    return found.group(1) if found else ""


class Faulty:
    """The sample's model, except that each distinct request first gets the given fault, `times` times."""

    def __init__(self, fault, times: int = 1):
        self.model = Model()
        self.fault = fault
        self.times = times
        self.seen: dict[str, int] = {}
        self.faults = 0

    def __call__(self, request):
        real = self.model(request)
        key = repr(request.messages)
        if self.seen.get(key, 0) >= self.times:
            return real
        self.seen[key] = self.seen.get(key, 0) + 1
        self.faults += 1
        return self.fault(real.content if isinstance(real, Response) else real)


def test_bodies_cut_mid_cyrillic_character_are_asked_again_and_every_item_is_done(russian_project, llm_server):
    faulty = Faulty(cut_off)
    llm_server.respond_with(faulty)

    result = runner.invoke(app, ["run"], env={"COLUMNS": "200"})

    assert result.exit_code == 0, result.output
    assert "describe: 7 done, 0 failed" in result.output
    assert "translate:ru: 21 done, 0 failed" in result.output
    assert faulty.faults >= 21 + 7  # every first answer was cut, Russian ones inside a Cyrillic letter
    with Store(russian_project / "data" / "curation.sqlite") as store:
        texts = [t.text for t in store.translations("ru")]
        assert len(texts) == 21 and all(text and "\ufffd" not in text for text in texts)


def test_three_cut_bodies_in_a_row_are_a_transport_fault_not_three_tries(russian_project, llm_server):
    # The fault trial's storm cut one describe request's body three times in a row, and the item failed with "no
    # usable answer after 3 tries" (validation_retries = 2). A body that does not arrive whole is retried like a 5xx.
    toml = russian_project / "curate.toml"
    text = toml.read_text(encoding="utf-8").replace("max_retry_seconds = 180", "max_retry_seconds = 5")
    # Back-off from a quarter second, not a second; a token limit out of the way, so the bound is the back-off's.
    toml.write_text(re.sub(r"(?m)^tokens_per_minute = .*$", "tokens_per_minute = 100000000", text), encoding="utf-8")
    faulty = Faulty(cut_off, times=3)
    llm_server.respond_with(faulty)
    assert runner.invoke(app, ["ingest"]).exit_code == 0

    result = runner.invoke(app, ["describe"], env={"COLUMNS": "200"})

    assert result.exit_code == 0, result.output
    assert "describe: 7 done, 0 failed" in result.output
    assert faulty.faults >= 3 * 7
    with Store(russian_project / "data" / "curation.sqlite") as store:
        assert {call.attempts for call in store.llm_calls() if call.role == "describe"} == {4}


def test_empty_answers_and_refusals_are_asked_again(russian_project, llm_server):
    answers = iter([lambda real: "", lambda real: refusal("I can't help with that.")] * 1000)
    llm_server.respond_with(Faulty(lambda real: next(answers)(real)))
    assert runner.invoke(app, ["ingest"]).exit_code == 0

    result = runner.invoke(app, ["describe"], env={"COLUMNS": "200"})

    assert result.exit_code == 0, result.output
    assert "describe: 7 done, 0 failed" in result.output


def test_one_item_that_never_gets_a_readable_answer_fails_alone_in_one_line_and_the_rerun_retries_it(
        russian_project, llm_server):
    model = Model()

    def titanic_always_cut(request):
        real = model(request)
        if competition_of(request).startswith("Titanic"):
            return cut_off("Жауап: Титаник")
        return real

    llm_server.respond_with(titanic_always_cut)
    # A cut body is a transport fault, retried with back-off for max_retry_seconds: keep that bound short here.
    toml = russian_project / "curate.toml"
    text = toml.read_text(encoding="utf-8")
    assert text.count("max_retry_seconds = 180") == 2
    toml.write_text(text.replace("max_retry_seconds = 180", "max_retry_seconds = 0.5"), encoding="utf-8")
    assert runner.invoke(app, ["ingest"]).exit_code == 0

    first = runner.invoke(app, ["describe"], env={"COLUMNS": "200"})

    assert first.exit_code == 1, first.output
    assert "describe: 6 done, 1 failed" in first.output
    [line] = [line for line in first.output.splitlines() if "failed titanic" in line]
    assert "failed titanic: the server sent an unreadable response body (cut off or not UTF-8" in line
    assert "gave up after" in line and "(max_retry_seconds = 0.5)" in line and "no usable answer" not in line
    assert "Traceback" not in first.output
    status = json.loads(runner.invoke(app, ["status", "--json"]).output)
    [titanic] = [row for row in status["competitions"] if row["competition"] == "titanic"]
    assert titanic["stages"]["describe"]["status"] == "failed"
    assert "unreadable response body" in titanic["stages"]["describe"]["detail"]

    llm_server.respond_with(model)
    llm_server.reset()
    second = runner.invoke(app, ["describe"], env={"COLUMNS": "200"})

    assert second.exit_code == 0, second.output
    assert "describe: 1 done, 0 failed" in second.output
    assert {competition_of(request) for request in llm_server.requests} == {"Titanic - Machine Learning from Disaster"}


def test_a_storm_run_of_describe_and_translate_finishes_every_item_on_its_first_run(russian_project, llm_server):
    """30% 429 (retry-after), 5% 500 and 15% cut-off bodies: nothing fails, nothing is left for a second run.
    (scripts/bench_storm.py measures how much longer it takes than a fault-free run.)"""
    storm = Storm(Model(), rate_limits=0.30, server_errors=0.05, cut_offs=0.15, retry_after=0.05)
    llm_server.respond_with(storm)
    assert runner.invoke(app, ["ingest"]).exit_code == 0

    described = runner.invoke(app, ["describe"], env={"COLUMNS": "200"})
    translated = runner.invoke(app, ["translate", "--lang", "ru"], env={"COLUMNS": "200"})

    assert described.exit_code == 0, described.output
    assert "describe: 7 done, 0 failed, 0 not started" in described.output
    assert translated.exit_code == 0, translated.output
    assert "translate:ru: 14 done, 0 failed, 0 not started" in translated.output  # domains wait for tag
    assert storm.counts["429"] and storm.counts["500"] and storm.counts["cut_off"]  # the storm did blow
    with Store(russian_project / "data" / "curation.sqlite") as store:
        assert len(store.translations("ru")) == 14 and len(store.descriptions()) == 7
