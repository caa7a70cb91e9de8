"""Issue 14, situation 2: editing prompts/translate.md after review keeps what people approved or wrote.

On the sample through the CLI: Russian is translated, reviewed (one native fix, the rest YES and YES) and merged;
French is translated and not reviewed. Then the translate prompt changes. The reviewed Russian texts stay
final (nothing is sent, nothing withdrawn, the native fix publishes), listed as "reviewed under an older
prompt"; the unreviewed French ones are translated again after the run says how many and what it costs,
and only with --yes when there is no terminal to ask on. `--redo-reviewed` redoes the Russian texts too, keeping
the old versions and their verdicts in the history and sending the new ones to review.
"""

from __future__ import annotations


import json
import re

import pandas
import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.store import Store
from tests.review.seeding import answer_unanswered, fill, seed_sample_sources
from tests.stages.test_translate import Translator


runner = CliRunner()
FIX_END = " и внимательно проверьте результат."


def reworded(answer: str) -> str:
    """A different wording of the same translation: a doubled space, or a one-word domain's first letter recased."""
    return answer.replace(" ", "  ", 1) if " " in answer else answer[:1].swapcase() + answer[1:]


def curate(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


@pytest.fixture
def reviewed(project, llm_server, monkeypatch):
    """ru translated, reviewed with one native fix and merged; fr translated, not reviewed."""
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("[review.annotators]\n", '[review.annotators]\nru = ["olga"]\n'),
                    encoding="utf-8")
    assert curate("ingest").exit_code == 0
    seed_sample_sources(project)
    llm_server.respond_with(Translator())
    assert curate("translate", "--lang", "ru,fr").exit_code == 0
    assert curate("review", "push", "--lang", "ru").exit_code == 0
    workbook = project / "review" / "ru" / "ru-olga.xlsx"
    with Store(project / "data" / "curation.sqlite") as store:
        fix = store.translation("titanic", "description", "ru").text.rstrip(".") + FIX_END
    fill(workbook, "description", "titanic/description/ru", verdict="NO and YES", own_version=fix)
    answer_unanswered(workbook)
    assert curate("review", "pull", "--lang", "ru").exit_code == 0
    assert "ru: 20 keep, 1 fix" in curate("merge", "--lang", "ru").output
    prompt = project / "prompts" / "translate.md"
    prompt.write_text(prompt.read_text(encoding="utf-8") + "\nKeep the register formal.\n", encoding="utf-8")
    llm_server.reset()
    return project, fix


def test_a_prompt_edit_keeps_reviewed_texts_and_asks_before_redoing_the_rest(reviewed, llm_server):
    project, fix = reviewed

    refused = curate("translate", "--lang", "ru,fr")  # no terminal here: nothing goes without --yes
    assert refused.exit_code == 1 and llm_server.count() == 0
    estimate = re.search(r"translate would redo 21 texts that exist already \(fr 21\); estimated cost \$(\d+\.\d\d) "
                         r"from \[prices\]", refused.output)
    assert estimate and float(estimate.group(1)) > 0, refused.output
    assert "rerun with --yes to go ahead" in refused.output

    done = curate("translate", "--lang", "ru,fr", "--yes")
    assert done.exit_code == 0, done.output
    assert "translate:ru: 0 done" in done.output and "translate:fr: 21 done" in done.output
    assert "kept 21 texts reviewed under an older prompt or model (ru 21)" in done.output
    assert all("French" in request.user_text for request in llm_server.requests)

    merged = curate("merge", "--lang", "ru")
    assert "ru: 20 keep, 1 fix" in merged.output and "withdrawn" not in merged.output
    status = curate("status", "--lang", "ru", "-v")  # -v: cells wrap instead of being cut
    assert "Reviewed under an older prompt" in status.output and "and 16 more" in " ".join(status.output.split())
    with Store(project / "data" / "curation.sqlite") as store:
        for competition in store.competitions():  # the rubric is another review: its final scores seeded
            store.save_rubric_final(competition.competition, 2)
    published = curate("publish", "--version", "1.0.0", "--to", "dist/ml2b", "--allow-partial")
    assert published.exit_code == 0, published.output
    release = project / "dist" / "ml2b"
    rows = pandas.read_parquet(next((release / "ru").glob("*.parquet")))
    titanic = rows[rows.competition == "titanic"].iloc[0]
    assert (titanic.description, titanic.description_provenance) == (fix, "native_fix")
    card = " ".join((release / "README.md").read_text(encoding="utf-8").split())
    assert "reviewed under an older prompt or model (kept: a native speaker approved or wrote them" in card
    assert "prompt or model changed): ru 21" in card
    assert json.loads((release / "manifest.json").read_text())["reviewed_under_older_prompts"] == {"ru": 21}


def test_redo_reviewed_keeps_the_old_version_and_its_verdicts_and_sends_the_new_one_to_review(reviewed, llm_server):
    project, fix = reviewed
    assert "rerun with --yes" in curate("translate", "--lang", "ru", "--redo-reviewed").output
    with Store(project / "data" / "curation.sqlite") as store:
        before = store.translation("titanic", "description", "ru")
    llm_server.respond_with(lambda request: reworded(Translator()(request)))

    done = curate("translate", "--lang", "ru", "--redo-reviewed", "--yes")

    assert done.exit_code == 0 and "translate:ru: 21 done" in done.output, done.output
    with Store(project / "data" / "curation.sqlite") as store:
        assert store.translation_history("titanic", "description", "ru") == [before]
        assert any(v.own_version == fix for v in store.verdicts("ru"))  # the verdicts on the old text stay
    assert "21 withdrawn" in curate("merge", "--lang", "ru").output
    pushed = curate("review", "push", "--lang", "ru")
    assert "21 added" in pushed.output and "21 filled rows kept" in pushed.output, pushed.output


def test_a_changed_call_parameter_is_a_change_too(reviewed, llm_server):
    project, fix = reviewed
    prompt = project / "prompts" / "translate.md"  # undo the fixture's prompt edit: only the parameter changes
    prompt.write_text(prompt.read_text(encoding="utf-8").removesuffix("\nKeep the register formal.\n"), encoding="utf-8")
    assert "translate: nothing to do in ru, fr" in curate("translate", "--lang", "ru,fr", "--yes").output
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("# temperature = 0.0", "temperature = 0.5"), encoding="utf-8")
    llm_server.respond_with(Translator())

    done = curate("translate", "--lang", "ru,fr", "--yes")

    assert "translate would redo 21 texts that exist already (fr 21)" in done.output, done.output
    assert "kept 21 texts reviewed under an older prompt or model (ru 21)" in done.output


def test_a_new_wording_opens_review_and_merge_again_in_status(reviewed, llm_server):
    project, fix = reviewed
    before = json.loads(curate("status", "--json").stdout)
    assert before["matrix"]["review"]["ru"]["done"] == 7 and before["matrix"]["merge"]["ru"]["done"] == 7
    llm_server.respond_with(lambda request: reworded(Translator()(request)))

    assert curate("translate", "--lang", "ru", "--redo-reviewed", "--yes").exit_code == 0

    # every ru text is a new wording nobody judged: neither review nor merge is done for any competition
    after = json.loads(curate("status", "--json").stdout)
    assert after["matrix"]["review"]["ru"] == {"done": 0, "flagged": 0, "open": 7, "failed": 0}
    assert after["matrix"]["merge"]["ru"] == {"done": 0, "flagged": 0, "open": 7, "failed": 0}
    [titanic] = [row for row in after["competitions"] if row["competition"] == "titanic"]
    assert titanic["stages"]["merge:ru"]["detail"].startswith("waiting for review of ")

