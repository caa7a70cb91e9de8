"""The benchmark's kinds of finding (scripts/bench_translation_checks.py): a held-out set's false alarms told apart
by source in the checks' own words, never with words of the texts."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

from curation.checks.translation import check_translation
from curation.config import Settings
from curation.records import CheckResult
from tests.checks.seeded import load_cases

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench_translation_checks.py"
_spec = importlib.util.spec_from_file_location("bench_translation_checks", SCRIPT)
bench = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = bench  # its dataclasses look their module up
_spec.loader.exec_module(bench)


def test_labelled_findings_are_named_by_label_and_a_quote_holding_a_label_adds_none():
    detail = ("negation: line 3 'Cada notificación; direction: x' has no negation where English line 3 'None of the "
              "reports; unit: y' says 'none'; direction: line 4 'Значэнні ніжэй' says 'ніжэй' (less)")
    assert bench.finding_kinds(CheckResult(name="meaning", passed=False, detail=detail)) == [
        "meaning negation", "meaning direction"]


def test_unlabelled_findings_keep_the_checks_words_and_drop_the_texts():
    kinds = [bench.finding_kinds(CheckResult(name=name, passed=False, detail=detail))[0] for name, detail in (
        ("length", "one word for the 2 of 'maritime studies' (cut short?)"),
        ("not_copy", "line 5 'Les aquariums publics' leaves aquariums, public in English"),
        ("language", "'Маці' is not Belarusian"),
        ("numbers", "0.5 appears 0 times in the translation, 1 in the source"))]
    assert kinds == ["length one word for", "not_copy", "language", "numbers appears times in"]


def test_no_word_of_a_checked_text_reaches_a_kind():
    # every seeded broken text the checks flag: the kinds hold ASCII words of the checks' templates only
    settings = Settings()
    seen = 0
    for case in [case for case in load_cases() if case.defect][::25]:
        translated = {word.casefold() for word in re.findall(r"[^\W\d_]+", case.translation)}
        english = {word.casefold() for word in re.findall(r"[^\W\d_]+", case.source)}
        for result in check_translation(case.source, case.translation, case.language, settings):
            if result.passed:
                continue
            seen += 1
            for kind in bench.finding_kinds(result):
                name, *rest = kind.split(" ")
                assert name == result.name and all(re.fullmatch(r"[a-z_]+", word) for word in rest), kind
                assert not (set(rest) & (translated - english) - {"in", "of", "the"}), (kind, case.text_id)
    assert seen > 20
