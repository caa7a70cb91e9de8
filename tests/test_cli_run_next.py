"""The "next" block at the end of `curate run` comes from the store's state, not fixed text (issue 24, item 7): a
run refused for want of --yes says to add it, the version to publish is the next one the store has not seen, and a
rerun with nothing to do is a few lines; the review steps follow the texts from push to pull to merge."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.next_steps import next_steps
from curation.records import Release
from curation.store import Store
from tests.conftest import commands_on
from tests.review.seeding import answer_unanswered, fill, seeded  # noqa: F401 (a fixture)
from tests.test_cli_run import Model


runner = CliRunner()


def curate(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def next_block(output: str) -> list[str]:
    """The numbered steps after the "next" rule."""
    return [line for line in output.split(" next ", 1)[1].splitlines()[1:] if re.match(r"\d+\. ", line)]


@pytest.fixture
def three_languages(project, llm_server, monkeypatch):
    """The sample project translating into ru, fr and ja, every provider on the fake server, no rate limit to wait."""
    llm_server.respond_with(Model())
    commands_on(project, llm_server, monkeypatch, "ru", "fr", "ja")
    toml = project / "curate.toml"
    toml.write_text(re.sub(r"(?m)^(requests|tokens)_per_minute = \d+$", r"\1_per_minute = 100000000",
                           toml.read_text(encoding="utf-8")), encoding="utf-8")
    return project


def test_a_rerun_with_nothing_to_do_is_short_and_names_the_next_free_version(three_languages, llm_server):
    project = three_languages
    first = curate("run")
    assert first.exit_code == 0, first.output
    assert "curate publish --version 1.0.0 --to dist/ml2b" in next_block(first.output)[-1]
    with Store(project / "data" / "curation.sqlite") as store:  # v1.0.0 to v1.2.0 out already
        for version in ("1.0.0", "1.1.0", "1.2.0"):
            store.save_release(Release(version=version, target="hf:lab/ml2b", date="2026-11-01", commit="c" * 40),
                               manifest={})
    calls = llm_server.count()

    again = curate("run")

    assert again.exit_code == 0, again.output
    assert llm_server.count() == calls
    assert "0 done, 0 failed" not in again.output  # was a line per stage and language
    assert "describe, tag: nothing to do" in again.output
    assert "translate: nothing to do in ru, fr, ja" in again.output
    assert len(again.output.splitlines()) < 20, again.output
    steps = next_block(again.output)
    assert "`curate publish --version 1.3.0 --to hf:lab/ml2b`" in steps[-1]  # 1.0.0 would be refused
    assert "1.0.0" not in again.output


def test_a_run_refused_for_want_of_yes_says_to_add_it_and_not_to_send_the_workbooks(three_languages, llm_server):
    project = three_languages
    assert curate("run", "--lang", "ru").exit_code == 0
    prompt = project / "prompts" / "translate.md"  # every Russian text is out of date: a redo asks first
    prompt.write_text(prompt.read_text(encoding="utf-8") + "\nKeep the register formal.\n", encoding="utf-8")
    calls = llm_server.count()

    refused = curate("run", "--lang", "ru")

    assert refused.exit_code == 1 and llm_server.count() == calls
    assert "rerun with --yes to go ahead" in refused.output
    steps = next_block(refused.output)
    assert steps[0].startswith("1. `curate run --yes`"), steps
    assert not any("workbook" in step for step in steps), steps  # were: "Send each workbook ... to its annotator"


def test_the_review_steps_follow_the_texts_from_push_to_pull_to_merge(project, settings, seeded):
    store = seeded  # titanic and spaceship-titanic translated into Kazakh, described in English
    for slug in ("titanic", "spaceship-titanic"):  # as the stages that wrote them leave them
        for stage in ("ingest", "describe", "tag", "translate:kk"):
            store.set_status(slug, stage, "done")
    languages = ["en", "kk"]
    assert curate("review", "push", "--lang", "en,kk").exit_code == 0
    steps = next_steps(store, settings, languages)
    assert "8 texts (en 2, kk 6) wait for a verdict" in steps[0]
    assert "curate merge" in steps[-1] and "--version 1.0.0" in steps[-1]

    for book in sorted((project / "review" / "kk").glob("*.xlsx")):
        answer_unanswered(book)
    for book in sorted((project / "review" / "en").glob("*.xlsx")):
        for slug in ("titanic", "spaceship-titanic"):
            fill(book, "rubric", slug, score="2 - good")
    assert curate("review", "pull", "--lang", "en,kk").exit_code == 0
    steps = next_steps(store, settings, languages)
    assert steps[0] == "1. `curate merge`: 8 texts (en 2, kk 6) judged, not final yet.", steps
    assert "wait for a verdict" not in " ".join(steps)

    assert curate("merge", "--lang", "en,kk").exit_code == 0
    assert next_steps(store, settings, languages) == [
        "1. Everything is merged: `curate report`, then `curate publish --version 1.0.0 --to dist/ml2b`."]

    fill(project / "review" / "kk" / "kk-annotator-1.xlsx", "domain", "titanic/domain/kk", verdict="NO and NO",
         comment="not the usual term")
    assert curate("review", "pull", "--lang", "kk").exit_code == 0
    assert next_steps(store, settings, languages)[0] == "1. `curate merge`: 1 text (kk 1) judged, not final yet."

    assert curate("merge", "--lang", "kk").exit_code == 0
    steps = next_steps(store, settings, languages)
    assert steps[0] == ("1. `curate run` again: merge sent back 1 text (kk 1) for retranslation; it redoes them and "
                        "pushes them for review."), steps
