"""`curate check FILE`: the translation checks on a file of translations, as a curator runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curation.cli import app

runner = CliRunner()

SOURCE = "Predict the sale price of each house. The threshold is 0.5 for 1460 houses."
FR = "Prédisez le prix de vente de chaque maison. Le seuil est 0.5 pour 1460 maisons."
CARD = "The archive holds two files.\n- `train.csv`: 1460 rows.\n- `test.csv`: 1459 rows."
RU_CARD = "Архив содержит два файла.\n- `train.csv`: 1460 строк.\n- `test.csv`: 1459 строк."
ROWS = [
    {"id": "house/description/fr", "language": "fr", "field": "description", "source": SOURCE, "translation": FR},
    {"id": "house/description/es", "language": "es", "field": "description", "source": SOURCE,
     "translation": "Predice el precio de venta de cada casa. El umbral es 0,5 para 1460 casas."},
    {"id": "house/data_card/ru", "language": "ru", "field": "data_card", "source": CARD, "translation": RU_CARD},
    {"id": "vision/domain/zh", "language": "zh", "field": "domain", "source": "computer vision",
     "translation": "計算機視覺"},
]


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder that is no project: no curate.toml here or above."""
    folder = tmp_path / "audit"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return path


def test_a_file_from_anywhere_prints_one_line_per_failing_row(elsewhere):
    result = runner.invoke(app, ["check", str(write_jsonl(elsewhere / "fixes.jsonl", ROWS))])
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines == [
        "house/description/es (es description): numbers: 0.5 appears 0 times, the source has 1 (written '0,5': keep "
        "numbers exactly as in the source)",
        "vision/domain/zh (zh domain): script: traditional characters in simplified Chinese: 計機視覺 (simplified: 计机视觉)",
        "4 rows checked: 2 passed, 2 failed",
    ]


def test_json_prints_one_object_per_row(elsewhere):
    result = runner.invoke(app, ["check", str(write_jsonl(elsewhere / "fixes.jsonl", ROWS)), "--json"])
    assert result.exit_code == 1
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(o["id"], o["passed"]) for o in objects] == [
        ("house/description/fr", True), ("house/description/es", False), ("house/data_card/ru", True),
        ("vision/domain/zh", False)]
    assert objects[1]["failed"] == [{"check": "numbers", "detail": "0.5 appears 0 times, the source has 1 (written "
                                     "'0,5': keep numbers exactly as in the source)"}]
    assert objects[0]["failed"] == []


def test_every_row_passing_exits_0_and_csv_holds_multiline_cards(elsewhere):
    path = elsewhere / "fixes.csv"
    path.write_text('id,language,field,source,translation,comment\n'
                    f'h,fr,description,"{SOURCE}","{FR}",ok\n'
                    f'c,ru,data_card,"{CARD}","{RU_CARD}",\n', encoding="utf-8")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "2 rows checked: 2 passed, 0 failed"


def test_inside_a_project_its_settings_apply(project):
    (project / "curate.toml").write_text((project / "curate.toml").read_text(encoding="utf-8").replace(
        "default = [0.6, 1.9]", "default = [0.6, 1.9]\nfr = [1.2, 1.9]"), encoding="utf-8")
    path = write_jsonl(project / "fixes.jsonl", ROWS[:1])
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1
    assert "house/description/fr (fr description): length: length ratio 1.05 outside 1.20-1.90 (cut short?)" in result.stdout


@pytest.mark.parametrize("name,content,expected", [
    ("missing.jsonl", None, "missing.jsonl: no such file"),
    ("empty.csv", "", "empty.csv: the file is empty; it needs one row per translation with id, language, field, "
                      "source, translation"),
    ("latin1.csv", "id,language,field,source,translation\nx,fr,domain,finance,caf\xe9\n".encode("latin-1"),
     "latin1.csv: not UTF-8 (line 2, byte 0xe9); save the file as UTF-8 and run again"),
    ("nosource.csv", "id,language,field,translation\nx,fr,domain,finance\n",
     "nosource.csv row 1: missing column source; the header needs id, language, field, source, translation"),
])
def test_a_file_that_cannot_be_read_is_one_line_and_exit_2(elsewhere, name, content, expected):
    path = elsewhere / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [f"error: {path.parent}/{expected}"]


def test_bad_rows_are_named_and_the_others_still_checked(elsewhere):
    path = elsewhere / "mixed.jsonl"
    good = json.dumps(ROWS[0], ensure_ascii=False)
    path.write_text("\n".join([
        good,
        json.dumps({**ROWS[0], "language": "xx"}),
        "{not json",
        json.dumps({**ROWS[0], "field": "title"}),
        json.dumps({k: v for k, v in ROWS[0].items() if k != "translation"}),
        json.dumps(ROWS[1], ensure_ascii=False),
    ]) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"error: {path} line 2: unknown language code 'xx' (nearest: xh Xhosa); give one of the 75 ISO 639-1 codes the "
        "checks can read (lingua's languages): `curate languages --all` lists them",
        f"error: {path} line 3: not JSON (Expecting property name enclosed in double quotes); write one JSON object "
        "per line",
        f"error: {path} line 4: unknown field 'title'; use one of description, data_card, domain",
        f"error: {path} line 5: no translation; every row needs id, language, field, source, translation",
    ]
    assert result.stdout.splitlines()[-1] == "2 rows checked: 1 passed, 1 failed; 4 could not be read"
