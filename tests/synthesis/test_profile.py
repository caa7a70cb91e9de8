"""Profiling raw datasets: columns as a curator would read them, and one line per unusable file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from curation.synthesis.profile import profile_dataset
from tests.synthesis.datasets import houses, sales


def lines(result) -> list[str]:
    return [problem.line() for problem in result.problems]


def test_columns_keys_and_duplicates(tmp_path: Path):
    folder = houses(tmp_path)
    frame = pd.read_csv(folder / "houses.csv")
    frame["size_copy"] = frame["size_m2"]
    frame["country"] = "nl"
    frame.to_csv(folder / "houses.csv", index=False)
    result = profile_dataset(folder, max_rows=10_000)
    assert lines(result) == []
    table = result.profile.tables[0]
    assert (table.file, table.rows, table.sampled) == ("houses.csv", 400, False)
    assert table.column("house_id").id_like and not table.column("price").id_like
    assert table.column("district").kind == "categorical" and table.column("district").distinct == 4
    assert table.column("size_copy").duplicate_of == "size_m2"
    assert table.column("country").constant
    assert "price" in table.plausible_targets() and "house_id" not in table.plausible_targets()
    assert (result.profile.license, result.profile.origin) == ("CC0-1.0", "a town registry")
    assert sales(tmp_path) and profile_dataset(tmp_path / "sales", 10_000).profile.tables[0].column("date").kind == "datetime"


def test_bad_files_are_one_line_each_and_the_rest_is_profiled(tmp_path: Path):
    folder = houses(tmp_path)
    (folder / "photo.png").write_bytes(b"\x89PNG\r\n")
    (folder / "empty.csv").write_text("")
    (folder / "header_only.csv").write_text("a,b\n")
    (folder / "single.csv").write_text("only\n1\n2\n3\n")
    (folder / "latin.csv").write_bytes("name,city\nJosé,Málaga\n".encode("latin-1"))
    result = profile_dataset(folder, max_rows=10_000)
    assert [table.file for table in result.profile.tables] == ["houses.csv"]
    found = {Path(line.split(":")[0]).name: line for line in lines(result)}
    assert "not a tabular file" in found["photo.png"]
    assert "is empty" in found["empty.csv"]
    assert "no rows" in found["header_only.csv"]
    assert "single column" in found["single.csv"]
    assert "not UTF-8 (byte 0xe9" in found["latin.csv"]
    assert len(result.problems) == 5


def test_a_large_file_is_sampled_and_said(tmp_path: Path):
    folder = houses(tmp_path)
    result = profile_dataset(folder, max_rows=100)
    table = result.profile.tables[0]
    assert (table.rows, table.profiled_rows, table.sampled) == (400, 100, True)
    assert lines(result) == [f"{folder / 'houses.csv'}: has 400 rows, more than the 100 kept in memory: profiled and "
                             "split on a seeded sample of 100 rows"]
    assert profile_dataset(folder, max_rows=100).profile.tables == result.profile.tables  # the same sample each run


def test_no_plausible_target_is_said(tmp_path: Path):
    folder = tmp_path / "keys"
    folder.mkdir()
    pd.DataFrame({"id": range(100), "constant": 1, "note": [f"a long free-text remark number {i} " * 3 for i in range(100)]}
                 ).to_csv(folder / "keys.csv", index=False)
    result = profile_dataset(folder, max_rows=1000)
    assert result.profile.tables == []
    assert lines(result) == [f"{folder}: no plausible target column (every column is constant, a key, free text or "
                             "mostly missing); nothing to synthesize"]


def test_tsv_and_parquet_are_read(tmp_path: Path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    frame = pd.DataFrame({"x": np.arange(50), "y": np.arange(50) % 3})
    frame.to_csv(folder / "a.tsv", sep="\t", index=False)
    frame.to_parquet(folder / "b.parquet")
    result = profile_dataset(folder, max_rows=1000)
    assert [(t.file, len(t.columns), t.rows) for t in result.profile.tables] == [("a.tsv", 2, 50), ("b.parquet", 2, 50)]
