"""`curate run` as one pipeline: a competition is tagged as soon as it is described and translated as soon as it is
tagged, while others are still being described; review sheets are written while later languages are still being
translated; each stage's calls are logged and reported as when it runs alone."""

from __future__ import annotations

import threading
import time

import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.store import Store
from tests.conftest import commands_on
from tests.fakes.llm_server import bad_request
from tests.test_cli_run import Model


runner = CliRunner()


@pytest.fixture
def two_languages(project, llm_server, monkeypatch):
    """The sample project (7 competitions) translating into Russian and French, on the fake server."""
    return commands_on(project, llm_server, monkeypatch, "ru", "fr")


def calls(project) -> list[tuple[int, str, str, str]]:
    """(id, stage, role, item) of every answered call, in the order the answers came in."""
    with Store(project / "data" / "curation.sqlite") as store:
        return [tuple(row) for row in store.db.execute(
            "SELECT id, stage, role, item FROM llm_calls WHERE error IS NULL ORDER BY id")]


def test_a_competition_moves_on_as_soon_as_the_stages_it_needs_have_settled_it(two_languages, llm_server) -> None:
    model = Model()

    def answer(request):
        if "Titanic" in request.user_text and "Translate this" not in request.user_text:
            time.sleep(3)  # Titanic's description is slow to write: the others go on without it
        return model(request)

    llm_server.respond_with(answer)

    result = runner.invoke(app, ["run"], env={"COLUMNS": "200"})

    assert result.exit_code == 0, result.output
    log = calls(two_languages)
    slugs = {item for _, stage, _, item in log if stage == "describe"}
    assert len(slugs) == 7
    # Each stage's calls are logged under its own name, as when it runs alone (`curate costs` groups by it).
    assert {(stage, role) for _, stage, role, _ in log} == {
        ("describe", "describe"), ("describe", "score"), ("tag", "tag"), ("translate", "translate")}
    for slug in slugs:
        described = max(number for number, stage, _, item in log if stage == "describe" and item == slug)
        tagged = [number for number, stage, _, item in log if stage == "tag" and item == slug]
        assert tagged and min(tagged) > described, slug
        for field, after in (("description", described), ("domain", max(tagged))):
            asked = [number for number, stage, _, item in log
                     if stage == "translate" and item.startswith(f"{slug}/{field}/")]
            assert all(number > after for number in asked), (slug, field)
    # ... and not one stage after another: other competitions were tagged and translated while Titanic was still
    # being described.
    titanic = min(number for number, stage, _, item in log if stage == "describe" and item == "titanic")
    assert any(stage == "translate" for number, stage, _, _ in log if number < titanic)
    # What each stage reports is what it reports run alone.
    for line in ("describe: 7 done, 0 failed", "tag: 7 done, 0 failed", "translate:ru: 21 done, 0 failed",
                 "translate:fr: 21 done, 0 failed"):
        assert line in result.output, line


def test_review_sheets_are_written_while_later_languages_are_still_translated(two_languages, llm_server) -> None:
    # The first French request (fr is the last language in curate.toml, so the last to finish) is held until the
    # English rubric sheets and the Russian sheets exist: they can only appear in time if they are written while
    # requests are still going out. (Pushed after the last translation instead, they never appear while it waits.)
    review = two_languages / "review"
    seen: dict[str, bool] = {}
    held = threading.Lock()
    model = Model()

    def answer(request):
        if "into French" in request.user_text and held.acquire(blocking=False):
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not all(any((review / code).glob("*.xlsx")) for code in ("en", "ru")):
                time.sleep(0.05)
            seen.update({code: any((review / code).glob("*.xlsx")) for code in ("en", "ru")})
        return model(request)

    llm_server.respond_with(answer)

    result = runner.invoke(app, ["run"], env={"COLUMNS": "200"})

    assert result.exit_code == 0, result.output
    assert seen == {"en": True, "ru": True}
    assert any((review / "fr").glob("*.xlsx"))
    assert result.output.count(".xlsx") == 6  # two annotators' sheets per language, as `curate review push` lists them


def test_a_competition_that_cannot_be_described_still_has_its_data_card_translated(two_languages, llm_server) -> None:
    model = Model()

    def answer(request):  # every request about Titanic or Spaceship Titanic but their data cards' translations
        if "Titanic" in request.user_text and "Translate this" not in request.user_text:
            return bad_request("refused for the test")
        return model(request)

    llm_server.respond_with(answer)

    result = runner.invoke(app, ["run"], env={"COLUMNS": "200"})

    assert result.exit_code == 1, result.output
    assert "describe: 5 done, 2 failed" in result.output  # Titanic and Spaceship Titanic
    [waiting] = [line for line in result.output.splitlines() if line.startswith("waiting: 4 texts")]
    assert waiting.startswith("waiting: 4 texts with no English text yet: 2 descriptions (run `curate describe`), "
                              "2 domains (run `curate tag`); in ") and "titanic, " in waiting
    assert "left undone in: describe" in result.output
    with Store(two_languages / "data" / "curation.sqlite") as store:
        assert store.description("titanic") is None
        assert {t.field for t in store.translations(competition="titanic")} == {"data_card"}
        assert len(store.translations(language="ru")) == 5 * 3 + 2


@pytest.mark.parametrize("options, says", [
    (["--backend", "csv"], "unknown backend 'csv'; use xlsx or sheets"),
    (["--lang", "uk"], "uk is not under [project] languages in curate.toml"),
])
def test_a_bad_backend_or_language_stops_the_run_before_anything_is_sent(two_languages, llm_server, options, says):
    llm_server.respond_with(Model())

    result = runner.invoke(app, ["run", *options], env={"COLUMNS": "200"})

    assert result.exit_code == 2 and says in result.output, result.output
    assert llm_server.count() == 0


def test_batch_mode_from_curate_toml_runs_the_stages_one_after_another(two_languages, llm_server):
    toml = two_languages / "curate.toml"
    text = toml.read_text(encoding="utf-8")
    assert "\n[llm]\n" in text
    # A short poll interval: the fake finishes a batch at once, and the default 30 s wait would be the whole test.
    toml.write_text(text.replace("\n[llm]\n", '\n[llm]\nmode = "batch"\nbatch_poll_seconds = 0.01\n', 1),
                    encoding="utf-8")
    llm_server.respond_with(Model())

    result = runner.invoke(app, ["run", "--yes"], env={"COLUMNS": "200"})

    assert result.exit_code == 0, result.output
    headings = [line.strip("─ ") for line in result.output.splitlines() if line.startswith("──")]
    assert headings == ["ingest", "describe", "tag", "translate", "review push", "next"]
