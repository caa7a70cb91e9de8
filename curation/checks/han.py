"""Han characters: simplified or traditional Chinese, Chinese or Japanese.

Simplified vs traditional comes from OpenCC (the `opencc` package, the reference converter's own binding): a
character its traditional-to-simplified conversion changes is not written so in simplified Chinese.
Characters only Chinese uses come from the Japanese character set: a Han character Shift_JIS (JIS X 0208, the
6,355 kanji of everyday Japanese) cannot encode is a Chinese form (计 视 觉 预 测 户), never one a Japanese text
is written with. And the other way: a Han character GB 2312 (the 6,763 characters of everyday simplified Chinese)
cannot encode and OpenCC does not convert to a simplified form is a Japanese form (転 帰 検 収, which Chinese writes
转 归 检 收), not a character a simplified Chinese text is written with.
Kana are Japanese only (curation/checks/scripts.py).
"""

from __future__ import annotations

from functools import lru_cache

import opencc

from curation.checks.scripts import letter_script


@lru_cache(maxsize=1)
def _to_simplified() -> opencc.OpenCC:
    return opencc.OpenCC("t2s")


def traditional(text: str) -> dict[str, str]:
    """The characters of a text simplified Chinese writes otherwise, each with its simplified form."""
    found = {}
    convert = _to_simplified().convert
    for char in dict.fromkeys(text):
        if letter_script(char) == "Han":
            simple = convert(char)
            if simple != char:
                found[char] = simple
    return found


def _in_charset(char: str, codec: str) -> bool:
    """Whether a character set encodes the character (Shift_JIS: everyday Japanese; GB 2312: simplified Chinese)."""
    try:
        char.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


def japanese_forms(text: str) -> list[str]:
    """The Han characters of a text that simplified Chinese is never written with and that are not traditional
    forms either (those are `traditional`'s): Japanese forms such as 転 (转) or 検 (检)."""
    convert = _to_simplified().convert
    return [char for char in dict.fromkeys(text)
            if letter_script(char) == "Han" and not _in_charset(char, "gb2312") and convert(char) == char]


def chinese_only(text: str) -> list[str]:
    """The Han characters of a text that Japanese is never written with (simplified Chinese forms)."""
    return [char for char in dict.fromkeys(text)
            if letter_script(char) == "Han" and not _in_charset(char, "shift_jis")]
