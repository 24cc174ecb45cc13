"""Whether a message is plain: table talk that normalising would change only in case.

Most table chat is plain ASCII words and numbers ("nh", "sick fold", "gg 455"). For such a
message every token `text.normalise.normalise` would build has its word as its form, so the
lexical detectors can prove it clean with a few set operations on its words and skip building
tokens at all. Apart from `text.normalise` because it is a different job: a fast yes/no in
front of the full reading, exact by construction (a test pins it to `normalise`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from railbird.detectors.text.normalise import (
    ASCII_TOKENS_LOWER,
    EDGE,
    HAS_RUN3,
    POKER_NOTATION,
    ascii_tokens,
    fold_char,
)


@lru_cache(maxsize=1024)
def plain_words(text: str) -> tuple[str, ...] | None:
    """The token forms of `text` when normalising it would change nothing but the case, else None.

    Most table chat is plain ASCII words and numbers ("nh", "sick fold", "gg 455"): for such a
    message every token `normalise` builds has form == squeezed == the lower-cased word, no
    second leet reading, no mention and no spaced-out letter run. Detectors use these words to
    prove a message clean with a few set operations and skip building tokens at all; None
    sends them down the full path. Equivalence with `normalise` is pinned by a test.
    """
    if not text.isascii():
        text = _inert_symbols_spaced(text)
        if not text.isascii():
            return None
    found = ascii_tokens(text, ASCII_TOKENS_LOWER)
    if _simple_words.issuperset(found):  # the checks below, passed word by word
        return tuple(found)
    if _simple_or_single.issuperset(found):  # and some single characters ("a", "i", "2")
        return tuple(found) if list(map(len, found)).count(1) < 3 else None
    words = found if not found or "".join(found).isalpha() else _plain_forms(found)
    if words is None:
        return None
    if list(map(len, words)).count(1) >= 3:  # may be spaced-out letters: "f u c k"
        return None
    stream = " ".join(words)
    if HAS_RUN3.search(stream) is not None:  # a stretched word or number: squeezed != form
        return None
    _learn_simple(found)
    return tuple(words)


# Words known to be "simple": all letters or all digits, two or more of them, no character
# three times in a row. Such a word is its own form, so a message of simple words passes
# every check of `plain_words` (no single characters, and the words joined by single spaces
# hold no run of three): their set answers it with one C call. With single letters or digits
# too, only the count of single characters is left to check. Filled as plain messages are
# read; bounded, cleared when full.
_SIMPLE_MAX = 50_000
_SINGLES = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_simple_words: set[str] = set()
_simple_or_single: set[str] = set(_SINGLES)


def is_simple_word(word: str) -> bool:
    return (
        len(word) > 1
        and (word.isalpha() or word.isdigit())
        and word.isascii()
        and HAS_RUN3.search(word) is None
    )


def _learn_simple(found: list[str]) -> None:
    known = _simple_words
    if len(known) > _SIMPLE_MAX:
        known.clear()
        _simple_or_single.clear()
        _simple_or_single.update(_SINGLES)
    new = [w for w in found if w not in known and is_simple_word(w)]
    if new:
        known.update(new)
        _simple_or_single.update(new)


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _inert_symbols_spaced(text: str) -> str:
    """`text` with emoji and other symbols that folding keeps as they are turned into spaces.

    Such a character is never part of a token, so it separates words exactly as a space does;
    anything folding changes (look-alikes, accents, invisible joiners) is left in place and
    sends the message down the full path.
    """
    for char in set(_NON_ASCII.findall(text)):
        folded = fold_char(char)
        if folded == char and not char.isalnum():
            text = text.replace(char, " ")
    return text


def _plain_forms(raws: list[str]) -> list[str] | None:
    """Tokens with digits or edge marks, read as `_decode` reads them, or None if it would
    decode any of them: numbers, cards and hands ("455", "a9s", "qd") and words with "!" or
    "*" only at their edges ("ship!!") keep their form; leetspeak, masks and mentions do not."""
    forms: list[str] = []
    for raw in raws:
        if raw.isalpha() or raw.isdigit():
            forms.append(raw)
            continue
        core = raw.strip(EDGE)
        if not core:
            continue
        if core.isalpha() or core.isdigit() or POKER_NOTATION.fullmatch(core):
            forms.append(core)
        else:
            return None
    return forms
