"""The language registry: ISO 639-1 code, English and native names, script, and the grading harness's file name."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    code: str
    english: str
    native: str
    harness: str  # file name stem the ML²B grading harness uses: tasks/<harness>.csv
    script: str  # the writing system its text is expected in: Latin, Cyrillic, Arabic, Han, Japanese


_REGISTRY = [
    Language("ar", "Arabic", "العربية", "Arab", "Arabic"),
    Language("be", "Belarusian", "Беларуская", "Belarus", "Cyrillic"),
    Language("zh", "Chinese", "中文", "Chinese", "Han"),
    Language("en", "English", "English", "English", "Latin"),
    Language("ru", "Russian", "Русский", "Russian", "Cyrillic"),
    Language("fr", "French", "Français", "French", "Latin"),
    Language("it", "Italian", "Italiano", "Italian", "Latin"),
    Language("ja", "Japanese", "日本語", "Japanese", "Japanese"),
    Language("kk", "Kazakh", "Қазақ тілі", "Kazakh", "Cyrillic"),
    Language("pl", "Polish", "Polski", "Polish", "Latin"),
    Language("ro", "Romanian", "Română", "Romanian", "Latin"),
    Language("es", "Spanish", "Español", "Spanish", "Latin"),
    Language("tr", "Turkish", "Türkçe", "Turkish", "Latin"),
    # The harness spells this file name so; it is kept as the harness expects it.
    Language("uk", "Ukrainian", "Українська", "Ukranian", "Cyrillic"),
]

LANGUAGES: dict[str, Language] = {language.code: language for language in _REGISTRY}
BY_HARNESS_NAME: dict[str, Language] = {language.harness: language for language in _REGISTRY}
DEFAULT_LANGUAGES = ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"]


class UnknownLanguage(ValueError):
    """A language code outside the registry."""


def parse_language(code: str) -> Language:
    """The registry entry for an ISO code; an unknown code raises with the list of valid ones."""
    language = LANGUAGES.get(code.strip().lower())
    if language is None:
        raise UnknownLanguage(f"unknown language code {code!r}; valid codes: {', '.join(LANGUAGES)}")
    return language


def by_harness_name(name: str) -> Language:
    """The registry entry for a grading-harness file name such as 'Belarus'."""
    try:
        return BY_HARNESS_NAME[name]
    except KeyError:
        raise UnknownLanguage(f"unknown harness language {name!r}; valid names: {', '.join(BY_HARNESS_NAME)}") from None
