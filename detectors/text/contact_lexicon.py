"""Words that move players off the site: messengers, handles, sales pitches, calls to action,
and asks for the reader's e-mail or number.

Shared by `advertising` (someone selling) and `personal_info` (someone asking for contact
details), so the two agree on what "telegram" or "dm me" means. Each pattern alone is weak
evidence ("rakeback" is ordinary poker talk); the detectors combine them.
"""

from __future__ import annotations

import re
from collections.abc import Collection

# Messenger names that are not everyday words.
MESSENGER = re.compile(
    r"\b(?:telegram+|whats\s?app|whatsap|discord|skype|snap\s?chat|insta(?:gram)?|facebook|"
    r"wechat|kik|viber|tiktok|tik tok|signal app|line app|icq|telegr)\b"
)
# Short forms that only count next to a handle or a contact verb.
MESSENGER_SHORT = re.compile(r"\b(?:tg|wa|ig|fb|snap|signal|twitter|dc)\b")
HANDLE = re.compile(r"(?<![\w.])@[a-z0-9_][a-z0-9_.]{2,31}|\b[a-z0-9_.]{2,32}#\d{4}\b")
COMMERCIAL = re.compile(
    r"\b(?:rake\s?back|cash\s?back|chips? (?:for sale|seller|dealer|shop)|"
    r"(?:sell|selling|buy|buying|cheap|cheapest)\s+(?:\w+\s+)?(?:chips|coins|gold|accounts?|"
    r"rakeback|bonus|deals?)|"
    r"bonus code|promo code|referral code|ref code|use (?:my )?code|deposit bonus|"
    r"free (?:chips|bonus|spins|coins)|\d+\s?% off|discount|best (?:prices?|rates?)|"
    r"earn \$?\d+|make money|\$\d+\s?(?:a|per) day|investment|forex|crypto signals?|"
    r"staking (?:offers?|deals?)|coaching (?:offer|session|available)|for sale|wholesale|"
    r"chips? sell(?:ing|er)|instant delivery|(?:deals?|offers?|services?) available|"
    r"\d+\s?% (?:deposit |welcome |first deposit )?bonus|code [a-z]*\d*[a-z0-9]{3,}|"
    r"my (?:channel|stream|site|shop|store|server)|subscribe|follow me)\b"
)
CALL_TO_ACTION = re.compile(
    r"\b(?:msg|message|pm|dm|text|contact|hit|inbox|whisper|write|reach|add|call|find|"
    r"ping|hmu)\s+(?:me|us)\b|\bhmu\b|\b(?:visit|check out|go to|join|click|sign up|register|"
    r"sign up at|available at|details at|deals at|play at|play on)\b"
)
PRICE = re.compile(r"\$\s?\d+|\b\d+\s?(?:usd|eur|usdt|btc|bucks)\b")


def word_set(words: str) -> frozenset[str]:
    """The space-separated `words`, as a set (long word lists read better as one string)."""
    return frozenset(words.split())


# Every ASCII byte to itself if the regex engine counts it a word character (\\w), in lower
# case, else to a space: splitting the result gives a message's word runs in one C pass.
_WORD_BYTES = bytes(
    (c + 32 if 65 <= c <= 90 else c if c < 128 and (chr(c).isalnum() or c == 95) else 32)
    for c in range(256)
)


# The last text `ascii_words` split, and its words: one (text, words) tuple, replaced whole.
_recent: list[tuple[str, tuple[str, ...] | None]] = [("", ())]


def ascii_words(text: str) -> tuple[str, ...] | None:
    """The lower-cased `\\w+` runs of an ASCII message (None for other text). Several
    detectors prove a message clean by checking it holds none of their key words, one after
    the other on the same message, so the last answer is kept: one slot, nothing to evict (the
    detectors memoise their own verdicts for chat that repeats). A tuple, not a set: hashing
    every word into a new set costs more than the few lookups made."""
    last, found = _recent[0]
    if text == last:
        return found
    found = tuple(text.encode().translate(_WORD_BYTES).decode().split()) if text.isascii() else None
    _recent[0] = (text, found)
    return found


# Cheap necessary conditions for the patterns above. Each alternative of a word-bounded pattern
# holds one of these words as a whole word run (or "%"/"$"/"telegr"/"@"/"#", checked apart);
# for non-ASCII text, literals led by a letter let the regex engine skip ahead instead.
_COMMERCIAL_WORDS = word_set(
    "rake rakeback cash cashback chip chips sell selling buy buying cheap cheapest code bonus free "
    "discount price prices rate rates earn money investment forex signal signals staking coaching "
    "sale wholesale delivery available channel stream site shop store server subscribe follow"
)
_MESSENGER_WORDS = word_set(
    "whats whatsapp whatsap discord skype snap snapchat insta instagram facebook wechat kik viber "
    "tiktok tik signal app icq"
)
# Public for detectors that fold these tests into one wider word probe.
COMMERCIAL_WORDS = _COMMERCIAL_WORDS
MESSENGER_WORDS = _MESSENGER_WORDS
_MESSENGER_SHORT_WORDS = word_set("tg wa ig fb snap signal twitter dc")
_MESSENGER_LITERAL = re.compile(
    r"telegr|whats|discord|skype|snap|insta|facebook|wechat|kik|viber|tik\s?tok|signal app|"
    r"line app|icq"
)
_MESSENGER_SHORT_LITERAL = re.compile(r"(?:tg|wa|ig|fb|snap|signal|twitter|dc)\b")
_COMMERCIAL_LITERAL = re.compile(
    r"rake|cash|chip|sell|buy|cheap|code|bonus|free |%|discount|best |earn |make money|\$|"
    r"investment|forex|crypto signal|staking |coaching |for sale|wholesale|instant delivery|"
    r"available|my (?:channel|stream|site|shop|store|server)|subscribe|follow me"
)
_CREDENTIALS_LITERAL = re.compile(r"pass|log|2fa|pin|otp|code")


def may_name_messenger(lowered: str, words: Collection[str] | None = None) -> bool:
    """False only when `messenger_named(lowered)` is certainly None; `words` is
    `ascii_words` of the message, when it is ASCII."""
    if words is None:
        words = ascii_words(lowered)
    if words is not None:
        if not _MESSENGER_WORDS.isdisjoint(words) or "telegr" in lowered:
            return True
        return ("@" in lowered or "#" in lowered) and not _MESSENGER_SHORT_WORDS.isdisjoint(words)
    if _MESSENGER_LITERAL.search(lowered):
        return True
    return ("@" in lowered or "#" in lowered) and _MESSENGER_SHORT_LITERAL.search(
        lowered
    ) is not None


def may_be_commercial(lowered: str, words: Collection[str] | None = None) -> bool:
    """False only when `COMMERCIAL.search(lowered)` is certainly None."""
    if words is None:
        words = ascii_words(lowered)
    if words is not None:
        return not _COMMERCIAL_WORDS.isdisjoint(words) or "%" in lowered or "$" in lowered
    return _COMMERCIAL_LITERAL.search(lowered) is not None


_CALL_TO_ACTION_WORDS = word_set(
    "msg message pm dm text contact hit inbox whisper write reach add call find ping hmu visit "
    "check go join click sign register available details deals play"
)
_CALL_TO_ACTION_LITERAL = re.compile(
    r"msg|message|pm|dm|text|contact|hit|inbox|whisper|write|reach|add|call|find|ping|hmu|"
    r"visit|check out|go to|join|click|sign up|register|available at|details at|deals at|"
    r"play at|play on"
)


def may_call_to_action(lowered: str, words: Collection[str] | None = None) -> bool:
    """False only when `CALL_TO_ACTION.search(lowered)` is certainly None."""
    if words is None:
        words = ascii_words(lowered)
    if words is not None:
        return not _CALL_TO_ACTION_WORDS.isdisjoint(words)
    return _CALL_TO_ACTION_LITERAL.search(lowered) is not None


def may_name_price(lowered: str) -> bool:
    """False only when `PRICE.search(lowered)` is certainly None."""
    return (
        "$" in lowered
        or "usd" in lowered
        or "eur" in lowered
        or "btc" in lowered
        or ("bucks" in lowered)
    )


def asks_for_credentials(lowered: str) -> bool:
    """`CREDENTIALS.search(lowered)`, skipping the word-bounded scan when no literal is there."""
    return (
        _CREDENTIALS_LITERAL.search(lowered) is not None and CREDENTIALS.search(lowered) is not None
    )


def messenger_named(lowered: str) -> str | None:
    """The messenger a message names, if any (short forms only next to a handle)."""
    if not may_name_messenger(lowered):
        return None
    found = MESSENGER.search(lowered)
    if found:
        return found.group(0)
    short = MESSENGER_SHORT.search(lowered)
    if short and HANDLE.search(lowered):
        return short.group(0)
    return None


# Asking the reader for their e-mail or number, or to write to the sender: beside a sales pitch,
# a prize or a promotion this is how addresses are collected to sell to (alone it is
# `personal_info`'s solicitation, and only that).
CONTACT_REQUEST = re.compile(
    r"\b(?:send|give|drop|leave|post|pm|dm|text|txt|tell|share|reply\s+with|need|want)\s+"
    r"(?:me\s+|us\s+)?(?:your|ur|yr|you'?re)\s+(?:e[\s-]?mail|mail|gmail|number|phone|digits|"
    r"details|contact|name)\b"
    r"|\b(?:txt|text|reply|send)\s+(?:back\s+)?(?:with\s+)?(?:your\s+|ur\s+)?name\s+"
    r"(?:&amp;|&|and|n)\s+age\b"
    r"|\be?[\s-]?mail\s+(?:me|us)\b"
)
# A word each CONTACT_REQUEST match holds as a whole word run ("e-mail" splits to "e", "mail").
_CONTACT_WORDS = word_set("email mail gmail number phone digits details contact name")
_CONTACT_LITERAL = re.compile(r"mail|number|phone|digits|details|contact|name")


def may_ask_contact(lowered: str, words: Collection[str] | None = None) -> bool:
    """False only when `CONTACT_REQUEST.search(lowered)` is certainly None."""
    if words is None:
        words = ascii_words(lowered)
    if words is not None:
        return not _CONTACT_WORDS.isdisjoint(words)
    return _CONTACT_LITERAL.search(lowered) is not None


# Asking for credentials is phishing (impersonation), not advertising, whatever else it says.
CREDENTIALS = re.compile(
    r"\b(?:password|passwd|pass word|login|log-in|log in details|2fa|pin|otp|"
    r"verification code|security code|sms code)\b"
)
