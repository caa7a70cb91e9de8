"""Issue 14: an English description the rubric annotators approved is pinned like a reviewed translation.

On the sample through the CLI against the fake server: describe, tag and translate into Kazakh, then the rubric
sheets scored (every description 2 by both annotators but Titanic's, left unscored) and merged. Then
prompts/describe.md changes (or a call parameter of a describe role). The approved descriptions stay final and
untouched (no describe request for them, their Kazakh translations not redone), listed as "reviewed under an older
prompt" in `describe`'s output, `status`, the card and the manifest; the unscored one is described again.
`--redo-reviewed` writes the approved ones again after the confirmation with count and cost, keeping the old
versions and their rubric scores in the history and sending the new texts to the rubric.
"""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.store import Store
from tests.review.seeding import fill
from tests.fakes.sample_model import Plan, SampleModel
from tests.stages.scripted_models import TaskWriter
from tests.stages.test_translate import SOURCES, Translator


runner = CliRunner()
UNSCORED = "titanic"
TITANIC = "Titanic - Machine Learning from Disaster"


def curate(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


class Models:
    """describe/score/refine/tag as `writer` answers them, translate requests as Translator does."""

    def __init__(self, writer: TaskWriter) -> None:
        self.writer, self.translator = writer, Translator()
        self.translated: list[str] = []

    def __call__(self, request):
        if request.user_text.startswith("Translate this"):
            self.translated.append(request.user_text)
            return self.translator(request)
        return self.writer(request)


def sample_writer(first: dict[str, str] | None = None) -> TaskWriter:
    """A TaskWriter that describes and tags the sample with its own texts (which the fake translates carefully),
    with `first` in place of some competitions' descriptions."""
    writer = SampleModel(Plan.plain()).writer
    writer.first.update(first or {})
    return writer


# Titanic's description written again: another text the translation sets hold, so its translation is a careful one.
TITANIC_AGAIN = SOURCES["titanic_description"]


def store_of(project) -> Store:
    return Store(project / "data" / "curation.sqlite")


@pytest.fixture
def approved(project, llm_server, monkeypatch):
    """Described, tagged, translated into ru; every description but Titanic's scored 2 twice and merged; then the
    describe prompt edited."""
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)
    llm_server.respond_with(Models(sample_writer()))
    for command in (["ingest"], ["describe"], ["tag"], ["translate", "--lang", "ru"], ["review", "push", "--lang", "en"]):
        done = curate(*command)
        assert done.exit_code == 0, (command, done.output)
    with store_of(project) as store:
        slugs = [c.competition for c in store.competitions()]
    for annotator in ("annotator-1", "annotator-2"):
        for slug in slugs:
            if slug != UNSCORED:
                fill(project / "review" / "en" / f"rubric-{annotator}.xlsx", "rubric", slug, score="2 - good")
    assert "en: 0 new verdicts, 12 new rubric scores" in curate("review", "pull", "--lang", "en").output
    assert "en: 6 final, 1 open" in curate("merge", "--lang", "en").output
    prompt = project / "prompts" / "describe.md"
    prompt.write_text(prompt.read_text(encoding="utf-8") + "\nWrite in plain words.\n", encoding="utf-8")
    llm_server.reset()
    return project


def test_a_describe_prompt_edit_keeps_approved_descriptions_final(approved, llm_server):
    writer = sample_writer({TITANIC: TITANIC_AGAIN})
    models = Models(writer)
    llm_server.respond_with(models)
    with store_of(approved) as store:
        before = {d.competition: d.text for d in store.descriptions()}

    done = curate("describe")

    assert done.exit_code == 0, done.output
    assert "kept 5 descriptions reviewed under an older prompt or model" in done.output
    assert "`curate describe --redo-reviewed`" in done.output
    # only the unscored description is written again (the person-written one is only graded again)
    assert {name for role, name in writer.asked if role == "describe"} == {TITANIC}
    with store_of(approved) as store:
        after = {d.competition: d.text for d in store.descriptions()}
        assert {slug for slug in before if before[slug] != after[slug]} == {UNSCORED}
        assert all(store.description_history(slug) == [] for slug in before if slug != UNSCORED)

    # the translations of pinned descriptions are not redone: only Titanic's new description is translated
    translated = curate("translate", "--lang", "ru")
    assert translated.exit_code == 0 and "translate:ru: 1 done" in translated.output, translated.output
    assert len(models.translated) == 1 and "predicts whether a passenger survived" in models.translated[0]

    status = " ".join(curate("status", "--lang", "en", "-v").output.split())
    assert "Reviewed under an older prompt" in status, status
    assert re.search(r"en\W+5\W+digit-recognizer/description", status), status
    merged = curate("merge", "--lang", "en")
    assert "en: 6 final, 1 open" in merged.output and "withdrawn" not in merged.output, merged.output

    published = curate("publish", "--version", "1.0.0", "--to", "dist/ml2b", "--allow-partial")
    assert published.exit_code == 0, published.output
    release = approved / "dist" / "ml2b"
    card = " ".join((release / "README.md").read_text(encoding="utf-8").split())
    assert "or for en the rubric annotators approved them, before the prompt or model changed): en 5" in card
    assert json.loads((release / "manifest.json").read_text())["reviewed_under_older_prompts"] == {"en": 5}


def test_a_changed_call_parameter_of_a_describe_role_keeps_them_too(approved, llm_server):
    prompt = approved / "prompts" / "describe.md"  # undo the fixture's prompt edit: only a parameter changes
    prompt.write_text(prompt.read_text(encoding="utf-8").removesuffix("\nWrite in plain words.\n"), encoding="utf-8")
    toml = approved / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('refine = "anthropic:claude-sonnet-5-5"',
                                                             'refine = { model = "anthropic:claude-sonnet-5-5", temperature = 0.3 }'),
                    encoding="utf-8")
    writer = sample_writer()
    llm_server.respond_with(Models(writer))

    done = curate("describe")

    assert done.exit_code == 0 and "kept 5 descriptions reviewed under an older prompt or model" in done.output, done.output
    # Titanic (unscored) and the person-written one are done again; Titanic's describe call is the cached one
    assert "describe: 2 done" in done.output and not any(role == "describe" for role, _ in writer.asked)


def described_in_a_dry_run(*options: str) -> int:
    plan = json.loads(curate("describe", "--dry-run", "--json", *options).output)
    return sum(row["items"] for row in plan["rows"] if row["stage"] == "describe")


def test_redo_reviewed_keeps_the_old_version_and_its_scores_and_sends_the_new_one_to_review(approved, llm_server):
    # the dry run counts what each would do: Titanic and the person-written one's grading, or every description
    assert (described_in_a_dry_run(), described_in_a_dry_run("--redo-reviewed")) == (2, 7)
    refused = curate("describe", "--redo-reviewed")  # no terminal here: nothing goes without --yes
    assert refused.exit_code == 1 and llm_server.count() == 0, refused.output
    estimate = re.search(r"describe would redo 6 texts that exist already \(en 6\); estimated cost \$(\d+\.\d\d) "
                         r"from \[prices\]", refused.output)
    assert estimate and float(estimate.group(1)) > 0, refused.output
    with store_of(approved) as store:
        old = store.description("spaceship-titanic")
        scores_before = len(store.rubric_scores(latest=False))
    writer = sample_writer({"Spaceship Titanic": "For each passenger of the Spaceship Titanic, predict whether "
                                                    "they were transported to another dimension."})
    models = Models(writer)
    llm_server.respond_with(models)

    done = curate("describe", "--redo-reviewed", "--yes")

    assert done.exit_code == 0 and "describe: 7 done" in done.output, done.output
    assert "kept" not in done.output
    with store_of(approved) as store:
        assert store.description_history("spaceship-titanic") == [old]
        assert store.description("spaceship-titanic").text != old.text
        assert len(store.rubric_scores(latest=False)) == scores_before  # the scores on the old text stay
        assert any(s.competition == "spaceship-titanic" for s in store.rubric_scores())
    merged = curate("merge", "--lang", "en")
    assert "1 withdrawn" in merged.output and "5 final" in merged.output, merged.output
    pushed = curate("review", "push", "--lang", "en")
    assert pushed.exit_code == 0 and "1 added" in pushed.output, pushed.output
    # the new English text is translated again (a changed source always is; no set holds it, so the fake's filler
    # comes back, which the checks flag: a flagged text is done too)
    assert "translate:ru: 1 done" in curate("translate", "--lang", "ru").output


def test_curate_run_redoes_approved_descriptions_only_when_told(approved, llm_server):
    writer = sample_writer({TITANIC: TITANIC_AGAIN})
    llm_server.respond_with(Models(writer))

    kept = curate("run", "--lang", "ru", "--yes")

    assert kept.exit_code == 0, kept.output
    assert "kept 5 descriptions reviewed under an older prompt or model" in kept.output
    assert {name for role, name in writer.asked if role == "describe"} == {TITANIC}
    assert "translate:ru: 1 done" in kept.output  # Titanic's new description; the pinned ones' translations stay

    with store_of(approved) as store:
        old = store.description("spaceship-titanic")
    writer = sample_writer({"Spaceship Titanic": "For each passenger of the Spaceship Titanic, predict whether "
                                                    "they were transported to another dimension."})
    llm_server.respond_with(Models(writer))

    redone = curate("run", "--lang", "ru", "--redo-reviewed", "--yes")

    assert redone.exit_code == 0, redone.output
    assert "describe: 5 done" in redone.output and "kept" not in redone.output  # the 5 approved ones
    with store_of(approved) as store:
        assert store.description_history("spaceship-titanic") == [old]
    assert "translate:ru: 1 done" in redone.output  # the changed English text, translated in the same run
