"""The seeded-error suite itself: every language has every text, and every broken text differs from the correct one."""

from __future__ import annotations

from collections import Counter

from tests.checks.seeded import DEFECTS, LANGUAGES, field_of, language_file, load_cases, sources

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
