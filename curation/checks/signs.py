"""Tell-tale letters, spellings and words: hard evidence that a text is in a neighbour of the target language.

Language identification guesses; a letter the target's alphabet lacks does not. The alphabets, spellings and
neighbour words come from curation/checks/lexicon/<code>.toml. Only the text's own words count: proper names with
capitals are left out, so "São Paulo" in a Spanish text or "Київ" in a Russian one prove nothing.
- Letters: in a Cyrillic or Arabic text any letter of that script the target's alphabet lacks (і in Russian, и in
  Belarusian, Persian پ in Arabic); in a Latin-script text any accented letter it lacks (ã in Spanish, ə in
  Turkish), since plain a–z come with English terms.
- Spellings a language never has: ть in Belarusian, кы or doubled vowels in Kazakh, -dade in Spanish, q in Turkish.
- Words only a neighbour writes: Ukrainian "та", Kyrgyz "жана", Portuguese "dados", Persian "داده"; endings only a
  neighbour writes: Russian -ого, -ость, -ение in Kazakh.
- Words a neighbour writes every day and the target a thousand times less often, by word frequencies
  (curation/checks/word_frequency.py): Spanish "tienen" in Romanian, Italian "rischio" in Spanish.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection

from curation.checks.lexicon import lexicon
from curation.checks.prose import in_capitals
from curation.checks.scripts import letter_script
from curation.checks.word_frequency import neighbour_words_in
from curation.languages import SUPPORTED, parse_language

# Neighbours the word lists name that lingua does not read.
_NAMES = {"ky": "Kyrgyz", "gl": "Galician"}


# Arabic short vowels and other marks written above or below a letter: part of the word, not a break in it.
_MARKS = re.compile("[\u064b-\u065f\u0670\u06d6-\u06ed]")


_WORD = re.compile(r"[^\W\d_]+(?:['’ʼ][^\W\d_]+)*")
# What may stand before the first word of a sentence: nothing, a sentence's end, a list marker, a dash or a colon.
_STARTS = re.compile(r"(?:^|[.!?:;—–•*\-]|\d[.)])[\s\"'«„“(]*$")


def _own_words(text: str) -> list[str]:
    # No capitalised word inside a sentence: it may be a name from anywhere (scripts without case have none). A
    # sentence's first word is capitalised because it comes first: it is the text's own (the English text's names
    # are not in the text the checks read).
    text = _MARKS.sub("", text)
    return [match.group(0) for match in _WORD.finditer(text)
            if not match.group(0)[0].isupper() or _STARTS.search(text[:match.start()])]


def _name(code: str) -> str:
    return SUPPORTED[code].english if code in SUPPORTED else _NAMES.get(code, code)


# Units named after a person keep the letters of the name in every language that writes them in Latin letters: the
# ångström (and its symbol Å) is no Swedish word in a Turkish materials text.
_UNIT_NAMES = re.compile(r"å|ångstr[öo]m\w*")


def foreign_letters(text: str, language: str) -> list[str]:
    """The letters of the text's own words that the target's alphabet lacks (see the module's docstring)."""
    words = lexicon(language)
    if not words.alphabet:
        return []
    script = parse_language(language).script
    if script == "Arabic":  # uncased: read every letter, and the zero-width non-joiner Persian writes inside words
        found = {char for char in text if letter_script(char) == "Arabic" and char not in words.alphabet}
        return sorted(found | ({"\u200c"} if "\u200c" in text else set()))
    found = set()
    for word in _own_words(text):
        if _UNIT_NAMES.fullmatch(word.casefold()):
            continue
        for char in word.casefold():
            if char in words.alphabet or (letter_script(char) != script and not (
                    script == "Cyrillic" and char in "'’ʼ")):  # an apostrophe inside a word: Ukrainian, Belarusian
                continue
            if script == "Latin" and char.isascii():
                continue
            found.add(char)
    return sorted(found)


def foreign_signs(text: str, language: str, english: Collection[str] = ()) -> str | None:
    """What gives the text away as not the target language (letters, a spelling or a neighbour's word), or None. A
    word that shares its start, the spelling included, with a word of the English source (`english`, lowercase) is a
    loan with the language's ending, not a neighbour's spelling: Turkish "quizleri" for "quizzes"."""
    code = parse_language(language).code
    found = foreign_letters(text, code)
    if found:
        shown = "".join("ZWNJ" if char == "\u200c" else char for char in found)
        return f"letters the {_name(code)} alphabet lacks: {shown}"
    words = lexicon(code)
    written = _own_words(text)
    own = [word.casefold() for word in written]
    if words.spelling is not None:
        # an abbreviation in capitals spells no word: Kazakh "ЖОО" (a university) has no Kyrgyz long vowel
        spelled = [word.casefold() for word in written if not in_capitals(word)]
        hits = [word for word in spelled if words.spelling.search(word) and not _loan(word, english, words.spelling)]
        if hits:
            return f"{', '.join(dict.fromkeys(hits[:3]))}: {words.spelling_note}"
    unspaced = parse_language(code).script in ("Han", "Japanese")  # words are not separated: look inside the text
    for neighbour, tells in words.neighbour_words.items():
        hits = [word for word in tells if word in text] if unspaced else [word for word in own if word in tells]
        if hits:
            return f"{', '.join(dict.fromkeys(hits[:3]))}: {_name(neighbour)}, not {_name(code)}"
    for neighbour, ending in words.neighbour_endings.items():
        hits = [word for word in own if ending.search(word)]
        if hits:
            return f"{', '.join(dict.fromkeys(hits[:3]))}: {_name(neighbour)} endings, not {_name(code)}"
    frequent = neighbour_words_in((word for word in own if word not in english and word not in words.loans),
                                  code, words.frequency_neighbours)
    if frequent:
        neighbour, hits = frequent
        shown = list(dict.fromkeys(hits))[:3]
        what = f"everyday {_name(neighbour)} words" if len(shown) > 1 else f"an everyday {_name(neighbour)} word"
        return f"{', '.join(shown)}: {what}, rare in {_name(code)}"
    return None


def _loan(word: str, english: Collection[str], spelling: re.Pattern[str]) -> bool:
    """Whether the word starts as an English word of the source does, for 4 letters or more that hold the spelling,
    and goes on otherwise (an English word left whole is an echo, not a loan)."""
    return word not in english and any(len(start) >= 4 and spelling.search(start)
                                       for start in (os.path.commonprefix([word, loan]) for loan in english))
