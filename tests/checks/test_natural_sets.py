"""Every natural set (tests/checks/natural/, FORMAT.md and MEANING.md) is well formed: it parses, names only known
defect classes and languages, and its correct translations keep every backticked span of the English as often as
the English has it (a translation that lost one is broken, whatever its label says)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from tests.checks import natural

_SPAN = re.compile(r"`[^`\n]+`")


@pytest.mark.parametrize("name", natural.SETS)
def test_a_natural_set_is_well_formed(name):
    cases = natural.load(name)
    assert cases, f"{name} holds no translation"
    classes = {None, *natural.DEFECTS, *natural.MEANING_DEFECTS}
    assert {case.defect for case in cases} <= classes, {case.defect for case in cases} - classes
    assert {case.language for case in cases} <= set(natural.LANGUAGES)
    for case in cases:
        if case.defect is None:
            wanted = Counter(_SPAN.findall(case.source))
            got = Counter(_SPAN.findall(case.translation))
            assert all(got[span] >= count for span, count in wanted.items()), (
                name, case.language, case.text_id, wanted - got)


def test_each_held_out_set_reads_its_own_folders():
    # a set that read another's folders would report the other's texts as its own (and --tenth-heldout did, for a
    # moment, when the eleventh was registered)
    seen: dict[str, str] = {}
    for ordinal, (surface, meaning) in natural.HELDOUT_SETS.items():
        assert all(name.startswith("heldout_") for name in surface), (ordinal, surface)
        assert all(name.startswith("meaning_heldout_") for name in meaning), (ordinal, meaning)
        for name in (*surface, *meaning):
            assert name not in seen, (ordinal, name, seen.get(name))  # (every one is in SETS: SETS is made of them)
            seen[name] = ordinal


def test_every_set_folder_is_registered():
    # a folder left out of its group is neither tuned on, reported, nor checked for its form (calibration_6a … _6k
    # were in SURFACE_CALIBRATION but not in the list of sets this file checks, until SETS was made of the groups)
    on_disk = {path.parent.name for path in natural.HERE.glob("*/sources.json")}
    assert on_disk == set(natural.SETS), on_disk ^ set(natural.SETS)
