"""Flags personal information in chat: asking for it (`pii_solicitation`: real name, phone,
email, address, messenger handles, "add me on whatsapp") and giving it out (`pii_disclosure`:
emails, phone numbers, Luhn-valid card numbers, street addresses).

An invitation that already carries a handle or a sales pitch ("msg me on telegram @dealz,
cheap rakeback") is advertising and left to that detector. Disclosed values never appear in the
evidence, only their kinds: the evidence is stored and logged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from detectors.contact_lexicon import COMMERCIAL, HANDLE, messenger_named
from detectors.events import AnyEvent, ChatEvent
from detectors.findings import Evidence, Finding, Severity
from detectors.pii_patterns import find_pii
from detectors.state import State

_YOUR = r"(?:your|ur|yer|yur|you'?re|u r)"
_ITEM = (
    r"(?:real\s+|full\s+|last\s+|first\s+|home\s+|phone\s+|cell\s+|mobile\s+|e-?mail\s+)*"
    r"(?:name|number|phone|cell|mobile|digits|e-?mail|address|addy|location|snap(?:chat)?|"
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
    r"(?:number|#|no)?|e-?mail(?:\s+address)?|home\s+address|address|addy)\b"
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
    r"your|ur\b|yer|you'?re|u r|live|have|add|msg|message|dm|pm|text|hit|find|follow|contact|"
    r"ping|call|reach|talk",
    re.IGNORECASE,
)
_KIND_SEVERITY: dict[str, Severity] = {
    "card": "critical",
    "address": "high",
    "phone": "high",
    "email": "medium",
}


@dataclass(frozen=True, slots=True)
class PersonalInfo:
    name: ClassVar[str] = "personal_info"

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or event.kind != "text" or len(event.text) < 5:
            return []
        text = event.text
        findings: list[Finding] = []
        disclosed = find_pii(text)
        if disclosed:
            kinds: list[str] = sorted({s.kind for s in disclosed})
            severity = max(
                (_KIND_SEVERITY[k] for k in kinds), key=("low", "medium", "high", "critical").index
            )
            findings.append(
                self._finding(
                    event,
                    "pii_disclosure",
                    severity,
                    0.9,
                    "pii_disclosure",
                    f"message discloses personal data: {', '.join(kinds)} (redacted)",
                    {"kinds": kinds, "items": len(disclosed)},
                )
            )
        asked = self._solicitation(text)
        if asked:
            findings.append(
                self._finding(
                    event,
                    "pii_solicitation",
                    "high" if event.channel == "private" else "medium",
                    0.85,
                    "pii_solicitation",
                    f"asks for personal contact details: {asked}",
                    {"asked_for": asked, "channel": event.channel},
                )
            )
        return findings

    @staticmethod
    def _solicitation(text: str) -> str | None:
        if not _QUICK.search(text):
            return None
        lowered = text.lower()
        found = ASKING.search(text) or PERSONAL_DIRECT.search(text)
        if found:
            return f'"{found.group(0).lower()}"'
        invite = INVITE.search(text)
        if invite is None:
            return None
        messenger = messenger_named(lowered)
        if messenger is None or HANDLE.search(lowered) or COMMERCIAL.search(lowered):
            return None
        return f'"{invite.group(0).lower()} {messenger}"'

    def _finding(
        self,
        event: ChatEvent,
        category: str,
        severity: Severity,
        score: float,
        kind: str,
        summary: str,
        measures: dict[str, str | int | list[str]],
    ) -> Finding:
        return Finding(
            detector=self.name,
            category="pii_disclosure" if category == "pii_disclosure" else "pii_solicitation",
            severity=severity,
            score=score,
            ts=event.ts,
            player_ids=(event.player_id,),
            table_id=event.table_id,
            tournament_id=event.tournament_id,
            message_ids=(event.message_id,),
            evidence=Evidence(
                kind=kind,
                summary=summary,
                event_ids=(event.message_id,),
                measures=dict(measures),
            ),
        )
