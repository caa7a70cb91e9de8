"""The seeded-error suite: complete in every language, and the checks meet issue 11's floors on it."""

from __future__ import annotations

from collections import Counter

import pytest

from curation.checks.encoders import encoder_name
from curation.checks.translation import check_translation
from curation.config import Settings
from curation.records import CheckResult
from tests.checks.seeded import (ADEQUACY, DEFECTS, DETERMINISTIC, LANGUAGES, Case, field_of, language_file, load_cases,
                                 sources)

CASES = load_cases()
LATIN = ("fr", "it", "pl", "ro", "es", "tr")  # no second script a model would answer these in


def test_every_language_translates_every_source_text():
    for language in LANGUAGES:
        assert sorted(language_file(language)["texts"]) == sorted(sources()), language
    assert {field_of(text_id) for text_id in sources()} == {"description", "data_card", "domain"}


def test_every_defect_class_is_seeded_in_every_language():
    counts = Counter((case.defect, case.language) for case in CASES if case.defect)
    for defect in DEFECTS:
        for language in LANGUAGES:
            if defect == "wrong_script" and language in LATIN:
                continue
            assert counts[defect, language] >= 1, (defect, language)


def test_broken_texts_differ_from_the_correct_ones():
    correct = {(case.language, case.text_id): case.translation for case in CASES if case.defect is None}
    for case in CASES:
        if case.defect:
            assert case.translation != correct[case.language, case.text_id], case
            assert case.translation.strip(), case


# -- the floors issue 11 sets: >= 95% of every defect class in every language, <= 2% false alarms ---------------


@pytest.fixture(scope="module")
def seeded_results() -> dict[Case, dict[str, CheckResult]]:
    """Each case of tests/checks/seeded/ -> every check's result by name (the default settings, no protected names).

    The suite's floors and the adequacy floors below read the same texts: computed once (a module runs in one xdist
    worker with --dist loadscope), the encoders embed each sentence once (e5 takes about a second a text for be, kk
    and ro, the bulk of this module's time). An invented
    clause in an e5 language is left out: that check works on whole sentences there, and no test reads it."""
    settings = Settings()
    return {case: {result.name: result for result in check_translation(case.source, case.translation,
                                                                         case.language, settings)}
            for case in load_cases()
            if not (case.note == "invented clause" and encoder_name(case.language) == "e5")}


@pytest.fixture(scope="module")
def outcomes(seeded_results) -> list[tuple[Case, list[str]]]:
    """Each case of the deterministic classes (and each correct text) with the checks that failed it."""
    return [(case, [name for name, result in results.items() if not result.passed])
            for case, results in seeded_results.items() if case.defect is None or case.defect in DETERMINISTIC]


def test_every_deterministic_defect_class_is_caught_in_every_language(outcomes):
    caught, total = Counter(), Counter()
    for case, failed in outcomes:
        if case.defect:
            total[case.defect, case.language] += 1
            caught[case.defect, case.language] += bool(failed)
    low = {key: f"{caught[key]}/{count}" for key, count in total.items() if caught[key] < 0.95 * count}
    assert low == {}
    assert {defect for defect, _ in total} == set(DETERMINISTIC)


def test_false_alarms_on_correct_texts_stay_under_two_percent(outcomes):
    correct = [(case, failed) for case, failed in outcomes if case.defect is None]
    alarms = [(case.language, case.text_id, failed) for case, failed in correct if failed]
    assert len(alarms) <= 0.02 * len(correct), alarms


# -- the adequacy check's floors (issue 14), on the same results ------------------------------------------------


def test_the_seeded_suite_floors_hold_for_additions_and_omissions(seeded_results):
    """Floors on tests/checks/seeded/: every invented sentence or column and every dropped middle sentence or line
    caught in every language, and invented clauses in the USE languages; no correct text failed. (For be, kk and ro
    the check works on whole sentences: e5 does not tell an invented clause from a correct one, see adequacy.py.)"""
    caught, total, alarms = Counter(), Counter(), []
    for case, results in seeded_results.items():  # an invented clause in be, kk, ro is not in it
        if case.defect is not None and case.defect not in ADEQUACY:
            continue
        result = results["adequacy"]
        if case.defect is None:
            if not result.passed:
                alarms.append((case.language, case.text_id, result.detail))
            continue
        total[case.defect, case.language] += 1
        caught[case.defect, case.language] += not result.passed
    assert alarms == []
    assert {defect for defect, _ in total} == set(ADEQUACY)
    assert {key: f"{caught[key]}/{n}" for key, n in total.items() if caught[key] < n} == {}
