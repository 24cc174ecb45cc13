"""How loud one chat line is: how many emoji it holds, and whether it shouts (caps lock,
`!!!!`, one character or word said again and again).

Apart from `emoji_spam`, which decides when loud lines add up to spam: these are pure functions
of the text, run on every message, so each is written to settle clean chat with a C call or two.
"""

from __future__ import annotations

import re

# Pictographs; skin-tone modifiers (U+1F3FB-1F3FF), ZWJ and variation selectors don't count.
EMOJI = re.compile(
    "[\U0001f000-\U0001f3fa\U0001f400-\U0001faff\u2600-\u27bf\u2b00-\u2bff\u2300-\u23ff]"
)
_EXCLAIM = re.compile(r"[!?]{3,}")
_LONG_EXCLAIM = re.compile(r"[!?]{8,}")
CHAR_FLOOD = re.compile(r"(\S{1,3}?)\1{7,}")
_LETTER = re.compile(r"[^\W\d_]")
_UPPER = re.compile("[A-Z\u00c0-\u00de\u0391-\u03a9\u0410-\u042f]")
_FIRST_EMOJI = "\u2300"
_ZEROS_2 = bytes(2)
_ZEROS_6 = bytes(6)
_ZEROS_21 = bytes(21)
_ZEROS_24 = bytes(24)  # six UTF-32 characters
_ZEROS_84 = bytes(84)
_ASCII_UPPER = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ASCII_LETTERS = _ASCII_UPPER + _ASCII_UPPER.lower()
_from_bytes = int.from_bytes
# What `str.split()` splits ASCII on is exactly `isspace` (\x1c-\x1f included): kept by a
# `translate` that deletes every other byte.
_ASCII_NOT_SPACE = bytes(c for c in range(128) if not chr(c).isspace())


def count_emoji(text: str) -> int:
    # Every pictograph counted is at or above U+2300: `max` rules out most non-ASCII text in C.
    if text.isascii() or max(text) < _FIRST_EMOJI:
        return 0
    return len(EMOJI.findall(text))


def shout_level(text: str, min_letters: int, caps_ratio: float) -> tuple[int, str]:
    """0: normal; 1: raised voice (`!!!!`, caps); 2: spam on its own (a long caps line, a
    flood of one character or word). With the reason, for the evidence.

    Each test first asks a necessary condition that costs a C call or two; the regex (the
    definition) runs only when that condition holds, so clean chat never pays for it."""
    size = len(text)
    if size >= 8 and may_flood(text) and CHAR_FLOOD.search(text):
        return 2, "one character or syllable repeated"
    # Six words need eleven characters, and five separators: counted in C for ASCII text.
    # (Five spaces already settle it, without the translate.)
    if size >= 11 and (
        text.count(" ") >= 5
        or not text.isascii()
        or len(text.encode("ascii").translate(None, _ASCII_NOT_SPACE)) >= 5
    ):
        words = text.lower().split()
        count = len(words)
        if count >= 6:
            distinct = set(words)
            most = count - len(distinct) + 1  # the most times any one word can occur
            if most >= 6 and most >= 0.7 * count:
                top = max(words.count(w) for w in distinct)
                if top >= 6 and top >= 0.7 * count:
                    return 2, "one word repeated"
    exclaim = ("!" in text or "?" in text) and _EXCLAIM.search(text) is not None
    if exclaim and _LONG_EXCLAIM.search(text):
        return 2, "long !!!! run"
    # A caps line needs `caps_ratio * min_letters` capitals at least: a short line has too few.
    caps = not text.islower() and size >= caps_ratio * min_letters
    letters = _caps_letters(text, min_letters, caps_ratio) if caps else None
    if letters is not None:
        if exclaim:
            return 2, "all caps with !!!"
        return (2, "long all-caps line") if letters >= 2 * min_letters else (1, "caps")
    return (1, "!!!") if exclaim else (0, "")


def _caps_letters(text: str, min_letters: int, caps_ratio: float) -> int | None:
    """The letter count of a caps line (at least `min_letters` letters, `caps_ratio` of them
    capitals), None for any other line. Capitals are counted first: too few of them for even
    the shortest qualifying line settles it without counting letters."""
    if text.isascii():
        data = text.encode("ascii")
        upper = len(data) - len(data.translate(None, _ASCII_UPPER))
    else:
        upper = len(_UPPER.findall(text))
    if caps_ratio >= 0 and upper < caps_ratio * min_letters:
        return None
    letters = _letters(text)
    return letters if letters >= min_letters and upper >= caps_ratio * letters else None


def _letters(text: str) -> int:
    if text.isascii():
        data = text.encode("ascii")
        return len(data) - len(data.translate(None, _ASCII_LETTERS))
    return len(_LETTER.findall(text))


def may_flood(text: str) -> bool:
    """Necessary for `CHAR_FLOOD`: a unit of k <= 3 characters said 8 times makes 7k
    characters in a row equal to the one k later, so at least 6 in a row equal at distance 2
    (k = 1, 2) or 21 at distance 3 (k = 3). XOR with the text shifted by that distance is zero
    exactly there; one big-int XOR finds it without a Python loop over characters.

    Either stretch also has period 6 (NULs read before the text, at every distance alike), so
    a long line without two zeros in a row at distance 6 is settled by one XOR, not two.

    `find`, not `in`: `bytes.__contains__` first tries its argument as an int, and the
    TypeError it raises and clears costs more than the search."""
    if text.isascii():
        data = text.encode("ascii")
        size = len(data)
        value = _from_bytes(data)  # big-endian: the shifts compare a byte with one earlier
        if size >= 24 and (value ^ (value >> 48)).to_bytes(size).find(_ZEROS_2) < 0:
            return False  # one pass instead of two: see the docstring
        if (value ^ (value >> 16)).to_bytes(size).find(_ZEROS_6) >= 0:
            return True
        return size >= 24 and (value ^ (value >> 24)).to_bytes(size).find(_ZEROS_21) >= 0
    data = text.encode("utf-32-be", "surrogatepass")  # four bytes a character
    size = len(data)
    value = _from_bytes(data)
    if (value ^ (value >> 64)).to_bytes(size).find(_ZEROS_24) >= 0:
        return True
    return len(text) >= 24 and (value ^ (value >> 96)).to_bytes(size).find(_ZEROS_84) >= 0
