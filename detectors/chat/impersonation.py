"""Flags players posing as the site: staff claims, phishing for passwords or codes, staff names.

The scam is always the same shape: claim authority ("SUPPORT here", "I'm a mod"), create urgency
("your account is locked"), ask for the secret ("send your password", "the code we texted").
Talking *about* staff is everyday chat ("support told me to restart", "mod is slow", "never share
your password"), so a claim must be made in the first person or as a sign-off, and a request for
a secret must be a request, not a warning.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import lru_cache
from typing import ClassVar

from railbird.detectors.chat.reasons import (
    Reason,
    chat_finding,
    describe,
    memoised_per_text,
    reason_measures,
)
from railbird.detectors.detector import Keying
from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.findings import SEVERITY_RANK, Finding, Severity
from railbird.detectors.state import State
from railbird.detectors.text.normalise import fold, normalise
from railbird.detectors.text.plain_text import plain_words

_STAFF = (
    r"(?:support|support team|customer support|customer service|customer care|help desk|helpdesk|"
    r"admin|admins|administrator|moderator|moderators|mod|mods|staff|security team|security "
    r"department|security|compliance team|compliance|fraud team|fraud department|risk team|game "
    r"integrity|integrity team|account team|accounts team|accounts department|billing "
    r"department|payments team|cashier team|cashier|vip team|vip host|vip manager|trust and "
    r"safety|site team)"
)
_SECRET = (
    r"(?:password|passwords|pass word|passwd|pw|pwd|login|login details|log in details|"
    r"username and password|pin|pin code|2fa|2fa code|two factor|two factor code|verification "
    r"code|security code|sms code|otp|one time code|auth code|authentication code|"
    r"authenticator code|account details|credentials|card number|card details|cvv|cvc|"
    r"security answer|code we (?:sent|texted|emailed)|code from (?:the )?(?:sms|text|email))"
)
_NEGATION = re.compile(r"\b(?:never|dont|don t|do not|nobody|no one|won t|wont|will never)\b")
_DISCLAIMER = re.compile(r"\b(?:not|never|no longer|just|was|used to)\b")
_NOT_A_CLAIM = (
    r"(?! issue| problem| question| hole| risk| thing| concern| update| patch| is| was| told|"
    r" said| says| sucks| slow)"
)
_OPENERS = (
    r"(?=$| your| you| we| please| pls| plz| to| with| regarding| about| account| dear| hello| hi|"
    r" attention| urgent| important| notice| this is| i m| im| send| give| tell| dm| pm| confirm|"
    r" verify| reply| we re| we ve)"
)
_CLAIMS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), label)
    for p, label in (
        (
            rf"\b(?:i am|i m|im|we are|we re|i work for|i work with|calling from|writing from|on "
            rf"behalf of|this is|here is) (?:a |an |the |from |with |your |official |the official |"
            rf"head |senior |lead )*(?:\w+ ){{0,2}}{_STAFF}\b{_NOT_A_CLAIM}",
            "staff claim",
        ),
        (rf"^(?:\w+ ){{0,3}}{_STAFF} (?:here|speaking|team here){_OPENERS}", "staff sign-off"),
        (
            rf"^(?:\w+ ){{0,2}}(?:{_STAFF}|official) (?:notice|announcement|alert|warning)\b",
            "staff sign-off",
        ),
        (
            rf"^(?:\w+ )?(?:message|notice|alert|warning) from (?:the )?(?:\w+ )?{_STAFF}\b",
            "staff sign-off",
        ),
    )
)
_STRONG_ASK = (
    r"(?:send|give|tell|dm|pm|share|reply with|whisper|read me|paste|post|i need|we need|what is|"
    r"whats|what s)"
)
_PHISH = re.compile(
    rf"\b{_STRONG_ASK} (?:me |us |it |to me |to us )?(?:your|ur|yr) (?:\w+ )?{_SECRET}\b|"
    rf"\b{_STRONG_ASK} (?:me |us )?the (?:code|pin|otp|password) (?:we|i) (?:sent|texted|emailed)"
)
_PHISH_WEAK = re.compile(
    rf"\b(?:enter|type|confirm|verify|provide|update) (?:your|ur|yr) (?:\w+ )?{_SECRET}\b"
)
_URGENCY = re.compile(
    r"\b(?:your|ur) (?:account|acct|balance|winnings|withdrawal|funds) (?:is|has been|will be|"
    r"was|are|have been|got) (?:\w+ )?(?:locked|suspended|banned|closed|flagged|compromised|"
    r"frozen|under review|restricted|on hold|blocked|deleted|terminated)\b|\bverify (?:your|ur) "
    r"(?:account|identity|acct)\b"
)


def _words(words: str) -> frozenset[str]:
    return frozenset(words.split())


_TRIGGERS = _words(
    "support admin admins administrator moderator moderators mod mods staff security compliance "
    "fraud risk integrity account accounts billing payments cashier vip trust site customer help "
    "helpdesk official password passwords pass passwd pw pwd login log username pin 2fa two "
    "verification code sms otp auth authentication authenticator credentials card cvv cvc verify "
    "acct balance winnings withdrawal funds details"
)


# Whole tokens a match holds: a claim, a staff word; an account scare, "your" and an account
# word; phishing, a secret and "your" (or "we sent"). Read off the token list before running
# the long patterns; exact while no token holds "*", the only character a token keeps that
# ends a word inside it.
_STAFF_WORDS = _words(
    "support customer help helpdesk admin admins administrator moderator moderators mod mods staff "
    "security compliance fraud risk integrity account accounts billing payments cashier vip trust "
    "site official"
)
_SECRET_WORDS = _words(
    "password passwords pass passwd pw pwd login details username pin 2fa factor verification "
    "security sms otp code auth authentication authenticator credentials card cvv cvc"
)
_YOUR_WORDS = frozenset(["your", "ur", "yr"])
_SENT_WORDS = ("sent", "texted", "emailed")
_YOUR_OR_SENT = _YOUR_WORDS | set(_SENT_WORDS)
_ACCOUNT_WORDS = _words("account acct balance winnings withdrawal funds identity")
# Staff words in a screen name ("Support_Team", "ADMlN", "xX_Mod_Xx"), after folding leetspeak.
_STAFF_NAME = re.compile(
    r"(?<!b)admin(?!ton)|support|moderator|(?:^|[^a-z])mods?(?:[^a-z]|$)|(?<![a-z])staff(?!ord|y|ie)|"
    r"adm[il]n|official|security|helpdesk|customerservice|cashier|trustandsafety"
)
_NAME_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a"})
_SCORES: dict[str, float] = {"low": 0.5, "medium": 0.7, "high": 0.88, "critical": 0.98}


@lru_cache(maxsize=8192)
def staff_name(screen_name: str | None) -> bool:
    """Whether a screen name dresses up as staff ("SUPP0RT", "Admin_Joe", "Mod-Kate")."""
    if not screen_name:
        return False
    folded = fold(screen_name)[0].translate(_NAME_LEET)
    squashed = re.sub(r"[^a-z]", "", folded)
    camel = re.sub(r"([a-z])([A-Z])", r"\1 \2", screen_name)
    spaced = re.sub(r"[^a-z]+", " ", fold(camel)[0].translate(_NAME_LEET))
    return bool(_STAFF_NAME.search(squashed) or _STAFF_NAME.search(f" {spaced} ")) and (
        "badminton" not in squashed
    )


def impersonation_reasons(text: str) -> tuple[list[Reason], Severity | None]:
    reasons, severity = _read(text)
    return list(reasons), severity


def _reasons(text: str) -> tuple[list[Reason], Severity | None]:
    # Plain chat (most of it) is judged on its words without building tokens.
    plain = plain_words(text)
    if plain is not None:
        # A plain message's stream is its words joined by spaces, none of them holding "*".
        possible = _possible(plain)
        if possible is None:
            return [], None
        return _judged(" ".join(plain), possible)
    parsed = normalise(text)
    stream = parsed.stream
    if _TRIGGERS.isdisjoint(t.squeezed for t in parsed.tokens):
        return [], None
    # Each pattern runs only if its words are there (see `_possible`); when none can match,
    # neither can their union, which is what this function used to test first.
    possible = (True, True, True) if "*" in stream else _possible(stream.split())
    if possible is None:
        return [], None
    return _judged(stream, possible)


def _judged(stream: str, possible: tuple[bool, bool, bool]) -> tuple[list[Reason], Severity | None]:
    can_claim, can_scare, can_phish = possible
    reasons: list[Reason] = []
    claimed = False
    for pattern, label in _CLAIMS if can_claim else ():
        found = pattern.search(stream)
        if (
            found is not None
            and not _negated(stream, found.start())
            and _DISCLAIMER.search(found.group()) is None
        ):
            reasons.append(Reason(label, found.group(), found.group(), "claim"))
            claimed = True
            break
    urgency = _URGENCY.search(stream) if can_scare else None
    phish = _PHISH.search(stream) if can_phish else None
    if phish is None and can_phish and (claimed or urgency is not None):
        phish = _PHISH_WEAK.search(stream)
    phishing = phish is not None and not _negated(stream, phish.start())
    if phish is not None and phishing:
        reasons.append(Reason("asks for", phish.group(), phish.group(), "phishing"))
    if urgency is not None:
        reasons.append(Reason("account scare", urgency.group(), urgency.group(), "urgency"))
    if not reasons:
        return [], None
    if phishing and (claimed or urgency is not None):
        return reasons, "critical"
    if phishing:
        return reasons, "high"
    if claimed and urgency is not None:
        return reasons, "high"
    if claimed:
        return reasons, "medium"
    return [], None  # an account scare alone is what players say about their own accounts


_read = memoised_per_text(_reasons, size=4096)


def _possible(words: Collection[str]) -> tuple[bool, bool, bool] | None:
    """Which of the claim, account-scare and phishing patterns can match a stream of these
    tokens (none holding "*"); None when no pattern can, or the trigger words are absent."""
    if _TRIGGERS.isdisjoint(words):
        return None
    can_claim = not _STAFF_WORDS.isdisjoint(words)
    can_scare = not _YOUR_WORDS.isdisjoint(words) and not _ACCOUNT_WORDS.isdisjoint(words)
    # `_PHISH`'s "the code we sent" has no closing word boundary: "texted7you" (normalised to
    # "textedtyou") still matches it, so a word that merely starts with "sent" counts too.
    can_phish = not _SECRET_WORDS.isdisjoint(words) and (
        not _YOUR_OR_SENT.isdisjoint(words) or any(w.startswith(_SENT_WORDS) for w in words)
    )
    if can_claim or can_scare or can_phish:
        return can_claim, can_scare, can_phish
    return None


def _negated(stream: str, start: int) -> bool:
    return _NEGATION.search(stream, max(0, start - 20), start) is not None


@dataclass(frozen=True, slots=True)
class Impersonation:
    name: ClassVar[str] = "impersonation"
    # One flag per player and staff-like name, wherever they say it: what it flags is about
    # the player (a stream brings it each player's chat from every table and channel).
    keyed_by: ClassVar[Keying] = "player"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})
    # Real staff accounts, whose staff names and claims are the truth.
    staff_player_ids: frozenset[str] = field(default_factory=frozenset)

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or event.player_id in self.staff_player_ids:
            return []
        found, severity = _read(event.text) if event.kind == "text" else ((), None)
        dressed = staff_name(event.screen_name)
        if not found and not dressed:  # most chat: nothing to report, nothing to build
            return []
        reasons = list(found)
        if dressed:
            name = event.screen_name or ""
            reasons.append(Reason("staff-like screen name", name.lower(), name, "screen_name"))
            if severity is None or SEVERITY_RANK[severity] < SEVERITY_RANK["medium"]:
                severity = "medium"
            elif reasons[0].tier == "claim" and severity == "medium":  # claim from a staff name
                severity = "high"
        if not reasons or severity is None:
            return []
        # A staff-like name alone is one flag per player and name, not one per message.
        key = None
        if dressed and len(reasons) == 1:
            key = f"screen_name:{event.player_id}:{(event.screen_name or '').lower()}"
        return [
            chat_finding(
                self.name,
                "impersonation",
                event,
                severity,
                _SCORES[severity],
                f"{describe(reasons)} in {event.channel} chat",
                reason_measures(reasons),
                dedupe_key=key,
            )
        ]
