"""Tell-tale letters and spellings: hard evidence that a text is in a neighbour of the target language.

Language identification guesses; a letter the target's alphabet lacks does not. These are the letters the
neighbours a model confuses a language with write and the target never does (in its own words: proper names
with capitals are left out, so "São Paulo" in a Spanish text or "Київ" in a Russian one prove nothing), and a
few spellings that give a neighbour away where the alphabets agree:
- Belarusian has no ть, дь, ті, ді (it writes ць, дзь, ці, дзі): "мобільність" is Ukrainian;
- Kazakh never doubles ү or ө, nor ends a word in a long vowel: "көрүү", "болжолдоо" are Kyrgyz;
- Spanish writes -dad where Portuguese and Galician write -dade: "mobilidade" is not Spanish;
- Turkish has no q in its own words: lowercase "proqnoz" is Azerbaijani.
"""

from __future__ import annotations

import re

from curation.languages import LANGUAGES

# Letters each target's alphabet lacks, that a neighbour writes (lowercase and capital).
_FOREIGN = {
    "be": "ищъәғқңөұүһєїґ",
    "ru": "іўәғқңөұүһєїґ",
    "uk": "ыэъёўәғқңөұүһ",
    "kk": "ўєїґҳҗҙҡҫӣӯҷ",  # Belarusian/Ukrainian, Uzbek ҳ, Tatar җ, Bashkir ҙ ҡ ҫ, Tajik ӣ ӯ ҷ
    # Persian and Urdu letters, Persian digits, and the zero-width non-joiner Persian writes inside words.
    "ar": "پچژگکیۀےہٹڈڑںۓ۰۱۲۳۴۵۶۷۸۹\u200c",
    "tr": "əäňýžãõñáéíóúàèòêâôșțăłśźżčřěů",
    "es": "ãõçàèòâêôșțăîłśźżčřěůšžýäëïößə",
    "it": "ñãõçáíúâêôșțăîłśźżčřěůšžýäöüßə",
    "fr": "ñãõáíóúìòąęłșțăśźżčřěůšžýäößə",
    "pl": "čřěůšžýáéíúäôľĺŕňťďãõñçàèìòùâêîșțăəöü",
    "ro": "àèéìòùñçãõáíóúäöüêôłśźżčřěůšžýə",
}
_SPELLINGS = {
    "be": (re.compile(r"[тд][ьі]"), "ть, дь, ті or ді, which Belarusian writes ць, дзь, ці, дзі"),
    # оо and уу only at a word's end: кооперация and вакуум are Kazakh too.
    "kk": (re.compile(r"үү|өө|аа|ээ|ыы|(?:оо|уу)\b"), "doubled vowels (Kyrgyz spelling)"),
    # Spanish ends such words in -dad: "mobilidade" is Portuguese or Galician.
    "es": (re.compile(r"dade\b"), "the ending -dade (Portuguese or Galician spelling)"),
    # q only: Turkish borrows w and x ("tweet", "x" of 28x28), never q.
    "tr": (re.compile(r"q"), "q, which Turkish words never have"),
}


def _own_words(text: str) -> list[str]:
    # Lowercase words only: a capitalised word may be a name from anywhere.
    return [word for word in re.findall(r"[^\W\d_]+", text) if word[0].islower()]


def foreign_signs(text: str, language: str) -> str | None:
    """What gives the text away as not the target language (letters or a spelling), or None."""
    own = _own_words(text)
    letters = _FOREIGN.get(language, "")
    found = sorted({char for word in own for char in word if char in letters})
    if language == "ar":  # the Persian/Urdu letters are not cased and the ZWNJ is no letter: read the whole text
        found = sorted({char for char in text if char in letters})
    if found:
        shown = "".join("ZWNJ" if char == "\u200c" else char for char in found)
        return f"letters the {LANGUAGES[language].english} alphabet lacks: {shown}"
    spelling = _SPELLINGS.get(language)
    if spelling:
        hits = [word for word in own if spelling[0].search(word)]
        if hits:
            return f"{', '.join(dict.fromkeys(hits[:3]))}: {spelling[1]}"
    return None
