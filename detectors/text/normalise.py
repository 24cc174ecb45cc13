"""Turns what people type into what they mean, once per message, so word lists can match it.

Abusers dodge filters with look-alike letters (Cyrillic `ѕ`, full-width `ｆ`), accents (`fück`),
invisible characters, spacing (`f u c k`), stretching (`fuuuuck`) and leetspeak (`sh1t`). Poker
players, meanwhile, type numbers that look like leetspeak: chip counts (`455`), hands (`A5s`) and
sizes (`3bet`, `1k`). So we fold characters first, then decode leetspeak only inside words that
are mostly letters, and never touch numbers or card notation.

Every token keeps the span of the original text it came from, so evidence can quote what was
typed. Detectors are called separately on the same message: `normalise` is cached by text.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

from railbird.detectors.text.bidi import RLO, visual_order

# Latin look-alikes that NFKC leaves alone: Cyrillic, Greek, small capitals, odd Latin letters.
_CONFUSABLES: dict[str, str] = {
    **dict(zip("авезіїјкмнорсухѕһԁԛԝӏɡьгпт", "abe3iijkmhopcyxshdqwlgbrnt", strict=True)),
    **dict(zip("αβγεηικνορτυχως", "abyeniknoptuxwc", strict=True)),
    **dict(zip("ᴀʙᴄᴅᴇɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢ", "abcdeghijklmnoprstuvwyz", strict=True)),
    **dict(zip("ıłøđħŧɑ", "ilodhta", strict=True)),
    "ß": "ss",
    "¢": "c",
    "æ": "ae",
    "œ": "oe",
}
_fold_cache: dict[str, str] = {}

# Leetspeak inside words. Digits only when the word has at least two real letters.
_LEET_SYMBOLS = str.maketrans({"@": "a", "$": "s", "!": "i", "|": "l", "+": "t"})
_LEET_DIGITS = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "6": "g", "7": "t", "8": "b", "9": "g"}
)
_LEET_ALT = str.maketrans({"1": "l", "!": "l", "|": "i"})

_TOKEN = re.compile(r"[\w@$!|+*]+")  # on text with "_" already turned into spaces
EDGE = "!*"
# Poker notation that must never be read as leetspeak: hands (A5s, KQo, 77), cards (AhKd),
# and numbers with units (1k, 2.5bb, 3bet, 4x, 10th).
POKER_NOTATION = re.compile(
    r"(?:[2-9tjqka]{2}[so]?|(?:[2-9tjqka][cdhs])+|\d+(?:k|m|bb|x|bet|way|h|st|nd|rd|th|s|max)?)"
)
_RUN3 = re.compile(r"(.)\1{2,}")
# Whether `_RUN3` finds a run at all, decided faster (no greedy repeat to extend;
# docs/design-numbers.md).
HAS_RUN3 = re.compile(r"(.)\1\1")
# `_TOKEN.findall` for ASCII text as a byte table: every byte that is not a token character
# becomes a space (as "_" does), then `split()`; the same tokens, in C, faster the longer the
# text (docs/design-numbers.md).
_TOKEN_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@$!|+*")
_ASCII_TOKENS = bytes(c if c in _TOKEN_CHARS else 32 for c in range(256))
ASCII_TOKENS_LOWER = _ASCII_TOKENS.translate(
    bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
)


def ascii_tokens(text: str, table: bytes = _ASCII_TOKENS) -> list[str]:
    """`_TOKEN.findall(text.replace("_", " "))` for ASCII `text` (lower-cased with the
    `ASCII_TOKENS_LOWER` table)."""
    return text.encode("ascii").translate(table).decode("ascii").split()


_RUN2 = re.compile(r"(.)\1+")
_SEPARATORS = frozenset(" \t._-*~,/\\:;'\"")


class Token(NamedTuple):
    """One word as the lexicon sees it, and where it was in the original text.

    A NamedTuple rather than a frozen dataclass: a message makes a dozen of these and the
    dataclass constructor was a measurable share of the per-message time.
    """

    form: str  # folded, leet-decoded, lower case
    squeezed: str  # runs of three or more letters collapsed to one ("fuuuuck" -> "fuck")
    start: int
    end: int
    alt: str = ""  # second leet reading ("k1ll" -> "kill" besides "kiil"), "" if none
    joined: bool = False  # rebuilt from spaced-out letters ("f u c k")
    mention: bool = False  # started with "@"
    pair: bool = False  # two adjacent tokens glued back together ("fu ck")


class Normalised(NamedTuple):
    text: str
    tokens: tuple[Token, ...]
    joined: tuple[Token, ...]  # spaced-out letter runs, in addition to their single letters
    stream: str  # the squeezed token forms joined by single spaces, for phrase patterns

    def span(self, token: Token) -> str:
        return self.text[token.start : token.end]


def squeeze_all(word: str) -> str:
    """Every run of a repeated letter collapsed to one: the key for stretched spellings."""
    return _RUN2.sub(r"\1", word)


def fold(text: str) -> tuple[str, list[int] | None]:
    """NFKC, lower case, accents and invisible characters dropped, look-alikes mapped.

    Returns the folded text and, when it differs in length from `text`, the original index of
    every folded character (None means the mapping is the identity).
    """
    if text.isascii():
        return text.lower(), None
    out: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        folded = _fold_cache.get(char)
        if folded is None:
            folded = _fold_char(char)
            if len(_fold_cache) < 65536:
                _fold_cache[char] = folded
        out.append(folded)
        origin.extend([index] * len(folded))
    return "".join(out), origin


def fold_char(char: str) -> str:
    """What `fold` makes of one character (from its memo if it has met the character)."""
    folded = _fold_cache.get(char)
    return _fold_char(char) if folded is None else folded


def _fold_char(char: str) -> str:
    if unicodedata.category(char) == "Cf":  # zero-width and other invisible format characters
        return ""
    pieces = []
    for c in unicodedata.normalize("NFKC", char).lower():
        for d in unicodedata.normalize("NFD", c):
            if unicodedata.category(d) != "Mn":
                pieces.append(_CONFUSABLES.get(d, d))
    return "".join(pieces)


def _decode(raw: str) -> tuple[str, str]:
    """The leet-decoded form of one raw token, plus an alternative reading ("" if none)."""
    core = raw.strip(EDGE)
    if not core:
        return "", ""
    letters = sum(c.isalpha() for c in core)
    if letters == 0 or POKER_NOTATION.fullmatch(core):
        return core, ""
    form = core.translate(_LEET_SYMBOLS)
    if letters >= 2 and not core.isalpha():
        form = form.translate(_LEET_DIGITS)
    alt = core.translate(_LEET_ALT).translate(_LEET_SYMBOLS)
    if letters >= 2:
        alt = alt.translate(_LEET_DIGITS)
    return form, alt if alt != form else ""


def _squeeze(form: str) -> str:
    return _RUN3.sub(r"\1", form) if len(form) > 2 else form


# Per-word memos: the same words ("the", "1k", "!!!") come back message after message, and a
# dict lookup is a fraction of a regex call. Cleared when full so memory stays bounded.
_MEMO_MAX = 50_000
_decoded: dict[str, tuple[str, str]] = {}
_squeezed: dict[str, str] = {}


def _squeeze_cached(form: str) -> str:
    squeezed = _squeezed[form] = _squeeze(form)
    if len(_squeezed) > _MEMO_MAX:
        _squeezed.clear()
    return squeezed


@lru_cache(maxsize=512)
def normalise(text: str) -> Normalised:
    """Fold, tokenise and decode `text`, in the order it displays (`bidi.visual_order`); cached
    because several detectors read each message."""
    if RLO in text:
        text = visual_order(text)
    folded, origin = fold(text)
    stretched = HAS_RUN3.search(folded) is not None
    # `findall` plus `str.find` is about twice as fast as `finditer` with match objects: each
    # token is a maximal run of token characters, so its first occurrence after the previous
    # token's end is where it was matched. Underscores separate tokens like spaces do.
    words = folded.replace("_", " ") if "_" in folded else folded
    find = words.find
    new_token = tuple.__new__  # a NamedTuple's own __new__ is a Python-level call per token
    tokens: list[Token] = []
    squeezed_forms: list[str] = []
    singles = 0
    position = 0
    raws = ascii_tokens(words) if words.isascii() else _TOKEN.findall(words)
    for raw in raws:
        start = find(raw, position)
        end = position = start + len(raw)
        if raw.isalpha():
            form, alt = raw, ""
        else:
            decoded = _decoded.get(raw)
            if decoded is None:
                decoded = _decoded[raw] = _decode(raw)
                if len(_decoded) > _MEMO_MAX:
                    _decoded.clear()
            form, alt = decoded
            if not form:
                continue
        if origin is not None:
            start, end = origin[start], origin[end - 1] + 1
        squeezed = form
        if stretched:
            squeezed = _squeezed.get(form) or _squeeze_cached(form)
        mention = raw[0] == "@" and len(raw) > 1
        tokens.append(new_token(Token, (form, squeezed, start, end, alt, False, mention, False)))
        squeezed_forms.append(squeezed)
        if len(form) == 1:
            singles += 1
    joined: tuple[Token, ...] = ()
    if singles >= 3:
        joined = tuple(_spaced_runs(text, tokens))
    return Normalised(text, tuple(tokens), joined, " ".join(squeezed_forms))


def _spaced_runs(text: str, tokens: list[Token]) -> list[Token]:
    """Runs of three or more single letters separated only by spacing or punctuation."""
    runs: list[Token] = []
    run: list[Token] = []
    for token in [*tokens, None]:
        if (
            token is not None
            and len(token.form) == 1
            and token.form.isalpha()
            and (not run or only_separators(text[run[-1].end : token.start]))
        ):
            run.append(token)
            continue
        if len(run) >= 3:
            form = "".join(t.form for t in run)
            runs.append(Token(form, _squeeze(form), run[0].start, run[-1].end, joined=True))
            if len(run) >= 4 and run[0].form in "aiu":  # "ur a l o s e r": the article is a word
                rest = form[1:]
                runs.append(Token(rest, _squeeze(rest), run[1].start, run[-1].end, joined=True))
        run = [token] if token is not None and len(token.form) == 1 and token.form.isalpha() else []
    return runs


def only_separators(gap: str) -> bool:
    """Whether `gap` is a little spacing or punctuation: what splits "f u c k" or "fu ck"."""
    return 0 < len(gap) <= 3 and all(c in _SEPARATORS for c in gap)
