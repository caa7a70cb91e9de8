"""The per-competition forms of `curate status` on a 100- and an 80-column terminal (issue 24, item 4): every
header whole, every failure's reason whole on lines of its own, and paths broken between folders, never inside a
name. The project is written straight into the store, as the stages leave it."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.checks.translation import CHECKS
from curation.records import Problem
from curation.store import Store
from tests.review.seeding import KK, seed_competition, seed_translation

runner = CliRunner()

FAILED = "competition-number-03-with-a-rather-long-kaggle-slug"
FLAGGED = "competition-number-05-with-a-rather-long-kaggle-slug"
REASON = (f"{FAILED}/data_card/kk: no translation after 3 attempts: the last answer was not one (it is a refusal "
          "or an apology (\"I'm sorry\"))")
FLAG = "description: length, adequacy failed after 3 attempts"
PROBLEM_PATH = ("data/competitions/a-competition-folder-with-a-long-name/notebooks/"
                "an-exploratory-notebook-with-an-even-longer-file-name-than-that.ipynb")
PROBLEM = "not valid notebook JSON (unterminated string starting at: line 12, column 5); re-download or remove it"


@pytest.fixture
def corpus(settings):
    with Store(settings.path("store")) as store:
        for number in range(8):
            slug = f"competition-number-{number:02d}-with-a-rather-long-kaggle-slug"
            seed_competition(store, slug)
            for stage in ("ingest", "describe", "tag"):
                store.set_status(slug, stage, "done")
            for language in ("kk", "be"):
                for field, text in KK.items():
                    if slug != FAILED or field != "data_card":
                        seed_translation(store, slug, field, language, text)
                store.set_status(slug, f"translate:{language}", "done", "3 fields")
        store.set_status(FAILED, "translate:kk", "failed", REASON)
        store.set_status(FLAGGED, "translate:kk", "needs_human", FLAG)
        store.replace_problems("ingest", [Problem(stage="ingest", path=PROBLEM_PATH, message=PROBLEM)])


def curate(width: int, *args: str) -> list[str]:
    result = runner.invoke(app, ["status", *args], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    lines = result.stdout.rstrip("\n").split("\n")
    too_wide = [line for line in lines if len(line) > width]
    assert not too_wide, f"{len(too_wide)} lines wider than {width}: {too_wide[:2]}"
    return lines


def whole(lines: list[str], text: str) -> bool:
    """Whether `text` is in the output, wrapped or not (a wrapped line goes on, indented, on the next; a path may
    go on after a '/')."""
    def flat(words: str) -> str:
        return re.sub(r"/ ", "/", " ".join(words.split()))

    return flat(text) in flat(" ".join(line.rstrip() for line in lines))


def unbroken(lines: list[str], path: str) -> bool:
    """Whether every file and folder name of `path` is on one line (a break after a '/' is fine)."""
    return all(any(name in line for line in lines) for name in path.split("/"))


@pytest.mark.parametrize("width", [100, 80])
def test_per_competition_tables_show_whole_headers_and_whole_reasons(project, corpus, width):
    for options in (["--lang", "kk"], ["--detail"]):
        lines = curate(width, *options)
        header = next(line for line in lines if line.startswith("competition "))
        assert header.split()[:8] == ["competition", "nb", "ingest", "describe", "tag", "translate", "review",
                                      "merge"], header  # were cut to "ing… desc… tran…"
        assert "…" not in header
        assert whole(lines, f"failed translate:kk: {REASON}")  # the "why" column read "tran…"
        assert whole(lines, f"flagged translate:kk: {FLAG}")
        assert unbroken(lines, PROBLEM_PATH) and whole(lines, PROBLEM)
        # a section's headers too: a table too wide continues below, its first column repeated
        for title in ("translated", "retranslate requests", *CHECKS):
            assert any(f"  {title}  " in f" {line}  " for line in lines), title


@pytest.mark.parametrize("width", [100, 80])
def test_comp_and_why_show_the_reason_whole(project, corpus, width):
    lines = curate(width, "--comp", FAILED)
    assert next(line for line in lines if line.startswith("stage")).split() == ["stage", "state", "detail"]
    assert whole(lines, REASON)  # was cut with an ellipsis at the terminal's edge
    assert unbroken(lines, PROBLEM_PATH)

    why = curate(width, "--why")
    assert whole(why, f"{FAILED} failed translate:kk: {REASON}")
    assert whole(why, f"{FLAGGED} flagged translate:kk: {FLAG}")
    assert not any(line.startswith("competition-number-00") for line in why)  # nothing to say about it
    assert whole(curate(width, "--why", "--lang", "be"), "Nothing failed or flagged (be).")
