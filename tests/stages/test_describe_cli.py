"""`curate describe` and `curate tag` as a curator runs them: on the sample, and without any key."""

from __future__ import annotations

from typer.testing import CliRunner

from curation.cli import app
from tests.stages.scripted_models import TaskWriter

runner = CliRunner()


def test_ingest_describe_tag_status_on_the_sample(project, llm_server, monkeypatch) -> None:
    vague = "For each example of Titanic - Machine Learning from Disaster, predict its target value."
    better = "For each passenger of the Titanic, predict 1 if they survived and 0 otherwise; accuracy is the metric."
    writer = TaskWriter(grades={vague: "B"}, refined={vague: better},
                        domains={"Titanic - Machine Learning from Disaster": ["maritime studies"]})
    llm_server.respond_with(writer)
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)

    assert runner.invoke(app, ["ingest"]).exit_code == 0
    described = runner.invoke(app, ["describe"])
    tagged = runner.invoke(app, ["tag"])
    status = runner.invoke(app, ["status", "--detail"], env={"COLUMNS": "250"})

    assert described.exit_code == 0, described.output
    assert "describe: 7 done, 0 failed" in described.output
    # the one private competition keeps its description.md: graded, not generated
    assert "good after round 1: 83% (5/6), after the last round: 100% (6/6)" in described.output
    assert "1 written by a person" in described.output
    assert tagged.exit_code == 0 and "tag: 7 done, 0 failed" in tagged.output
    assert "maritime studies" in status.output
    # the summary line: share good after round 1 and after the last, and the spend `curate costs` adds up
    total = runner.invoke(app, ["costs"]).output.split("total: $", 1)[1].split(" ", 1)[0]
    assert float(total) > 0
    assert (f"good after round 1: 83% (5/6), after the last round: 100% (6/6); 0 need a person; "
            f"1 written by a person; describe + tag spend ${total}") in " ".join(status.output.split())
    assert writer.count("describe") == 6 and writer.count("refine") == 1 and writer.count("score") == 8

    again = runner.invoke(app, ["describe"])
    assert "describe: 0 done, 0 failed, 0 not started; 0 LLM calls" in again.output


def test_without_a_key_one_line_says_what_to_set(project) -> None:
    assert runner.invoke(app, ["ingest"]).exit_code == 0

    result = runner.invoke(app, ["describe", "--competition", "titanic"])

    assert result.exit_code == 2
    assert "set OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server)" in result.output
    assert "ANTHROPIC_API_KEY is not set; models.refine (anthropic) needs it" in result.output
    assert "Traceback" not in result.output


def test_an_unknown_competition_is_refused(project) -> None:
    result = runner.invoke(app, ["tag", "--competition", "no-such-task"])
    assert result.exit_code == 2 and "no-such-task: no such competition in the store" in result.output
