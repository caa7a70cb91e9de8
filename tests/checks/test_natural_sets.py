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
