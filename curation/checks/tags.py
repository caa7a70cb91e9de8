"""Short texts (domain tags, names of a few words): cut short, or grown by a part the English does not have.

A tag has no sentences to align, so its checks are lexical, from the word lists of curation/checks/lexicon/:
- cut short: too few letters for the English (a Han character counts as three letters: it carries a morpheme; a
  Hangul syllable as two); it ends with a word a complete tag never ends with ("salud y", "транспорт и"); one word
  left of several English words ("kentsel" for "urban mobility"; terms the languages write as one word, such as
  "real estate" or "social media", are listed in lexicon/en.toml; a compound a translator coins, "agroalimentaire"
  for "agriculture and food", is taken as whole when the sentence encoder finds it about as close to the whole tag as
  to its nearest English word, as for Chinese and Japanese below, or when the language's word frequencies say it is
  rare: a term of art or a coinage, "мореведение" for "maritime studies", not the everyday word a cut leaves,
  "морские"; under e5, whose cosines of single words do not tell the two apart, and without a word list that reaches
  that far, it is flagged for a person to look at); for Chinese, fewer than two characters per English word;
- grown: more parts joined by a conjunction than the English has ("real estate" -> "nieruchomości i budownictwo",
  "العقارات والبناء").
An acronym (SNS, IoT) is a whole rendering of a tag in any language.
"""

from __future__ import annotations

import re

from curation.checks.encoders import EncoderUnavailable, encoder_name, vectors
from curation.checks.lexicon import lexicon
from curation.checks.prose import words
from curation.checks.scripts import letter_script
from curation.checks.word_frequency import rare
from curation.languages import parse_language

# Sources shorter than this (in characters of prose) are tags and names.
SHORT_SOURCE_CHARS = 40
# A short text's length, in letters with a Han character worth this many, may not fall below this share of the
# English letters: "エネルギー" for "energy forecasting" is cut, "金融" for "finance" is whole.
HAN_WEIGHT = 3
# A Hangul character is a whole syllable: "금융" (two) is "finance" (seven letters).
HANGUL_WEIGHT = 2
SHORT_LOW = {"zh": 0.4, "ja": 0.5, "default": 0.3}
# Chinese renders an English content word with two characters or more: "计算机" for "computer vision" is cut.
HAN_PER_WORD = 2
# A Chinese or Japanese tag is taken as the whole term when it is at most this much closer to one English word than
# to the whole tag (USE cosines on the calibration set: whole terms up to 0.03 but for three of 60, cut ones from
# 0.046, most above 0.08).
WHOLE_TERM_MARGIN = 0.03
# The same test for a one-word rendering in a spaced script (USE languages only): on the calibration sets one-word
# cuts ("qualité" for "air quality") were from 0.109 closer to an English word than to the whole tag, whole
# renderings from 0.013 ("agroalimentaire") to 0.217 ("мореведение"); this margin spares the closest of them and
# keeps a margin of 0.05 below the lowest cut. Under e5 cut and whole words overlapped (-0.002 to 0.037 against 0.005).
SPACED_WHOLE_TERM_MARGIN = 0.06
# A one-word rendering rarer than this (Zipf: under once in ten million words) is a coined compound or a term of art
# for the whole tag ("vélopartage", "антифрод", "agroalimentación", "kredytowanie": 0 to 1.74 on the calibration
# sets), not the everyday word a cut leaves ("calidad" 5.1, "prévision" 3.8, "prognozowanie" 2.47, the rarest of the
# cuts but one: Polish "kompletacja", 1.01, for "warehouse order picking"). Languages with a large wordfreq list only.
RARE_WORD_ZIPF = 2.0
_ACRONYM = re.compile(r"^[A-Z][A-Za-z]{0,2}[A-Z]$")


def is_short(source_prose: str) -> bool:
    """Whether an English text is a tag or a name rather than sentences."""
    return len(" ".join(source_prose.split())) < SHORT_SOURCE_CHARS


def is_acronym(text: str) -> bool:
    """SNS, IoT, NLP: a tag written as an acronym, which every language may do."""
    return bool(_ACRONYM.match(text.strip()))


def _weight(text: str) -> int:
    weights = {"Han": HAN_WEIGHT, "Hangul": HANGUL_WEIGHT}
    return sum(weights.get(letter_script(char), 1) for char in text if char.isalpha())


def content_words(source_prose: str) -> int:
    """How many content words an English tag has (a term the languages write as one word counts one)."""
    english = lexicon("en")
    term = " ".join(word.casefold() for word in words(source_prose))
    if term in english.one_word_terms:
        return 1
    return len([word for word in words(source_prose) if word.casefold() not in english.function_words])


def _whole_term(source: str, translated: str, margin: float = WHOLE_TERM_MARGIN) -> bool:
    """Whether a short rendering stands for the whole English tag, not for one of its words: Chinese and Japanese
    pack a term into few characters (物联网 for "internet of things", 海事学 for "maritime studies"), other languages
    coin one word for it ("agroalimentaire"), so its length alone cannot tell it from a cut (海事, 计算机 for
    "computer vision", "qualité" for "air quality"). The sentence encoder can: a cut rendering is more than `margin`
    closer to one English word than to the whole tag."""
    english = lexicon("en")
    parts = [word for word in words(source) if word.casefold() not in english.function_words]
    if len(parts) < 2:
        return False
    try:
        vector = vectors("use", [translated, source, *parts])
    except EncoderUnavailable:
        return False
    whole, best_part = float(vector[0] @ vector[1]), max(float(vector[0] @ part) for part in vector[2:])
    return best_part - whole <= margin


def _tokens(text: str, language: str) -> list[str]:
    if parse_language(language).script in ("Han", "Japanese"):
        return [text.strip()]
    return [token.casefold() for token in re.findall(r"[^\W\d_]+(?:['’ʼ-][^\W\d_]+)*|&", text)]


def cut_short(source_prose: str, translated_prose: str, language: str) -> str | None:
    """Why a translated tag looks cut short, or None."""
    source, translated = source_prose.strip(), " ".join(translated_prose.split())
    if is_acronym(translated):
        return None
    ratio = _weight(translated) / max(1, _weight(source))
    low = SHORT_LOW.get(language, SHORT_LOW["default"])
    cjk = parse_language(language).script in ("Han", "Japanese")
    if ratio < low and not (cjk and _whole_term(source, translated)):
        return f"{ratio:.2f} of the English letters, at least {low:.2f} expected for a short text (cut short?)"
    tail = lexicon(language).tag_tail
    if parse_language(language).script in ("Han", "Japanese"):
        ending = next((word for word in sorted(tail, key=len, reverse=True) if translated.endswith(word)), None)
    else:
        tokens = _tokens(translated, language)
        ending = tokens[-1] if tokens and tokens[-1] in tail and len(tokens) > 1 else None
    if ending and not source.casefold().endswith(ending):
        return f"it ends with {ending!r}, which a complete tag does not (cut short?)"
    content = content_words(source)
    if language == "zh":
        han = sum(1 for char in translated if letter_script(char) == "Han")
        if han < HAN_PER_WORD * content and not _whole_term(source, translated):
            return f"{han} characters for the {content} word(s) of {source!r} (cut short?)"
        return None
    spaced = parse_language(language).script not in ("Han", "Japanese")
    if spaced and content >= 2 and len(words(translated)) == 1 and not (
            encoder_name(language) == "use" and _whole_term(source, translated, SPACED_WHOLE_TERM_MARGIN)) and not (
            rare(words(translated)[0].casefold(), language, RARE_WORD_ZIPF)):
        return f"one word for the {content} of {source!r} (cut short?)"
    return None


def _parts(text: str, language: str) -> int:
    """How many parts a tag joins with conjunctions (and, or, &, a comma)."""
    words_ = lexicon(language)
    if parse_language(language).script in ("Han", "Japanese"):
        # ・ between two katakana words spells one loanword (ソーシャル・メディア); between others it means "and".
        text = re.sub(r"(?<=[\u30a0-\u30ff])・(?=[\u30a0-\u30ff])", "", text)
        joints = sum(text.count(word) for word in words_.conjunctions)
    else:
        tokens = _tokens(text, language)
        joints = sum(1 for token in tokens[1:] if token in words_.conjunctions)
        if words_.conjunction_prefix:
            joints += sum(1 for token in tokens[1:] if token.startswith(words_.conjunction_prefix + "ال"))
    return 1 + joints + text.count(",") + text.count("،")


def grown(source_prose: str, translated_prose: str, language: str) -> str | None:
    """What a translated tag has that the English does not: a part joined by a conjunction, or None."""
    english, translated = _parts(source_prose, "en"), _parts(translated_prose, language)
    if translated > english:
        return (f"added: {' '.join(translated_prose.split())!r} joins {translated} parts where the English "
                f"{source_prose.strip()!r} has {english}")
    return None
