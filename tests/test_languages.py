import pytest

from curation.languages import DEFAULT_LANGUAGES, LANGUAGES, UnknownLanguage, by_harness_name, parse_language


def test_registry_has_the_thirteen_defaults_and_ukrainian():
    assert DEFAULT_LANGUAGES == ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"]
    assert set(LANGUAGES) == set(DEFAULT_LANGUAGES) | {"uk"}


def test_harness_names_map_both_ways():
    expected = {
        "en": "English", "ar": "Arab", "zh": "Chinese", "it": "Italian", "kk": "Kazakh", "pl": "Polish",
        "ro": "Romanian", "es": "Spanish", "tr": "Turkish", "be": "Belarus", "ja": "Japanese", "ru": "Russian",
        "fr": "French", "uk": "Ukranian",
    }
    for code, harness in expected.items():
        assert LANGUAGES[code].harness == harness
        assert by_harness_name(harness).code == code


def test_unknown_code_lists_the_valid_ones():
    assert parse_language(" KK ").native == "Қазақ тілі"
    with pytest.raises(UnknownLanguage) as error:
        parse_language("xx")
    assert "'xx'" in str(error.value) and "be" in str(error.value) and "uk" in str(error.value)
