"""Setup errors through the CLI: a store that cannot be written (found before any call is paid for), a curate.toml
that is not UTF-8, a --to path that cannot be written, an empty --lang. Each is one line naming the path or the
option and what to do, with exit 2, and nothing is lost."""

from __future__ import annotations


import pytest
from typer.testing import CliRunner

from curation.cli import app
from curation.store import Store
from tests.release.seeding import seed_store
from tests.unwritable import unwritable
from tests.test_cli_run import russian_project  # noqa: F401 (a fixture)


def curate(*args: str):
    return CliRunner().invoke(app, list(args))


def error_lines(result) -> list[str]:
    return [line for line in result.output.splitlines() if line.startswith("error:")]


def test_a_store_that_cannot_be_written_is_found_before_any_call_is_paid_for(russian_project, llm_server):
    assert curate("ingest").exit_code == 0
    store = russian_project / "data" / "curation.sqlite"
    undo = unwritable(store)
    try:
        result = curate("describe")
    finally:
        undo()

    assert result.exit_code == 2, result.output
    [line] = error_lines(result)
    assert line.startswith(f"error: {store}: the store cannot be written (attempt to write a readonly database); "
                           "make the file and its folder writable by you and rerun")
    assert "Traceback" not in result.output
    assert llm_server.count() == 0

    assert curate("describe").exit_code == 0  # writable again: the run goes ahead


def test_a_config_that_is_not_utf8_is_one_line(project):
    toml = project / "curate.toml"
    toml.write_bytes(toml.read_bytes() + "\n# notes by Zoë\n".encode("latin-1"))
    lines = toml.read_bytes().count(b"\n")

    result = curate("status")

    assert result.exit_code == 2, result.output
    assert error_lines(result) == [f"error: {toml}: line {lines} is not UTF-8 (byte 0xeb); save the file as UTF-8 "
                                   "in your editor"]


def test_a_to_path_that_cannot_be_written_is_one_line(project, settings, store: Store):
    seed_store(store, settings.project.languages, ["titanic"])
    (project / "notes.txt").write_text("mine", encoding="utf-8")

    result = curate("publish", "--version", "1.0.0", "--to", "notes.txt/ml2b")

    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [
        "notes.txt/ml2b: cannot create or read the release folder (Not a directory); give --to a folder you can "
        "write to", "nothing was published; notes.txt/ml2b is unchanged"]
    assert (project / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert store.releases() == []


@pytest.mark.parametrize("before", ["an empty folder", "a folder with v1.0.0"])
def test_a_to_folder_that_cannot_be_written_is_one_line_and_exit_2(project, settings, store: Store, before):
    seed_store(store, settings.project.languages, ["titanic"])
    release = project / "dist" / "ml2b"
    if before == "an empty folder":
        release.mkdir(parents=True)
    else:
        assert curate("publish", "--version", "1.0.0", "--to", "dist/ml2b").exit_code == 0
    listed = sorted(path.relative_to(release) for path in release.rglob("*"))
    undo = unwritable(release)
    try:
        result = curate("publish", "--version", "1.1.0", "--to", "dist/ml2b")
    finally:
        undo()

    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith("dist/ml2b: ") and "give --to a folder you can write to" in lines[0]
    assert lines[1] == "nothing was published; dist/ml2b is unchanged"
    assert sorted(path.relative_to(release) for path in release.rglob("*")) == listed
    assert [release.version for release in store.releases()] == ([] if before == "an empty folder" else ["1.0.0"])
    assert curate("publish", "--version", "1.1.0", "--to", "dist/ml2b").exit_code == 0  # writable again


@pytest.mark.parametrize("command", [["translate"], ["review", "push"], ["review", "pull"], ["merge"], ["status"], ["run"]])
def test_an_empty_language_selection_is_a_usage_error(project, command):
    result = curate(*command, "--lang", "")

    assert result.exit_code == 2, result.output
    assert error_lines(result) == ["error: --lang '' names no language; give ISO codes (e.g. kk,ru) or 'all'"]

