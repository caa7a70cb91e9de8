"""Issue 14, situation 3: a junk description never reaches annotators, and a description the rubric sends back
comes back different, with the annotators' comments in the prompt sent to the model.

Everything runs through the CLI against the fake LLM server, on the sample's Titanic competition.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.stages.describe import IDENTICAL_REWRITE
from curation.store import Store
from tests.review.seeding import fill
from tests.stages.scripted_models import TaskWriter, role_of

runner = CliRunner()
TITANIC = "Titanic - Machine Learning from Disaster"
# What a model once answered: our own retry instruction, echoed back as the description.
ECHOED = ("That answer could not be read as GeneratedDescription: description: Field required. Reply again with only "
          "the JSON object, complete and matching the schema.")
FIRST = "For each passenger of the Titanic, predict whether they survived."
SECOND = ("For each passenger of the Titanic, predict 1 if they survived the sinking and 0 otherwise, from their "
          "ticket class, sex, age and fare; accuracy is the metric.")
COMMENT = "Says nothing about what the passenger data holds or how predictions are judged."


def curate(*args: str):
    return runner.invoke(app, list(args))


class Describer(TaskWriter):
    """TaskWriter whose describe answers for Titanic come from `answers(request)`; the other prompts as usual."""

    def __init__(self, answers):
        super().__init__()
        self.answers = answers
        self.describe_prompts: list[str] = []

    def __call__(self, request):
        conversation = " ".join(str(message.get("content")) for message in request.messages)
        if role_of(request) == "describe" and f"Competition: {TITANIC}" in conversation:
            self.describe_prompts.append(request.user_text)
            self.asked.append(("describe", TITANIC))
            return {"analysis": {"problem": "p", "input_data": "i", "expected_output": "o"},
                    "structure": {"objective": "o", "input_data": "i", "desired_output": "d"},
                    "description": self.answers(request)}
        return super().__call__(request)


@pytest.fixture
def sample(project, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)
    assert curate("ingest").exit_code == 0
    return project


def stored_description(project) -> str:
    with Store(project / "data" / "curation.sqlite") as store:
        return store.description("titanic").text


def test_our_retry_text_echoed_as_the_description_is_asked_again_and_never_stored(sample, llm_server):
    answers = iter([ECHOED, FIRST])
    writer = Describer(lambda request: next(answers))
    llm_server.respond_with(writer)

    described = curate("describe", "--competition", "titanic")

    assert described.exit_code == 0 and "describe: 1 done, 0 failed" in described.output, described.output
    assert stored_description(sample) == FIRST
    # the second request carried the echoed answer back with the reason, as for a malformed answer
    retry = [r for r in llm_server.requests if r.messages and "not a task description" in str(r.messages[-1])]
    assert len(retry) == 1 and "repeats our own instructions" in str(retry[0].messages[-1])
    with Store(sample / "data" / "curation.sqlite") as store:
        assert all(ECHOED not in r.text for r in store.description_rounds("titanic"))


def test_a_model_that_only_echoes_fails_the_item_and_nothing_is_translated(sample, llm_server):
    llm_server.respond_with(Describer(lambda request: ECHOED))

    described = curate("describe", "--competition", "titanic")

    assert described.exit_code == 1 and "describe: 0 done, 1 failed" in described.output, described.output
    assert "not a task description" in described.output
    with Store(sample / "data" / "curation.sqlite") as store:
        assert store.description("titanic") is None  # nothing to score, tag, translate or push


def push_and_score(project, score: str) -> None:
    assert curate("review", "push", "--lang", "en").exit_code == 0
    for annotator in ("annotator-1", "annotator-2"):
        fill(project / "review" / "en" / f"rubric-{annotator}.xlsx", "rubric", "titanic", score=score, comment=COMMENT)
    pulled = curate("review", "pull", "--lang", "en")
    assert "en: 0 new verdicts, 2 new rubric scores" in pulled.output, pulled.output
    merged = curate("merge", "--lang", "en")
    assert "titanic: scored 0 (unusable, or below publish.min_rubric_score 1), sent back to describe" in merged.output, merged.output


def test_a_rubric_0_comes_back_different_with_the_comment_in_the_prompt(sample, llm_server):
    # The model first writes FIRST; asked again with the comments it repeats itself, until told it did.
    writer = Describer(lambda request: SECOND if "word for word" in request.user_text else FIRST)
    llm_server.respond_with(writer)
    assert curate("describe", "--competition", "titanic").exit_code == 0
    push_and_score(sample, "0")

    again = curate("describe", "--competition", "titanic")

    assert again.exit_code == 0 and "describe: 1 done" in again.output, again.output
    assert stored_description(sample) == SECOND
    first_prompt, identical, rewrite = writer.describe_prompts
    assert COMMENT not in first_prompt
    assert COMMENT in identical and COMMENT in rewrite and IDENTICAL_REWRITE in rewrite
    with Store(sample / "data" / "curation.sqlite") as store:
        assert store.open_requests("redescribe") == []
    # the new text goes back to the rubric annotators
    assert "1 added" in curate("review", "push", "--lang", "en").output
    curate("report")
    report = (sample / "reports" / "review.md").read_text(encoding="utf-8")
    assert "- descriptions sent back to describe: 1; not rewritten yet: 0" in report


def test_a_rewrite_identical_to_the_rejected_text_is_never_resolved(sample, llm_server):
    llm_server.respond_with(Describer(lambda request: FIRST))
    assert curate("describe", "--competition", "titanic").exit_code == 0
    push_and_score(sample, "0")

    again = curate("describe", "--competition", "titanic")

    assert "describe wrote the same text again twice" in again.output, again.output
    with Store(sample / "data" / "curation.sqlite") as store:
        [request] = store.open_requests("redescribe")
        assert COMMENT in request["feedback"]
        assert store.status("titanic", "describe").status == "needs_human"
    assert "0 added" in curate("review", "push", "--lang", "en").output  # nothing new to score
    curate("report")
    report = (sample / "reports" / "review.md").read_text(encoding="utf-8")
    assert "- descriptions sent back to describe: 1; not rewritten yet: 1 (titanic)" in report
    published = curate("publish", "--version", "1.0.0", "--to", "dist/ml2b", "-v")
    assert published.exit_code != 0 and "titanic" in published.output
