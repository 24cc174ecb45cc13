"""Recognisers for personal data in chat: emails, phone numbers, payment cards, street addresses.

Shared by the `personal_info` detector and `text.redaction`, so what is flagged is exactly what
is redacted. Poker chat is full of numbers (chip counts, bet sizes, hand ids, times, blinds), so
a digit run is a phone number only in a phone shape (+country code, (area) code, 0-prefixed
national number, 555-123-4567) or next to words like "call me"; a card needs 13-19 digits that
pass Luhn and look like a card (grouped or a card-network prefix); hand ids (`#123...`,
"hand 123...") are never either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from railbird.detectors.text.contact_lexicon import ascii_words, word_set

PiiKind = Literal["email", "phone", "card", "address"]


@dataclass(frozen=True, slots=True)
class PiiSpan:
    kind: PiiKind
    start: int
    end: int


_I = re.IGNORECASE
EMAIL = re.compile(r"(?<![\w.+\-])[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)*\.[a-z]{2,24}\b", _I)
_SEP_DOT = r"(?:\s*\.\s*|\s+dot\s+|\s*[\[\(]\s*(?:dot|\.)\s*[\]\)]\s*)"
EMAIL_SPELLED = re.compile(
    r"\b[a-z0-9_%+\-]+(?:" + _SEP_DOT + r"[a-z0-9_\-]+)*"
    r"(?:\s*[\[\(]\s*at\s*[\]\)]\s*|\s*@\s*"
    r"|\s+at\s+(?=(?:gmail|googlemail|yahoo|hotmail|outlook|icloud|proton|protonmail|aol|mail|"
    r"gmx|yandex|live|msn|web|qq|me)\b))"
    r"[a-z0-9\-]+(?:" + _SEP_DOT + r"[a-z0-9\-]+)*" + _SEP_DOT + r"(?:com|net|org|ru|de|co|uk|io|"
    r"me|fr|info|edu|gov|ca|au|nl|es|it|pl)\b",
    _I,
)
_SPELLED_HINT = re.compile(r"\bat\b|\[at\]|\(at\)|\s@\s", _I)
_NOT_AFTER = r"(?<![\w#.,/:+$€£])"
_NOT_BEFORE = r"(?![\w.,/:%$€£]\d|\w)"
PHONE_SHAPES = re.compile(
    _NOT_AFTER + r"(?:\+\d{1,3}[\s.\-]?(?:\(\d{1,4}\)[\s.\-]?)?\d{1,4}(?:[\s.\-]?\d{2,4}){1,4}"
    r"|\(\d{3}\)\s?\d{3}[\s.\-]\d{4}"
    r"|\d{3}[.\-]\d{3}[.\-]\d{4}"
    r"|0\d{9,10}"
    r"|0\d{2,4}[\s\-]\d{3,4}[\s\-]?\d{3,4})" + _NOT_BEFORE
)
PHONE_CONTEXT = re.compile(
    r"\b(?:call|text|ring|phone|cell|mobile|mob|tel|number|num|digits|whats\s?app|wa|sms)\b", _I
)
DIGIT_RUN = re.compile(_NOT_AFTER + r"\d(?:[\s.\-]?\d){8,14}" + _NOT_BEFORE)
CARD = re.compile(r"(?<![\w#.,])\d(?:[ \-]?\d){12,18}(?![\w.,]\d|\w)")
_CARD_PREFIX = re.compile(r"^(?:4|5[1-5]|2[2-7]|3[47]|6011|65|35)")
_HAND_ID_BEFORE = re.compile(r"(?:hand|id|tourney|tournament|table|game|ticket|#)\W{0,3}$", _I)
_STREET = (
    r"(?:street|st\.|avenue|ave\.?|road|rd\.|boulevard|blvd\.?|lane|terrace|crescent|highway|"
    r"strasse|straße|calle|rue)"
)
_STREET_WEAK = r"(?:st|rd|ln|drive|dr|way|place|pl|court|ct|close|square|sq|parkway)"
_FILLER = (
    r"(?!(?:the|on|in|at|to|of|a|an|my|your|his|her|and|or|for|with|from|down|up|times|bb|bbs"
    r"|big|blinds|chips|hands|players|outs|way|bets?|raises?|more|min|mins|hours?|k)\b)"
)
ADDRESS = re.compile(
    r"\b\d{1,5}[a-z]?,?\s+(?:" + _FILLER + r"[a-z]{2,}\s+){1,3}" + _STREET + r"(?=\W|$)", _I
)
ADDRESS_WEAK = re.compile(
    r"\b\d{1,5}[a-z]?,?\s+(?:" + _FILLER + r"[a-z]{2,}\s+){1,3}" + _STREET_WEAK + r"\b", _I
)
ADDRESS_CONTEXT = re.compile(
    r"\b(?:i live|live at|my address|address is|addy is|my house|come to|located at|my place)\b",
    _I,
)


_NON_DIGIT = re.compile(r"\D")
_GATE_FIX = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s"})
# `_SPELLED_HINT` on `gate_text`, led by a literal so the regex engine skips ahead.
_SPELLED_HINT_GATED = re.compile(r"at(?<!\wat)\b|\[at\]|\(at\)|\s@\s")
# Every `EMAIL` match holds "@", a domain label and a dot.
_AT_DOMAIN = re.compile(r"@[\w\-]+\.")
_NINE_ASCII_DIGITS = re.compile(r"[0-9](?:[^0-9]?[^0-9]?[0-9]){8}")
_NINE_DIGITS = re.compile(r"\d(?:\D?\D?\d){8}")
# A word every `ADDRESS` or `ADDRESS_CONTEXT` match on ASCII text holds as a whole word run,
# and for other text a literal it holds in `gate_text`.
_ADDRESS_WORDS = word_set(
    "street st avenue ave road rd boulevard blvd lane terrace crescent highway strasse calle rue "
    "live address addy house come located place"
)
_ADDRESS_GATE = re.compile(
    r"street|st\.|ave|road|rd\.|blvd|boulevard|lane|terrace|crescent|highway|strasse|straße|"
    r"calle|rue|live|address|addy is|my house|come to|located at|my place"
)


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _hand_id_context(text: str, start: int) -> bool:
    return bool(_HAND_ID_BEFORE.search(text[max(0, start - 12) : start]))


def _digit_count(s: str) -> int:
    return sum(map(str.isdigit, s))


def gate_text(text: str) -> str:
    """`text` in lower case, one character for one, such that wherever an IGNORECASE pattern
    matches an ASCII letter in `text` this string has that letter (U+0130, U+0131 and U+017F
    match i, i and s but do not lower-case to them): plain substring checks on it are then
    safe necessary conditions for our IGNORECASE patterns."""
    return text.lower() if text.isascii() else text.translate(_GATE_FIX).lower()


def find_pii(
    text: str, lowered: str | None = None, words: tuple[str, ...] | None = None
) -> list[PiiSpan]:
    """Non-overlapping spans of personal data in `text`, in order. A caller that has
    `lowered = text.lower()` and `words = ascii_words(lowered)` passes both to save the work.

    Cheap necessary conditions run first (most chat has no "@" before a dotted domain, no nine
    digits close together and no street word), so a clean message costs a few set and
    substring checks."""
    spans: list[PiiSpan] = []
    ascii_text = text.isascii()
    if lowered is None:
        lowered = text.lower()
        words = ascii_words(lowered) if ascii_text else None
    elif not ascii_text:
        words = None  # a few non-ASCII letters lower-case to ASCII ones (the Kelvin sign)
    if "@" in text and _AT_DOMAIN.search(text):
        spans.extend(PiiSpan("email", m.start(), m.end()) for m in EMAIL.finditer(text))
    if (
        ("dot" in lowered or "." in text)
        and (words is None or "at" in words or "@" in text)
        and _SPELLED_HINT_GATED.search(lowered if ascii_text else gate_text(text))
    ):
        spans.extend(PiiSpan("email", m.start(), m.end()) for m in EMAIL_SPELLED.finditer(text))
    if ascii_text:
        raw = text.encode()
        digits = len(raw) - len(raw.translate(None, b"0123456789"))
        # Cards and phone numbers all hold nine or more digits at most two characters apart.
        if digits >= 9 and _NINE_ASCII_DIGITS.search(text):
            _digits(text, spans)
        if (
            digits
            and words is not None
            and not _ADDRESS_WORDS.isdisjoint(words)
            and (ADDRESS.search(text) or ADDRESS_CONTEXT.search(text))
        ):
            _addresses(text, spans)
    elif any(ch.isdigit() for ch in text):
        if _NINE_DIGITS.search(text):
            _digits(text, spans)
        if _ADDRESS_GATE.search(gate_text(text)) and (
            ADDRESS.search(text) or ADDRESS_CONTEXT.search(text)
        ):
            _addresses(text, spans)
    return _merge(spans) if spans else spans


def _digits(text: str, spans: list[PiiSpan]) -> None:
    for m in CARD.finditer(text):
        digits = _NON_DIGIT.sub("", m.group(0))
        grouped = " " in m.group(0) or "-" in m.group(0)
        looks_like_card = grouped or bool(_CARD_PREFIX.match(digits))
        if looks_like_card and luhn_ok(digits) and not _hand_id_context(text, m.start()):
            spans.append(PiiSpan("card", m.start(), m.end()))
    for m in PHONE_SHAPES.finditer(text):
        if 9 <= _digit_count(m.group(0)) <= 15 and not _hand_id_context(text, m.start()):
            spans.append(PiiSpan("phone", m.start(), m.end()))
    if PHONE_CONTEXT.search(text):
        for m in DIGIT_RUN.finditer(text):
            if 9 <= _digit_count(m.group(0)) <= 15 and not _hand_id_context(text, m.start()):
                spans.append(PiiSpan("phone", m.start(), m.end()))


def _addresses(text: str, spans: list[PiiSpan]) -> None:
    spans.extend(PiiSpan("address", m.start(), m.end()) for m in ADDRESS.finditer(text))
    if ADDRESS_CONTEXT.search(text):
        spans.extend(PiiSpan("address", m.start(), m.end()) for m in ADDRESS_WEAK.finditer(text))


def _merge(spans: list[PiiSpan]) -> list[PiiSpan]:
    """Drop spans overlapping an earlier, longer one (a card is not also a phone)."""
    rank = {"card": 0, "email": 1, "address": 2, "phone": 3}
    ordered = sorted(spans, key=lambda s: (s.start, rank[s.kind], -s.end))
    kept: list[PiiSpan] = []
    for span in ordered:
        if kept and span.start < kept[-1].end:
            continue
        kept.append(span)
    return kept
