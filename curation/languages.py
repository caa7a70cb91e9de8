"""The language registry: ISO 639-1 code, English and native names, script, and the grading harness's file name.

LANGUAGES holds ML²B's own: the 13 default targets and Ukrainian, with the harness's file names ("Arab", "Belarus",
"Ukranian"). SUPPORTED adds every other language the translation checks can read, which is every language lingua
(the offline language identifier, curation/checks/language_id.py) has a model for: a curator extends a benchmark by
adding its code to `[project] languages`. A language of SUPPORTED's harness file is its English name; a project may
name it otherwise under `[languages.<code>]` in curate.toml (Settings.language applies that).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    code: str
    english: str
    native: str
    harness: str  # file name stem the ML²B grading harness uses: tasks/<harness>.csv
    script: str  # the writing system its text is expected in: Latin, Cyrillic, Arabic, Han, Japanese, Devanagari, ...


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

# The other languages lingua reads (code, English name, native name, script[, harness file when not the English name]).
_MORE = [
    ("af", "Afrikaans", "Afrikaans", "Latin"), ("sq", "Albanian", "Shqip", "Latin"),
    ("hy", "Armenian", "Հայերեն", "Armenian"), ("az", "Azerbaijani", "Azərbaycan dili", "Latin"),
    ("eu", "Basque", "Euskara", "Latin"), ("bn", "Bengali", "বাংলা", "Bengali"),
    ("bs", "Bosnian", "Bosanski", "Latin"), ("bg", "Bulgarian", "Български", "Cyrillic"),
    ("ca", "Catalan", "Català", "Latin"), ("hr", "Croatian", "Hrvatski", "Latin"),
    ("cs", "Czech", "Čeština", "Latin"), ("da", "Danish", "Dansk", "Latin"),
    ("nl", "Dutch", "Nederlands", "Latin"), ("eo", "Esperanto", "Esperanto", "Latin"),
    ("et", "Estonian", "Eesti", "Latin"), ("fi", "Finnish", "Suomi", "Latin"),
    ("lg", "Ganda", "Luganda", "Latin"), ("ka", "Georgian", "ქართული", "Georgian"),
    ("de", "German", "Deutsch", "Latin"), ("el", "Greek", "Ελληνικά", "Greek"),
    ("gu", "Gujarati", "ગુજરાતી", "Gujarati"), ("he", "Hebrew", "עברית", "Hebrew"),
    ("hi", "Hindi", "हिन्दी", "Devanagari"), ("hu", "Hungarian", "Magyar", "Latin"),
    ("is", "Icelandic", "Íslenska", "Latin"), ("id", "Indonesian", "Bahasa Indonesia", "Latin"),
    ("ga", "Irish", "Gaeilge", "Latin"), ("ko", "Korean", "한국어", "Hangul"),
    ("la", "Latin", "Latina", "Latin"), ("lv", "Latvian", "Latviešu", "Latin"),
    ("lt", "Lithuanian", "Lietuvių", "Latin"), ("mk", "Macedonian", "Македонски", "Cyrillic"),
    ("ms", "Malay", "Bahasa Melayu", "Latin"), ("mi", "Maori", "Te reo Māori", "Latin"),
    ("mr", "Marathi", "मराठी", "Devanagari"), ("mn", "Mongolian", "Монгол", "Cyrillic"),
    ("nb", "Norwegian Bokmål", "Norsk bokmål", "Latin", "Bokmal"),
    ("nn", "Norwegian Nynorsk", "Norsk nynorsk", "Latin", "Nynorsk"),
    ("fa", "Persian", "فارسی", "Arabic"), ("pt", "Portuguese", "Português", "Latin"),
    ("pa", "Punjabi", "ਪੰਜਾਬੀ", "Gurmukhi"), ("sr", "Serbian", "Српски", "Cyrillic"),
    ("sn", "Shona", "ChiShona", "Latin"), ("sk", "Slovak", "Slovenčina", "Latin"),
    ("sl", "Slovenian", "Slovenščina", "Latin"), ("so", "Somali", "Soomaali", "Latin"),
    ("st", "Sotho", "Sesotho", "Latin"), ("sw", "Swahili", "Kiswahili", "Latin"),
    ("sv", "Swedish", "Svenska", "Latin"), ("tl", "Tagalog", "Tagalog", "Latin"),
    ("ta", "Tamil", "தமிழ்", "Tamil"), ("te", "Telugu", "తెలుగు", "Telugu"),
    ("th", "Thai", "ไทย", "Thai"), ("ts", "Tsonga", "Xitsonga", "Latin"),
    ("tn", "Tswana", "Setswana", "Latin"), ("ur", "Urdu", "اردو", "Arabic"),
    ("vi", "Vietnamese", "Tiếng Việt", "Latin"), ("cy", "Welsh", "Cymraeg", "Latin"),
    ("xh", "Xhosa", "isiXhosa", "Latin"), ("yo", "Yoruba", "Yorùbá", "Latin"),
    ("zu", "Zulu", "isiZulu", "Latin"),
]

LANGUAGES: dict[str, Language] = {language.code: language for language in _REGISTRY}
BY_HARNESS_NAME: dict[str, Language] = {language.harness: language for language in _REGISTRY}
DEFAULT_LANGUAGES = ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"]


def _more(code: str, english: str, native: str, script: str, harness: str | None = None) -> Language:
    return Language(code, english, native, harness or english, script)


SUPPORTED: dict[str, Language] = {**LANGUAGES, **{entry[0]: _more(*entry) for entry in _MORE}}


class UnknownLanguage(ValueError):
    """A language code outside the registry."""


def parse_language(code: str) -> Language:
    """The registry entry for an ISO code; an unknown code raises naming the nearest codes and where to find all."""
    language = SUPPORTED.get(code.strip().lower())
    if language is None:
        raise UnknownLanguage(f"unknown language code {code!r}{_nearest(code)}; give one of the {len(SUPPORTED)} "
                              "ISO 639-1 codes the checks can read (lingua's languages): `curate languages --all` "
                              "lists them")
    return language


def _nearest(code: str) -> str:
    # A curator may write the name ("German", "hindi"), a three-letter code ("deu") or a typo ("kz").
    wanted = code.strip().casefold()
    names = {name.casefold(): language for language in SUPPORTED.values()
             for name in (language.code, language.english, language.native, _iso_639_3(language.code))}
    if wanted in names:
        found = [names[wanted]]
    else:
        close = difflib.get_close_matches(wanted, names, n=6, cutoff=0.75)
        found = list(dict.fromkeys(names[name] for name in close)) or [
            language for language in SUPPORTED.values() if language.code[0] == wanted[:1]]
    return f" (nearest: {', '.join(f'{language.code} {language.english}' for language in found[:4])})" if found else ""


def _iso_639_3(code: str) -> str:
    from lingua import IsoCode639_1
    from lingua import Language as Lingua

    return Lingua.from_iso_code_639_1(getattr(IsoCode639_1, code.upper())).iso_code_639_3.name


def by_harness_name(name: str) -> Language:
    """The registry entry for a grading-harness file name such as 'Belarus'."""
    try:
        return BY_HARNESS_NAME[name]
    except KeyError:
        raise UnknownLanguage(f"unknown harness language {name!r}; valid names: {', '.join(BY_HARNESS_NAME)}") from None
