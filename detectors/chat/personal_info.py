"""Flags personal information in chat: asking for it (`pii_solicitation`: real name, phone,
email, address, messenger handles, "add me on whatsapp") and giving it out (`pii_disclosure`:
emails, phone numbers, Luhn-valid card numbers, street addresses).

An invitation that already carries a handle or a sales pitch ("msg me on telegram @dealz,
cheap rakeback") is advertising and left to that detector. An ask for someone's details is a
solicitation whoever makes it: "send me your email" is flagged here, and when a sales pitch, a
prize or a promotion comes with it ("send me your email for free chips") `advertising` flags
the pitch as well. Disclosed values never appear in the evidence, only their kinds: the
evidence is stored and logged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from railbird.detectors.chat.reasons import chat_finding
from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.findings import SEVERITY_RANK, Finding, Severity
from railbird.detectors.state import State
from railbird.detectors.text.contact_lexicon import (
    COMMERCIAL,
    HANDLE,
    MESSENGER_WORDS,
    ascii_words,
    may_name_messenger,
    messenger_named,
    word_set,
)
from railbird.detectors.text.pii_patterns import find_pii, gate_text

_YOUR = r"(?:your|ur|yr|yer|yur|you'?re|u r)"
_ITEM = (
    r"(?:real\s+|full\s+|last\s+|first\s+|home\s+|phone\s+|cell\s+|mobile\s+|e[\s-]?mail\s+)*"
    r"(?:name|number|phone|cell|mobile|digits|e[\s-]?mail|mail\s+id|gmail|address|addy|location|"
    r"snap(?:chat)?|"
    r"insta(?:gram)?|ig|discord|telegram|whats\s?app|skype|facebook|fb|socials?|handle|tg|"
    r"wechat|kik|contact(?: info| details)?|age|birthday|dob)(?!\s+of\b)"
)
ASKING = re.compile(
    r"\b(?:what'?s|whats|wats|wuts|what is|what are|tell me|give me|send me|gimme|share|"
    r"drop|need|want|can i (?:get|have)|could i (?:get|have)|may i have|pm me|dm me|"
    r"msg me|text me)\s+(?:\w+\s+){0,2}?" + _YOUR + r"\s+" + _ITEM + r"\b",
    re.IGNORECASE,
)
PERSONAL_DIRECT = re.compile(
    r"\b" + _YOUR + r"\s+(?:(?:real|full|last|first|irl)\s+name|(?:phone|cell|mobile)\s*"
    r"(?:number|#|no)?|e[\s-]?mail(?:\s+(?:address|id))?|mail\s+id|gmail|home\s+address|address|"
    r"addy)\b"
    r"|\b(?:where|what (?:city|town|street|area|country|state))\b.{0,25}\b(?:do|d) (?:you|u|ya) "
    r"live\b|\bwhat city (?:do|are) (?:you|u)\b"
    r"|\b(?:do|d) (?:you|u|ya) have (?:whats\s?app|telegram|snap(?:chat)?|insta(?:gram)?|"
    r"discord|skype|kik|wechat)\b",
    re.IGNORECASE,
)
INVITE = re.compile(
    r"\b(?:add|msg|message|dm|pm|text|hit|find|follow|contact|ping|call|reach|talk to)\s+"
    r"(?:me|us)\s+(?:up\s+)?(?:on|at|via|in|thru|through|over)\b",
    re.IGNORECASE,
)
_QUICK = re.compile(
    r"your|ur\b|yr\b|yer|you'?re|u r|live|have|add|msg|message|dm|pm|text|hit|find|follow|contact|"
    r"ping|call|reach|talk",
    re.IGNORECASE,
)
# A word every ASKING or PERSONAL_DIRECT match on ASCII text holds as a whole word run: "live",
# "have", "city" or an asked-for item; for other text, a literal it holds in `gate_text`
# ("live", "have ", "what city", or a word for "your" - all end in "r" or "re" - and an item).
_ASK_WORDS = word_set(
    "live have city name number phone cell mobile digits email mail gmail address addy location "
    "snap snapchat insta instagram ig discord telegram whats whatsapp skype facebook fb social "
    "socials handle tg wechat kik contact age birthday dob phonenumber phoneno cellnumber cellno "
    "mobilenumber mobileno"
)
_ASK_GATE = re.compile(
    r"live|have |what city|re?\s+(?:real|full|last|first|home|phone|cell|mobile|e[\s-]?mail|mail|"
    r"gmail|irl|name|number|digits|address|addy|location|snap|insta|ig|discord|telegram|whats|skype|"
    r"facebook|fb|social|handle|tg|wechat|kik|contact|age|birthday|dob)"
)
_ASK_OR_MESSENGER = _ASK_WORDS | MESSENGER_WORDS
Reading = tuple[tuple[str, ...], int, str | None]
# Bounded memo of `_read`, emptied when full (cheaper than LRU bookkeeping on every miss).
_readings: dict[str, Reading] = {}
_READINGS_MAX = 4096
_KIND_SEVERITY: dict[str, Severity] = {
    "card": "critical",
    "address": "high",
    "phone": "high",
    "email": "medium",
}


@dataclass(frozen=True, slots=True)
class PersonalInfo:
    name: ClassVar[str] = "personal_info"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or event.kind != "text" or len(event.text) < 5:
            return []
        findings: list[Finding] = []
        disclosed, items, asked = _read(event.text)
        if disclosed:
            kinds = list(disclosed)
            severity = max((_KIND_SEVERITY[k] for k in kinds), key=SEVERITY_RANK.__getitem__)
            findings.append(
                chat_finding(
                    self.name,
                    "pii_disclosure",
                    event,
                    severity,
                    0.9,
                    f"message discloses personal data: {', '.join(kinds)} (redacted)",
                    {"kinds": kinds, "items": items},
                )
            )
        if asked:
            findings.append(
                chat_finding(
                    self.name,
                    "pii_solicitation",
                    event,
                    "high" if event.channel == "private" else "medium",
                    0.85,
                    f"asks for personal contact details: {asked}",
                    {"asked_for": asked, "channel": event.channel},
                )
            )
        return findings

    @staticmethod
    def _solicitation(text: str) -> str | None:
        """What `text` asks for (see `_asks`)."""
        lowered = text.lower()
        return _asks(text, lowered, ascii_words(lowered))


def _asks(text: str, lowered: str, words: tuple[str, ...] | None) -> str | None:
    """What `text` asks for, given its lower case and `ascii_words` of that. Each pattern runs
    only when the words it needs are there (an asking phrase, or an invitation naming a
    messenger); tests compare this with running them all."""
    if words is not None:
        # One set probe for both readings below: most chat names no item and no messenger.
        if (
            _ASK_OR_MESSENGER.isdisjoint(words)
            and "telegr" not in lowered
            and "@" not in lowered
            and "#" not in lowered
        ):
            return None
        asking = not _ASK_WORDS.isdisjoint(words)
    else:
        asking = _ASK_GATE.search(gate_text(text)) is not None
    messenger_possible = may_name_messenger(lowered, words)
    if not (asking or messenger_possible) or not _QUICK.search(text):
        return None
    found = (ASKING.search(text) or PERSONAL_DIRECT.search(text)) if asking else None
    if found:
        return f'"{found.group(0).lower()}"'
    messenger = messenger_named(lowered) if messenger_possible else None
    if messenger is None:
        return None
    invite = INVITE.search(text)
    if invite is None or HANDLE.search(lowered) or COMMERCIAL.search(lowered):
        return None
    return f'"{invite.group(0).lower()} {messenger}"'


def _read(text: str) -> Reading:
    """The kinds of personal data `text` discloses, how many items, and what it asks for;
    memoised per text because table chat repeats itself ("gg", "nh", "ty")."""
    known = _readings.get(text)
    if known is not None:
        return known
    lowered = text.lower()
    words = ascii_words(lowered)
    disclosed = find_pii(text, lowered, words)
    kinds = tuple(sorted({span.kind for span in disclosed})) if disclosed else ()
    reading = (kinds, len(disclosed), _asks(text, lowered, words))
    if len(_readings) >= _READINGS_MAX:
        _readings.clear()
    _readings[text] = reading
    return reading
