"""Prize and premium-rate scams without a link: "you have won a £1000 cash prize", "text WIN to
80082", "call 09061701461 to claim", "150p/msg", "reply STOP", "claim code".

Poker chat wins prizes, claims pots, calls bets, texts friends and types five-digit chip counts
all the time, so each pattern here is one kind of evidence and none is read alone. A scam needs
a way to reach the sender that no table needs (a short code to text, a premium-rate or freephone
number, a premium-rate price), or a prize claimed for the reader ("you have been selected")
beside a prize or beside an ask for the reader's details. Small print ("reply STOP", "T&Cs") and
prizes ("2nd prize in the tourney", "$100k guaranteed") add weight to such evidence and are
poker talk without it.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from railbird.detectors.text.contact_lexicon import ascii_words, word_set

# A kind of evidence, how many signals it stands for, and the text that shows it.
ScamSignal = tuple[str, int, str]

_CURRENCY = r"(?:£|\$|€|\?(?=\d)|\bgbp\s?|\beur\s?)"
# UK premium-rate (09, 087, 084x), personal (070) and freephone (0800, 0808) numbers: numbers
# a business gives out. Geographic and mobile numbers are someone's own (`personal_info`).
_PREMIUM = r"(?<![\d£$.#])0(?:9\d\d|87\d|84[345]|70\d|80[08])(?:[\s.-]?\d){6}"
PREMIUM_NUMBER = re.compile(_PREMIUM)
# The reader is told they won or were chosen: what scams open with and players never say.
PRIZE_CLAIM = re.compile(
    r"\b(?:you|u)\s*(?:'ve|'re|ve|re|have|ave|hav|has|are|r|been)\s+(?:\w+\s+){0,2}?"
    r"(?:awarded|selected|chosen|picked|guaranteed|entitled|(?:a|the)\s+(?:\w+\s+)?winner|"
    r"won\s*(?:!|(?:(?:a|an|this|yourself)\s+)?(?:guaranteed\s+|free\s+)?(?:(?:£|\$|€|\?)\s?\d"
    r"[\d,.]*|prize|cash|award|holiday|voucher|trip|iphone|ipod|nokia)))"
    r"|\b(?:you're|youre|ur|u r|you are)\s+(?:\w+\s+){0,2}?(?:awarded|selected|chosen|"
    r"(?:a|the)\s+(?:\w+\s+)?winner)\b"
    r"|\b(?:your|ur|yr)\s+(?:mobile|number|no|phone|account)\b(?:\s+[\w.]+){0,4}?\s+"
    r"(?:awarded|selected|won)\b"
    r"|\b(?:selected|chosen|picked)\s+(?:to|2)\s+(?:a\s+)?receive\b"
    r"|\b(?:you|u)\s+(?:just\s+)?won\s+(?:a|an)\s+(?:guaranteed\s+)?(?:£|\$|€)\s?\d[\d,.]*"
    r"|\bclaim\s+(?:your|ur|yr|code|number|no|now)\b|\b(?:to|2)\s+claim\b"
    r"|\b(?:await(?:s|ing)?|for)\s+collection\b|\bwinners?\s*!|\bprize\s+guaranteed\b"
)
# Something of value on offer. Poker talk too, so it is read only beside a marker.
PRIZE = re.compile(
    _CURRENCY + r"\s?\d[\d,.]*\s?(?:k|m|million)?\b(?:\s+[\w-]+){0,2}?\s+(?:cash|prize|prizes|"
    r"award|reward|bonus|gift|voucher|vouchers|shopping|holiday|worth)\b"
    r"|\b\d[\d,]*\s+(?:pounds|quid)\b|\b(?:cash|bonus|caller|weekly|mystery)\s+prize\b"
    r"|\bprize\s+(?:reward|draw)\b|\b(?:gift|shopping|holiday|cd|travel|discount)\s+vouchers?\b"
    r"|\b\d\*\s+holiday\b|\bfree\s+(?:entry|ringtones?|tones?|msg|message|camera|camcorder|"
    r"mins|minutes|texts?|nokia|ipod|bluetooth)\b|\bringtones?\b|\bpoly(?:phonic)?\s+tones?\b"
)
# Text a keyword to a short code ("text WIN to 80082", "txt: CALL to No: 86888"). UK short
# codes are four to six digits from 6 to 8; chip counts are not texted to anyone.
SHORT_CODE = re.compile(
    r"\b(?:text|txt|txting|texting|txtin|send|reply|rply|sms)\b(?:\s+with)?:?"
    r"(?:\s+(?:the\s+)?word\s?:?)?\s*(?!(?:it|me|him|her|them|us|em|this|that|chips)\b)"
    r"[a-z0-9&,]{1,12}(?:\s+[a-z0-9&,]{1,12}){0,3}?\s+(?:to|2|on)\s+(?:no\s?:?\s*)?"
    r"[6-8]\d{3,5}(?!\d)"
)
# Call (or ring) a premium-rate or freephone number.
PREMIUM_CALL = re.compile(
    r"\b(?:call|calling|ring|dial|phone|cal;l|call2)\b[\w\s:,.!-]{0,40}?" + _PREMIUM
)
# What a premium-rate service costs: per message, per minute, "150ppm", "billed 150p".
PREMIUM_PRICE = re.compile(
    r"\b\d+(?:\.\d+)?p\s?(?:/|per\s?|a\s)?\s?(?:msg|min|minute|txt|wk|week|sms|tone|mnth|meg|"
    r"rcvd|mt)\b|\b\d{2,4}p(?:pm|pmsg|msg|min)\b|\bppm\b|\b150p\b|@\s?\d+p\b"
    r"|(?:£|\?)\s?\d+(?:[.,]\d\d)?\s?(?:/|per\s?|a\s)\s?(?:msg|min|wk|week|month|mnth|day|pole|"
    r"tone|txt|sms|call)|(?:£|\?)\s?\d+(?:[.,]\d\d)?\s+(?:to|2)\s+(?:rcv|receive)\b"
    r"|\b(?:charged|billed|costs?)\s+(?:at\s+)?(?:£\s?\d+(?:[.,]\d\d)?|\d+p\b)"
)
# The small print of a text service: opt-outs, terms, age limits, a PO box.
SMALL_PRINT = re.compile(
    r"\bopt[\s-]?out\b|\bcall2optout\b|\bstop2\w+"
    r"|\b(?:txt|text|send|reply)\s+(?:\w+\s+){0,2}?stop\b|\bstop\s+(?:to|2)\s+\d{4,6}\b"
    r"|\bt\s?&\s?c'?s?\b|\bt'?s\s+(?:and|&)\s+c'?s\b|\btncs?\b|\bcust(?:omer)?\s?care\b"
    r"|\bcustcare\b|\bpo\s?box\s?\d|\b(?:std|standard|national)\s?(?:txt\s?|text\s?|sms\s?)?rates?\b"
    r"|\bmsg\s?rcvd|\bfree(?:phone|fone)\b|\bfree\s?msg\b|\b(?:18|16)\s?\+"
)

# (kind, signals it stands for, pattern, role). A scam needs a "contact" marker (a short code,
# a premium-rate number or price), or a prize claimed for the reader beside a prize or an ask
# for the reader's details; small print and prizes add to one but never make one.
_PATTERNS: tuple[tuple[str, int, re.Pattern[str], str], ...] = (
    ("prize claim", 1, PRIZE_CLAIM, "claim"),
    ("short code", 2, SHORT_CODE, "contact"),
    ("premium-rate call", 2, PREMIUM_CALL, "contact"),
    ("premium-rate number", 1, PREMIUM_NUMBER, "contact"),
    ("premium-rate price", 1, PREMIUM_PRICE, "contact"),
    ("small print", 1, SMALL_PRINT, "print"),
    ("prize", 1, PRIZE, "prize"),
)

# A word every match of a claim or contact pattern holds as a whole word run on ASCII text;
# what is not a whole word ("150ppm", "£1.50/wk", "09061701461", "@150p") has a hint.
_MARKER_WORDS = word_set(
    "won awarded selected chosen picked guaranteed entitled winner winners claim collection prize "
    "text txt txting texting txtin send reply rply sms ppm charged billed cost costs"
)
# Public for detectors that fold this gate into one wider word probe.
MARKER_WORDS = _MARKER_WORDS
# Led by a character class, which the regex engine scans for in C: "\dp|\?\s?\d|0[789]".
_MARKER_HINT = re.compile(r"[\d?](?:(?<=\d)p|(?<=\?)\s?\d|(?<=0)[789])")
_MARKER_LITERAL = re.compile(
    r"won|award|select|chosen|picked|guarantee|entitled|winner|claim|collection|prize|te?xt|send|"
    r"repl|rply|sms|ppm|charged|billed|cost|\d\s?p|£|\?\s?\d|0[789]"
)


def marker_hint(lowered: str) -> bool:
    """Whether ASCII `lowered` holds a marker that is no whole word (see `_MARKER_WORDS`)."""
    return _MARKER_HINT.search(lowered) is not None


def may_scam(lowered: str, words: Collection[str] | None = None) -> bool:
    """False only when `scam_signals(lowered, ...)` is certainly empty: no claim and no contact
    marker can match (small print and prizes never make a scam without one)."""
    if words is None:
        words = ascii_words(lowered)
    if words is not None:
        return not _MARKER_WORDS.isdisjoint(words) or marker_hint(lowered)
    return _MARKER_LITERAL.search(lowered) is not None


def scam_signals(
    lowered: str, words: Collection[str] | None = None, asks_contact: bool = False
) -> tuple[ScamSignal, ...]:
    """The kinds of prize or premium-rate scam evidence in `lowered` (one per kind), or () when
    they make no scam: that takes a contact marker (a short code, a premium-rate number or
    price), or a prize claimed for the reader beside a prize or beside an ask for the reader's
    details (`asks_contact`, which the caller reads)."""
    if not may_scam(lowered, words):
        return ()
    return read_scam_signals(lowered, asks_contact)


def read_scam_signals(lowered: str, asks_contact: bool = False) -> tuple[ScamSignal, ...]:
    """`scam_signals` without its gate: what the gate must never change."""
    found: list[ScamSignal] = []
    roles: set[str] = set()
    for kind, weight, pattern, role in _PATTERNS:
        if kind == "premium-rate number" and "premium-rate call" in (k for k, _, _ in found):
            continue  # the number the call names is not a second signal
        match = pattern.search(lowered)
        if match is not None:
            found.append((kind, weight, _shown(kind, match.group(0))))
            roles.add(role)
    if "contact" in roles or ("claim" in roles and ("prize" in roles or asks_contact)):
        return tuple(found)
    return ()


def _shown(kind: str, text: str) -> str:
    """What the evidence shows of a match: a number only by its prefix, so that the stored
    evidence is no directory of phone numbers."""
    text = " ".join(text.split())
    if kind in ("premium-rate call", "premium-rate number"):
        number = PREMIUM_NUMBER.search(text)
        if number is not None:
            digits = "".join(ch for ch in number.group(0) if ch.isdigit())
            text = text[: number.start()] + digits[:4] + "..."
    return text
