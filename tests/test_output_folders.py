"""Files written whole into the project's folders (curation/output_folders.py): a partial file being written by a
live process is left alone; one a killed writer left is removed by the next write into its folder."""

from __future__ import annotations

import pytest

from curation.output_folders import clear_partials, write_whole

fcntl = pytest.importorskip("fcntl")


def test_a_live_writers_partial_file_stays_and_a_dead_ones_goes(tmp_path):
    live, dead = tmp_path / ".a.csv.1111.partial", tmp_path / ".b.csv.2222.partial"
    dead.write_bytes(b"half")
    with open(live, "xb") as writing:
        fcntl.flock(writing, fcntl.LOCK_EX)  # as write_whole holds it while writing

        write_whole(tmp_path / "c.csv", b"whole")

        assert live.exists() and not dead.exists()
        assert clear_partials(tmp_path) == 0
    assert clear_partials(tmp_path) == 1  # its writer is gone (closed, or killed)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["c.csv"]
    assert (tmp_path / "c.csv").read_bytes() == b"whole"
