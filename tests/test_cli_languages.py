"""`curate languages`: each configured language with its names, script, harness file and the checks' coverage;
`--all` the codes a curator may add."""

from __future__ import annotations

from typer.testing import CliRunner

from curation.cli import app


def curate(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "400"})


def test_curate_languages_lists_each_language_with_its_harness_file_and_checks(project) -> None:
    toml = project / "curate.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('languages = ["ar", "be",', 'languages = ["ko", "ar", "be",')
                    + '\n[languages.ko]\nharness = "Korean_KR"\n', encoding="utf-8")

    result = curate("languages")

    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "en  English: the source language, tasks/English.csv"
    assert lines[1] == "ko  Korean (한국어), Hangul script, tasks/Korean_KR.csv"
    assert lines[2] == ("    checks: placeholders, numbers, language (lingua, against English), script (Hangul), "
                        "length 0.25-1.00, not_copy, adequacy (Universal Sentence Encoder)")
    assert lines[3].startswith("    not yet: no word lists (curation/checks/lexicon/ko.toml): lingua alone tells it")
    assert "ar  Arabic (العربية), Arabic script, tasks/Arab.csv" in lines
    every = curate("languages", "--all").output.splitlines()
    assert len(every) == 76 and "de  German (Deutsch), Latin script" in every
    assert "kk  Kazakh (Қазақ тілі), Cyrillic script  (configured)" in every
