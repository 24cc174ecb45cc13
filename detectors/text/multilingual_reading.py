# ruff: noqa: RUF001, RUF002, RUF003
# (Cyrillic and Latin look-alike letters are the point of the reading tables below.)
"""Reading a message of any of the room's languages: each word in one script, as the lexicon
(`multilingual_terms`) looks it up.

railbird's `normalise` folds Cyrillic look-alikes to Latin, which is right for English dodges
("ѕhit") and wrong for Russian, where "сука" must stay Cyrillic. So this module reads a message
its own way: NFKC, lower case, invisible and direction-control characters dropped, stray Latin
letters inside a mostly-Cyrillic word folded to Cyrillic ("cукa") and stray Cyrillic letters
inside a mostly-Latin word to Latin ("kurwа"), leetspeak inside words only, stretched letters
collapsed, spaced-out letters joined.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

# Zero-width, joiner, direction-control and other invisible characters abusers insert.
_INVISIBLE = dict.fromkeys(
    map(
        ord,
        "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e\u200f"
        "\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068"
        "\u2069\ufeff",
    )
)
# Latin letters inside a mostly-Cyrillic word: look-alikes ("cукa"), then the transliterations
# typed when a key is missing ("пиzдец").
_TO_CYRILLIC = str.maketrans(
    dict(zip("abcdefghijklmnoprstuvxyz", "авсдефгнийклмпоррстивхуз", strict=True))
)
# Cyrillic letters inside a mostly-Latin word ("kurwа", "fuсk").
_TO_LATIN = str.maketrans(
    dict(zip("авеёзіїјкмнорсухѕһԁьгпт", "abeeziijkmhopcyxshdbrnt", strict=True))
)
# Letters that only one script has: which of them a mixed word holds decides its script.
_ONLY_CYRILLIC = frozenset("бджзийлфцчшщъыэюяєўґ")
_ONLY_LATIN = frozenset("dfgjlqrsvwz")
_CYRILLIC_FOLD = str.maketrans({"ё": "е", "і": "и", "ї": "и", "є": "е", "ў": "у", "ґ": "г"})
_LATIN_FOLD = {"ł": "l", "ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "ı": "i", "đ": "d"}
# Arabic spelling variants that chat mixes freely (hamza on alef, alef maqsura, ta marbuta,
# Persian kaf and ya, the stretching tatweel), and Greek's final sigma: one form each.
_OTHER_FOLD = str.maketrans(
    {
        "أ": "ا",
        "إ": "ا",
        "آ": "ا",
        "ٱ": "ا",
        "ى": "ي",
        "ة": "ه",
        "ک": "ك",
        "ی": "ي",
        "ـ": None,
        "ς": "σ",
    }
)
_LEET_LATIN = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i"}
)
_LEET_CYRILLIC = str.maketrans({"0": "о", "3": "з", "4": "ч", "6": "б", "@": "а", "$": "с"})
_TOKEN = re.compile(r"[^\W_]+(?:[@$!*]+[^\W_]+)*[!@$*]*|@[^\W_]+")
_SPACED = re.compile(r"(?<![^\W_])(?:[^\W\d_][\s.\-_*+]{1,3}){2,}[^\W\d_](?![^\W_])")
_RUN3 = re.compile(r"(.)\1{2,}")
_RUN2 = re.compile(r"(.)\1+")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
# Numbers and poker notation are never leetspeak: 455, 3bet, 10bb, 1k, 2nd, A5s, KQo, AhKd.
_NOTATION = re.compile(
    r"\d+(?:[.,]\d+)?(?:k|m|bb|x|bet|way|h|st|nd|rd|th|s|max|b|e)?|\d[a-z]?|[a-z]\d"
    r"|[2-9tjqka]{2}[so]?|(?:[2-9tjqka][cdhs])+"
)


class Word(NamedTuple):
    """One word of a message as the lexicon sees it, and as it was typed."""

    form: str  # folded to one script, leet decoded, runs of 3+ cut to 2, accents kept
    plain: str  # `form` without accents (ł -> l, ß -> ss, ё -> е)
    squeezed: str  # `plain` with every doubled letter single ("ссука" -> "сука")
    cyrillic: bool
    typed: str
    mention: bool = False


def _script_fold(word: str) -> tuple[str, bool]:
    """`word` in one script: the script most of its distinctive letters belong to."""
    if not _CYRILLIC.search(word):
        return word, False
    latin = sum(1 for c in word if "a" <= c <= "z")
    if latin == 0:
        return word, True
    cyrillic = sum(1 for c in word if "\u0400" <= c <= "\u04ff")
    only_c = sum(1 for c in word if c in _ONLY_CYRILLIC)
    only_l = sum(1 for c in word if c in _ONLY_LATIN)
    if only_c > only_l or (only_c == only_l and cyrillic >= latin):
        return word.translate(_TO_CYRILLIC), True
    return word.translate(_TO_LATIN), False


def _deaccent(word: str) -> str:
    out = []
    for char in word:
        folded = _LATIN_FOLD.get(char)
        if folded is not None:
            out.append(folded)
            continue
        for part in unicodedata.normalize("NFD", char):
            if unicodedata.category(part) != "Mn":
                out.append(part)
    return "".join(out)


def read_word(raw: str) -> Word | None:
    mention = raw.startswith("@") and len(raw) > 1 and not raw[1].isdigit()
    core = raw.lstrip("@").rstrip("!*") if mention else raw.rstrip("!*")
    if not core:
        return None
    form, cyrillic = _script_fold(core)
    letters = sum(1 for c in form if c.isalpha())
    if not form.isalpha() and letters >= 2 and not _NOTATION.fullmatch(form):
        form = form.translate(_LEET_CYRILLIC if cyrillic else _LEET_LATIN)
    form = _RUN3.sub(r"\1\1", form.replace("*", ""))
    if cyrillic:
        plain = form.translate(_CYRILLIC_FOLD)
    else:
        plain = form if form.isascii() else _deaccent(form).translate(_OTHER_FOLD)
    return Word(form, plain, _RUN2.sub(r"\1", plain), cyrillic, raw, mention)


def read(text: str) -> tuple[Word, ...]:
    """The words of `text`, each in one script; spaced-out letters also as one word."""
    cleaned = unicodedata.normalize("NFKC", text).translate(_INVISIBLE).lower()
    cleaned = cleaned.replace("'", " ").replace("’", " ").replace("`", " ")
    found: list[Word] = []
    for raw in _TOKEN.findall(cleaned):
        word = read_word(raw)
        if word is not None:
            found.append(word)
    for spaced in _SPACED.findall(cleaned):
        word = read_word("".join(c for c in spaced if c.isalpha()))
        if word is not None:
            found.append(word._replace(typed=spaced))
    return tuple(found)


# ---------------------------------------------------------------------------------------------
