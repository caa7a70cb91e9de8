import pytest
from lingua import Language as Lingua

from curation.languages import DEFAULT_LANGUAGES, LANGUAGES, SUPPORTED, UnknownLanguage, by_harness_name, parse_language


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


def test_every_language_lingua_reads_can_be_added_with_its_script():
    assert set(SUPPORTED) == {language.iso_code_639_1.name.lower() for language in Lingua.all()}
    for script in ("latin", "cyrillic", "arabic", "devanagari"):
        written = {language.iso_code_639_1.name.lower() for language in getattr(Lingua, f"all_with_{script}_script")()}
        assert written == {code for code, language in SUPPORTED.items() if language.script.lower() == script}
    assert (parse_language("de").english, parse_language("de").harness, parse_language("de").native) == (
        "German", "German", "Deutsch")
    assert (parse_language("hi").script, parse_language("ko").script, parse_language("el").script) == (
        "Devanagari", "Hangul", "Greek")
    assert len({language.harness for language in SUPPORTED.values()}) == len(SUPPORTED)  # one file per language


@pytest.mark.parametrize("written, nearest", [
    ("xx", "(nearest: xh Xhosa)"), ("deu", "(nearest: de German)"), ("German", "(nearest: de German)"),
    ("kz", "(nearest: kk Kazakh)"), ("jp", "(nearest: ja Japanese)"), ("ne", "(nearest: nl Dutch, nb Norwegian"),
])
def test_an_unknown_code_names_the_nearest_ones_and_where_to_find_all(written, nearest):
    with pytest.raises(UnknownLanguage) as error:
        parse_language(written)
    message = str(error.value)
    assert message.startswith(f"unknown language code {written!r} {nearest}")
    assert message.endswith("give one of the 75 ISO 639-1 codes the checks can read (lingua's languages): "
                            "`curate languages --all` lists them")
    assert "\n" not in message


def test_codes_are_read_case_and_space_blind():
    assert parse_language(" KK ").native == "Қазақ тілі"
