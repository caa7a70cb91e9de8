"""Help texts say what the commands do: every `--help` renders, and the defaults they name are the real ones."""

from __future__ import annotations

import typer
from typer.testing import CliRunner

from curation.cli import app
from tests.review.seeding import seed_competition, seed_translation

runner = CliRunner()


def curate(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "100"})


def command_paths(group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and subcommand of the app, as the words a user types."""
    paths = []
    for name, command in sorted(group.commands.items()):
        paths.append((*prefix, name))
        if getattr(command, "commands", None):  # a group: `curate review push`
            paths += command_paths(command, (*prefix, name))
    return paths


def test_every_command_has_a_help_text_without_a_default_it_does_not_have(project):
    paths = command_paths(typer.main.get_command(app))
    assert ("review", "pull") in paths and ("publish",) in paths and len(paths) > 15
    for path in paths:
        result = curate(*path, "--help")
        assert result.exit_code == 0, (path, result.output)
        text = " ".join(result.output.split())
        assert " ".join(path) + " [OPTIONS]" in text
        assert "./curate.toml" not in text  # the config is the nearest one up from the working folder
        assert "xlsx (default)" not in text  # the backend default is [review] backend in curate.toml
        if "--config" in text:
            assert "the nearest one in this folder or a folder above it" in text


def test_the_sheets_backend_is_the_one_curate_toml_names_when_backend_is_not_given(project, settings):
    from curation.store import Store

    with Store(settings.path("store")) as store:
        seed_competition(store, "titanic")
        seed_translation(store, "titanic", "domain", "kk", "деректер ғылымы")
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('backend = "xlsx"', 'backend = "sheets"'), encoding="utf-8")
    # the help says [review] backend is the default: without --backend the push goes to Google Sheets
    assert "GOOGLE_APPLICATION_CREDENTIALS" in curate("review", "push", "--lang", "kk").output
    assert curate("review", "push", "--lang", "kk", "--backend", "xlsx").exit_code == 0


def test_pull_without_lang_reads_the_languages_with_pushed_sheets_as_its_help_says(project, settings):
    from curation.store import Store

    assert "every language with pushed sheets" in " ".join(curate("review", "pull", "--help").output.split())
    with Store(settings.path("store")) as store:
        seed_competition(store, "titanic")
        for language in ("kk", "be"):
            seed_translation(store, "titanic", "domain", language, "деректер ғылымы")
    assert curate("review", "push", "--lang", "kk").exit_code == 0
    assert curate("review", "pull").output.strip() == "kk: 0 new verdicts, 0 new rubric scores, 0 already stored, " \
                                                      "0 rows not taken until corrected"
