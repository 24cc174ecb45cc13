"""Flags advertising: links to other sites, chip-selling and rakeback offers, invitations to
continue on a messenger ("msg me on telegram @x"), self-promotion ("subscribe to my channel",
"like this comment if ...") and prize or premium-rate scams ("text WIN to 80082"), with or
without a link.

"Rakeback" or "45%" alone is poker talk, so a sales word needs a second signal (a call to
action, a messenger, a handle, a price, a link, or an ask for the reader's e-mail or number).
So do "check", "call", "like", "follow", "claim", "text", prizes and five-digit numbers: a
promotion is a call to the audience tied to what it promotes (`text.promotion_lexicon`), and a
scam is two kinds of evidence, one of them a short code, a premium-rate number or price, or a
prize claimed for the reader (`text.prize_lexicon`). Links to the site's own domains are fine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.findings import Finding, Severity, message_finding
from railbird.detectors.state import State
from railbird.detectors.text.contact_lexicon import (
    CALL_TO_ACTION,
    COMMERCIAL,
    COMMERCIAL_WORDS,
    CONTACT_REQUEST,
    HANDLE,
    MESSENGER_WORDS,
    PRICE,
    ascii_words,
    asks_for_credentials,
    may_ask_contact,
    may_be_commercial,
    may_call_to_action,
    may_name_messenger,
    may_name_price,
    messenger_named,
)
from railbird.detectors.text.link_risks import link_risks
from railbird.detectors.text.links import (
    DEFAULT_SITE_DOMAINS,
    extract_links,
    is_own_domain,
    may_hold_link,
)
from railbird.detectors.text.prize_lexicon import MARKER_WORDS, marker_hint, scam_signals
from railbird.detectors.text.promotion_lexicon import (
    PROMOTION_WORDS,
    promotion,
    promotion_literals,
)


class Pitch(NamedTuple):
    """What `_read_pitch` found in an advertising message."""

    hosts: tuple[str, ...]  # other sites linked
    signals: tuple[str, ...]  # the evidence, one phrase a signal
    strength: int  # signals, a phrase that is two (a call to action and its object) counted twice
    sales: bool  # a sales pitch
    messenger: str | None  # the messenger named
    promotes: bool  # self-promotion: own channel, like-bait, subscribe-back
    scam: tuple[str, ...]  # kinds of prize or premium-rate scam evidence, when they make one


# Per site list, a bounded memo of `_read_pitch`, emptied when full (no LRU bookkeeping).
_pitches: dict[tuple[str, ...], dict[str, Pitch | None]] = {}
_PITCHES_MAX = 4096
_UNKNOWN = Pitch((), (), 0, False, None, False, ())
_PITCH_WORDS = COMMERCIAL_WORDS | MESSENGER_WORDS | PROMOTION_WORDS | MARKER_WORDS


@dataclass(frozen=True, slots=True)
class Advertising:
    name: ClassVar[str] = "advertising"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})
    site_domains: tuple[str, ...] = DEFAULT_SITE_DOMAINS

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or event.kind != "text" or len(event.text) < 6:
            return []
        pitch = _pitch(event.text, self.site_domains)
        if pitch is None:
            return []
        strength = pitch.strength
        severity: Severity = "high" if strength >= 3 else "medium" if strength == 2 else "low"
        return [
            message_finding(
                event,
                detector=self.name,
                category="advertising",
                severity=severity,
                score=min(0.97, 0.5 + 0.15 * strength),
                kind="advertising",
                summary=f"advertising in {event.channel} chat: " + "; ".join(pitch.signals),
                measures={
                    "hosts": list(pitch.hosts),
                    "signals": strength,
                    "sales_pitch": pitch.sales,
                    "messenger": pitch.messenger,
                    "self_promotion": pitch.promotes,
                    "scam": list(pitch.scam),
                },
            )
        ]


def _pitch(text: str, site_domains: tuple[str, ...]) -> Pitch | None:
    """`_read_pitch`, memoised per site list and text because table chat repeats itself."""
    memo = _pitches.get(site_domains)
    if memo is None:
        memo = _pitches[site_domains] = {}
    known = memo.get(text, _UNKNOWN)
    if known is not _UNKNOWN:
        return known
    if len(memo) >= _PITCHES_MAX:
        memo.clear()
    pitch = memo[text] = _read_pitch(text, site_domains)
    return pitch


def _inside(start: int, end: int, span: tuple[str, int, int] | None) -> bool:
    """Whether [start, end) lies in the promotion phrase `span`: the same evidence, once."""
    return span is not None and span[1] <= start and end <= span[2]


def _read_pitch(text: str, site_domains: tuple[str, ...]) -> Pitch | None:
    """What `text` advertises, if it does (see `Pitch`).

    A link, a sales pitch with a second signal, a messenger with a handle and a call to action,
    a self-promotion phrase, or two signals of a prize or premium-rate scam: each of those is
    advertising. A phrase is read once: a sales word or a call to action inside a promotion
    phrase ("check out my channel") is that phrase, not a further signal."""
    lowered = text.lower()
    words = ascii_words(lowered)
    holds_link = may_hold_link(lowered)
    # A finding needs a link, a sales pitch, a messenger, a promotion or a scam marker: most chat
    # has none of them. For ASCII text, one set probe and a few literals prove that for all the
    # word gates below.
    if (
        words is not None
        and not holds_link
        and _PITCH_WORDS.isdisjoint(words)
        and "%" not in lowered
        and "$" not in lowered
        and "telegr" not in lowered
        and "@" not in lowered
        and "#" not in lowered
        and not promotion_literals(lowered, words)
        and not marker_hint(lowered)
    ):
        return None
    links = extract_links(text) if holds_link else ()
    commercial = may_be_commercial(lowered, words)
    promo = promotion(lowered, words)
    contact = CONTACT_REQUEST.search(lowered) if may_ask_contact(lowered, words) else None
    scam = scam_signals(lowered, words, contact is not None)
    if not (links or commercial or may_name_messenger(lowered, words) or promo or scam):
        return None
    if asks_for_credentials(lowered):
        return None
    # Dangerous links are the malicious_link detector's; here only ordinary other sites.
    hosts = sorted(
        {
            link.host
            for link in links
            if not is_own_domain(link.host, site_domains) and not link_risks(link, site_domains)
        }
    )
    sales = COMMERCIAL.search(lowered) if commercial else None
    messenger = messenger_named(lowered)
    handle = (
        HANDLE.search(lowered)
        if (messenger or sales) and ("@" in lowered or "#" in lowered)
        else None
    )
    # A prize or a premium-rate marker alone is poker talk ("time to claim", "2nd prize"):
    # scam evidence counts only when it adds up to two signals.
    scam_strength = sum(weight for _, weight, _ in scam) + (1 if scam and contact else 0)
    scams = scam_strength >= 2
    if sales and _inside(sales.start(), sales.end(), promo):
        sales = None
    action = (
        CALL_TO_ACTION.search(lowered)
        if (sales or messenger or hosts or promo or scams) and may_call_to_action(lowered, words)
        else None
    )
    if action and (
        _inside(action.start(), action.end(), promo)
        or (contact and contact.start() <= action.start() and action.end() <= contact.end())
    ):
        action = None  # "check out" in "check out my channel", "text me" in "text me your..."
    price = PRICE.search(lowered) if sales and may_name_price(lowered) else None
    signals: list[str] = []
    strength = 0
    if hosts:
        signals.append("link to " + ", ".join(hosts))
    if sales:
        signals.append(f'sales pitch "{sales.group(0)}"')
    if promo:
        signals.append(f'self-promotion "{promo[0]}"')
        strength += 1  # a call to the audience and what it promotes: two signals in one phrase
    if scams:
        for kind, weight, shown in scam:
            signals.append(f'{kind} "{shown}"')
            strength += weight - 1
    # The messenger a promotion names ("follow me on instagram") is that phrase, unless a
    # handle comes with it.
    if messenger and (handle or not promo or messenger not in promo[0]):
        signals.append(f"messenger {messenger}" + (f" {handle.group(0)}" if handle else ""))
    if action:
        signals.append(f'call to action "{action.group(0)}"')
    if contact and (sales or promo or scams):
        signals.append(f'asks for contact details "{contact.group(0)}"')
    if price:
        signals.append(f"price {price.group(0)}")
    offers = bool(sales) and len(signals) >= 2
    moves_off_site = bool(messenger) and bool(handle) and bool(action)
    if not (hosts or offers or moves_off_site or promo or scams):
        return None
    return Pitch(
        tuple(hosts),
        tuple(signals),
        strength + len(signals),
        bool(sales),
        messenger,
        promo is not None,
        tuple(kind for kind, _, _ in scam) if scams else (),
    )
