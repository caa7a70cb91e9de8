"""Live progress when output is not a terminal: one line for the whole stage (every language) every
CURATE_PROGRESS_SECONDS, and one at the end, with done/total, requests per second, tokens, spend, failures, ETA."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from curation.cli import app
from curation.records import Description, DomainTag
from curation.store import Store

from tests.conftest import commands_on
from tests.stages.test_translate import Translator


LINE = re.compile(r"^translate: (\d+)/(\d+) · (\d+\.\d) req/s · ([\d.]+k?) tokens · \$(\d+\.\d{4}) · (\d+) failed · "
                  r"ETA (\d+:\d\d|\?) · \d+:\d\d elapsed$")


def test_a_piped_translate_prints_periodic_lines_for_all_languages_together(project, settings, llm_server, monkeypatch):
    commands_on(project, llm_server, monkeypatch, "ru", "fr")
    assert CliRunner().invoke(app, ["ingest"]).exit_code == 0
    with Store(settings.path("store")) as store:
        for competition in store.competitions():
            store.save_description(Description(competition=competition.competition, provenance="machine", grade="C",
                                               text="Predict the target of each row of `test.csv`."))
            store.save_domain(DomainTag(competition=competition.competition, domain="data science"))
    llm_server.respond_with(Translator())

    result = CliRunner().invoke(app, ["translate"], env={"CURATE_PROGRESS_SECONDS": "0"})

    assert result.exit_code == 0, result.output
    lines = [LINE.match(line) for line in result.output.splitlines() if line.startswith("translate: ")]
    assert lines and all(lines), result.output
    totals = [int(line[2]) for line in lines]
    assert totals == sorted(totals) and totals[-1] == 42  # one display: ru's 21 texts and fr's 21, summed
    done = [int(line[1]) for line in lines]
    assert done == sorted(done) and done[-1] == 42 and len(done) > 2
    last = lines[-1]
    assert float(last[5]) > 0 and last[6] == "0" and last[7] == "0:00" and last[4] != "0"
    assert "translate:ru: 21 done" in result.output and "translate:fr: 21 done" in result.output


def test_the_default_interval_keeps_a_log_quiet_but_says_the_end(project, settings, llm_server, monkeypatch):
    from curation.cli.progress import StageProgress
    from rich.console import Console
    import io

    out = io.StringIO()
    with StageProgress("translate", Console(file=out), every=30.0) as progress:
        for finished in range(1, 11):
            progress("translate:ru", finished, 10)
    assert out.getvalue().count("translate: ") == 1 and "translate: 10/10" in out.getvalue()


def test_the_progress_line_counts_failed_items_as_the_summary_does():
    from curation.cli.progress import StageProgress
    from rich.console import Console
    import io

    out = io.StringIO()
    with StageProgress("translate", Console(file=out), every=1e9) as progress:
        progress("translate:ru", 3, 4, 1)
        progress("translate:fr", 4, 4, 2)
    assert "translate: 7/8 · " in out.getvalue() and " · 3 failed · " in out.getvalue()
