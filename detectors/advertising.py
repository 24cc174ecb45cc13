"""Flags advertising: links to other sites, chip-selling and rakeback offers, and invitations to
continue on a messenger ("msg me on telegram @x").

"Rakeback" or "45%" alone is poker talk, so a sales word needs a second signal (a call to
action, a messenger, a handle, a price or a link). Links to the site's own domains are fine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from detectors.contact_lexicon import (
    CALL_TO_ACTION,
    COMMERCIAL,
    CREDENTIALS,
    HANDLE,
    PRICE,
    messenger_named,
)
from detectors.events import AnyEvent, ChatEvent
from detectors.findings import Evidence, Finding, Severity
from detectors.link_parsing import extract_links, is_own_domain
from detectors.malicious_link import link_risks
from detectors.state import State

DEFAULT_SITE_DOMAINS = ("ultimatepoker.com",)


@dataclass(frozen=True, slots=True)
class Advertising:
    name: ClassVar[str] = "advertising"
    site_domains: tuple[str, ...] = DEFAULT_SITE_DOMAINS

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or event.kind != "text" or len(event.text) < 6:
            return []
        lowered = event.text.lower()
        if CREDENTIALS.search(lowered):
            return []
        # Dangerous links are the malicious_link detector's; here only ordinary other sites.
        hosts = sorted(
            {
                link.host
                for link in extract_links(event.text)
                if not is_own_domain(link.host, self.site_domains)
                and not link_risks(link, self.site_domains)
            }
        )
        sales = COMMERCIAL.search(lowered)
        messenger = messenger_named(lowered)
        handle = HANDLE.search(lowered) if (messenger or sales) else None
        action = CALL_TO_ACTION.search(lowered) if (sales or messenger or hosts) else None
        price = PRICE.search(lowered) if sales else None
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
            return []
        strength = len(signals)
        severity: Severity = "high" if strength >= 3 else "medium" if strength == 2 else "low"
        return [
            Finding(
                detector=self.name,
                category="advertising",
                severity=severity,
                score=min(0.97, 0.5 + 0.15 * strength),
                ts=event.ts,
                player_ids=(event.player_id,),
                table_id=event.table_id,
                tournament_id=event.tournament_id,
                message_ids=(event.message_id,),
                evidence=Evidence(
                    kind="advertising",
                    summary=f"advertising in {event.channel} chat: " + "; ".join(signals),
                    event_ids=(event.message_id,),
                    measures={
                        "hosts": hosts,
                        "signals": strength,
                        "sales_pitch": bool(sales),
                        "messenger": messenger,
                    },
                ),
            )
        ]
