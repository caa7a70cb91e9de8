"""Every command's default output fits a 100-column screen on a 24-competition, 13-language corpus.

The corpus is written straight into the store (as describe, tag and translate would leave it) so the test needs no
LLM: 24 competitions, all 12 targets translated, a few flagged, none reviewed yet, a few ingest problems.
"""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.records import Problem
from curation.store import Store

from tests.fakes.llm_server import bad_request
from tests.review.seeding import KK, seed_competition, seed_sample_sources, seed_translation

WIDTH = 100
runner = CliRunner()


def curate(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": str(WIDTH)})


@pytest.fixture
def corpus(settings) -> list[str]:
    """24 competitions translated into every target; every fifth translation into be flagged by the checks."""
    slugs = [f"competition-number-{n:02d}-with-a-rather-long-kaggle-slug" for n in range(24)]
    with Store(settings.path("store")) as store:
        for number, slug in enumerate(slugs):
            seed_competition(store, slug)
            store.set_status(slug, "ingest", "done", "3 notebooks")
            store.set_status(slug, "describe", "done" if number else "needs_human", "grade C" if number else
                             "the description still names the submission file after 3 rounds; write it by hand")
            store.set_status(slug, "tag", "done", "data science")
            for language in settings.project.targets:
                flagged = language == "be" and number % 5 == 0
                for field, text in KK.items():
                    seed_translation(store, slug, field, language, text, failed=("length",) if flagged else ())
                store.set_status(slug, f"translate:{language}", "needs_human" if flagged else "done",
                                 "description: much shorter than the English" if flagged else "3 fields")
        store.replace_problems("ingest", [Problem(stage="ingest", path=f"data/competitions/broken-{n}/competition.yaml",
                                                  message="no competition_link; add it and run `curate ingest`")
                                          for n in range(9)])
    return slugs


def fits(output: str) -> list[str]:
    lines = output.rstrip("\n").split("\n")
    too_wide = [line for line in lines if len(line) > WIDTH]
    assert not too_wide, f"{len(too_wide)} lines wider than {WIDTH}: {too_wide[:2]}"
    assert len(lines) < 40, f"{len(lines)} lines:\n{output}"
    return lines


def test_status_is_one_screen_with_the_matrix_the_spend_and_the_next_command(project, corpus):
    result = curate("status")
    assert result.exit_code == 0, result.output
    lines = fits(result.stdout)
    assert lines[0].startswith("24 competitions in 12 languages · spent $0.0000 on 0 LLM calls")
    header = next(line for line in lines if line.startswith("lang"))
    assert header.split() == ["lang", "ingest", "describe", "tag", "translate", "review", "merge"]
    be = next(line for line in lines if line.startswith("be "))
    assert be.split()[1:] == ["19/5/·/·", "·/·/24/·", "·/·/24/·"]  # 19 done, 5 flagged; review not started
    en = next(line for line in lines if line.startswith("en "))
    assert en.split()[1:4] == ["24", "23/1/·/·", "24"]
    assert "Problems (9)" in result.stdout and "… 6 more — `curate status --detail`" in result.stdout
    assert lines[-1] == "Next: `curate review push`, then `curate review pull` once the sheets come back"


def test_status_detail_truncates_cells_with_an_ellipsis_and_json_carries_everything(project, corpus):
    detail = curate("status", "--detail")
    assert detail.exit_code == 0, detail.output
    lines = detail.stdout.rstrip("\n").split("\n")
    assert all(len(line) <= WIDTH for line in lines)
    assert any("competition-number-00" in line for line in lines) and "…" in detail.stdout
    assert sum("competition-number-" in line for line in lines) >= 24

    one = curate("status", "--comp", corpus[0])
    assert one.exit_code == 0 and "translate:be" in one.stdout and "flagged" in one.stdout
    assert all(len(line) <= WIDTH for line in one.stdout.split("\n"))

    report = json.loads(curate("status", "--json").stdout)
    assert report["matrix"]["translate"]["be"] == {"done": 19, "flagged": 5, "open": 0, "failed": 0}
    assert report["matrix"]["describe"][""] == {"done": 23, "flagged": 1, "open": 0, "failed": 0}
    assert report["next"] == "curate review push"


def test_merge_before_any_verdict_counts_per_language_with_a_few_examples(project, corpus):
    result = curate("merge")
    assert result.exit_code == 0, result.output
    lines = fits(result.stdout)
    assert "kk: 72 open" in result.stdout and "en: 24 open" in result.stdout  # en: the rubric of the descriptions
    assert lines[-1] == "… 885 more — `-v` lists all; per competition: `curate status --detail --lang ar`"

    everything = curate("merge", "-v")
    assert everything.stdout.count("not judged yet") == 24 * 3 * 12


def test_a_refused_publish_fits_a_screen_and_says_what_blocks_it(project, corpus, tmp_path):
    result = curate("publish", "--version", "1.0.0", "--to", str(tmp_path / "release"))
    assert result.exit_code == 1
    lines = fits(result.output)
    assert any(line.startswith("refused:") for line in lines)
    assert "more —" in result.output

    everything = curate("publish", "--version", "1.0.0", "--to", str(tmp_path / "release"), "-v")
    assert len(everything.output.split("\n")) > 40


def test_costs_releases_and_pull_speak_json_for_scripts(project, corpus):
    assert json.loads(curate("costs", "--json").stdout) == {"lines": [], "spent_usd": 0, "saved_usd": 0,
                                                            "prompt_cache_saved_usd": 0, "failed_competitions": {}}
    assert json.loads(curate("releases", "--json").stdout) == []
    assert curate("review", "push", "--lang", "kk").exit_code == 0
    [kk] = json.loads(curate("review", "pull", "--lang", "kk", "--json").stdout)
    assert (kk["language"], kk["verdicts"], kk["problems"]) == ("kk", 0, [])


def test_push_defaults_to_every_language_with_items_and_pull_skips_the_zero_lines(project, corpus):
    pushed = curate("review", "push")
    assert pushed.exit_code == 0, pushed.output
    lines = pushed.output.splitlines()
    assert len(lines) < 40, pushed.output
    # 26 sheets would fill the screen: one line sums them up and says how to list each
    assert lines[0] == "26 sheets in 13 languages, rows: 1092 added, 0 updated, 0 unchanged (`-v` lists each sheet)"
    assert "annotator-1:" not in pushed.output
    assert pushed.output.count("no annotators named") == 1  # one line naming the languages, not thirteen
    listed = curate("review", "push", "-v")  # every sheet, its path whole for copying
    assert "kk annotator-1: review/kk/kk-annotator-1.xlsx: 0 added" in listed.output, listed.output
    assert sum(line.endswith(" unchanged") for line in listed.output.splitlines()) == 26
    pulled = curate("review", "pull")
    assert pulled.exit_code == 0, pulled.output
    assert pulled.output.strip() == "nothing new from 13 languages (ar, be, en, es, fr, it, ja, kk, pl, ro, ru, tr, zh)"


@pytest.fixture
def sample(project, llm_server, monkeypatch):
    """The sample ingested and described (as describe and tag leave it), every provider pointed at the fake."""
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)
    toml = project / "curate.toml"  # no real provider's rate limit to wait out against the fake
    toml.write_text(re.sub(r"(?m)^(requests|tokens)_per_minute = \d+$", r"\1_per_minute = 100000000",
                           toml.read_text(encoding="utf-8")), encoding="utf-8")
    assert curate("ingest").exit_code == 0
    seed_sample_sources(project)
    return project


def test_translate_says_a_failure_shared_by_every_language_once(sample, llm_server):
    llm_server.respond_with(lambda request: bad_request("This model's maximum context length is 8192 tokens"))

    result = curate("translate", "--competition", "titanic")

    assert result.exit_code == 1
    lines = result.output.rstrip("\n").split("\n")
    assert len(lines) < 40, result.output
    [failed] = [line for line in lines if "maximum context length" in line]
    assert failed.startswith("  failed: 36 items in ar, be, zh and 9 more: HTTP 400"), failed
    assert "(e.g. titanic/" in failed
    assert sum(line.startswith("translate:") and "3 failed" in line for line in lines) == 12

    everything = curate("translate", "--competition", "titanic", "-v")
    assert everything.output.count("maximum context length") == 36


def test_translate_counts_flagged_texts_per_language_on_one_line(sample, llm_server):
    def english_back(request):  # the English comes back untranslated: a check fails on every attempt
        return request.user_text.split("<<<\n", 1)[-1].split("\n>>>", 1)[0]

    llm_server.respond_with(english_back)

    result = curate("translate", "--competition", "titanic", "--lang", "kk,be,ru")

    assert result.exit_code == 0, result.output
    flagged = [line for line in result.output.split("\n") if "flagged for the annotator" in line]
    assert flagged == ["9 texts flagged for the annotator (checks still failing): kk 3, be 3, ru 3; e.g. "
                       "titanic/data_card/kk, titanic/description/kk; which ones: `-v`, or "
                       "`curate status --detail --lang kk`"], result.output
    everything = curate("translate", "--competition", "titanic", "--lang", "kk,be,ru", "-v")
    assert sum("flagged for the annotator" in line for line in everything.output.split("\n")) == 3
