"""Flags advertising: links to other sites, chip-selling and rakeback offers, and invitations to
continue on a messenger ("msg me on telegram @x").

"Rakeback" or "45%" alone is poker talk, so a sales word needs a second signal (a call to
action, a messenger, a handle, a price or a link). Links to the site's own domains are fine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.findings import Finding, Severity, message_finding
from railbird.detectors.state import State
from railbird.detectors.text.contact_lexicon import (
    CALL_TO_ACTION,
    COMMERCIAL,
    COMMERCIAL_WORDS,
    HANDLE,
    MESSENGER_WORDS,
    PRICE,
    ascii_words,
    asks_for_credentials,
    may_be_commercial,
    may_call_to_action,
    may_name_messenger,
    may_name_price,
    messenger_named,
)
from railbird.detectors.text.link_risks import link_risks
from railbird.detectors.text.links import extract_links, is_own_domain, may_hold_link

DEFAULT_SITE_DOMAINS = ("ultimatepoker.com",)
# The other-site hosts, the signals, whether there is a sales pitch, the messenger named.
Pitch = tuple[tuple[str, ...], tuple[str, ...], bool, str | None]
# Per site list, a bounded memo of `_read_pitch`, emptied when full (no LRU bookkeeping).
_pitches: dict[tuple[str, ...], dict[str, Pitch | None]] = {}
_PITCHES_MAX = 4096
_UNKNOWN: Pitch = ((), (), False, None)
_PITCH_WORDS = COMMERCIAL_WORDS | MESSENGER_WORDS


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
        hosts, signals, sales, messenger = pitch
        strength = len(signals)
        severity: Severity = "high" if strength >= 3 else "medium" if strength == 2 else "low"
        return [
            message_finding(
                event,
                detector=self.name,
                category="advertising",
                severity=severity,
                score=min(0.97, 0.5 + 0.15 * strength),
                kind="advertising",
                summary=f"advertising in {event.channel} chat: " + "; ".join(signals),
                measures={
                    "hosts": list(hosts),
                    "signals": strength,
                    "sales_pitch": sales,
                    "messenger": messenger,
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


def _read_pitch(text: str, site_domains: tuple[str, ...]) -> Pitch | None:
    """The other-site hosts, the signals, whether there is a sales pitch and the messenger
    named, when `text` advertises."""
    lowered = text.lower()
    words = ascii_words(lowered)
    holds_link = may_hold_link(lowered)
    # A finding needs a link, a sales pitch or a messenger: most chat has none of them. For
    # ASCII text, one set probe and a few literals prove that for both word gates below.
    if (
        words is not None
        and not holds_link
        and _PITCH_WORDS.isdisjoint(words)
        and "%" not in lowered
        and "$" not in lowered
        and "telegr" not in lowered
        and "@" not in lowered
        and "#" not in lowered
    ):
        return None
    links = extract_links(text) if holds_link else ()
    if not (links or may_be_commercial(lowered, words) or may_name_messenger(lowered, words)):
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
    sales = COMMERCIAL.search(lowered) if may_be_commercial(lowered, words) else None
    messenger = messenger_named(lowered)
    handle = (
        HANDLE.search(lowered)
        if (messenger or sales) and ("@" in lowered or "#" in lowered)
        else None
    )
    action = (
        CALL_TO_ACTION.search(lowered)
        if (sales or messenger or hosts) and may_call_to_action(lowered, words)
        else None
    )
    price = PRICE.search(lowered) if sales and may_name_price(lowered) else None
    signals: list[str] = []
    if hosts:
        signals.append("link to " + ", ".join(hosts))
    if sales:
        signals.append(f'sales pitch "{sales.group(0)}"')
    if messenger:
        signals.append(f"messenger {messenger}" + (f" {handle.group(0)}" if handle else ""))
    if action:
        signals.append(f'call to action "{action.group(0)}"')
    if price:
        signals.append(f"price {price.group(0)}")
    offers = bool(sales) and len(signals) >= 2
    moves_off_site = bool(messenger) and bool(handle) and bool(action)
    if not (hosts or offers or moves_off_site):
        return None
    return tuple(hosts), tuple(signals), bool(sales), messenger
