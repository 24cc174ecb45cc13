"""Flags links that are likely malicious: URL shorteners (hide the target), raw IP hosts,
punycode or non-Latin hosts (homographs), look-alikes of the site's own domain (phishing), and
executable or archive downloads (what each risk is: `text.link_risks`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.findings import Finding, Severity, message_finding
from railbird.detectors.state import State
from railbird.detectors.text.link_risks import (
    BARE_EXECUTABLE,
    DOT_EXECUTABLE,
    link_risks,
    may_hold_link_lower,
)
from railbird.detectors.text.links import DEFAULT_SITE_DOMAINS, extract_links


@dataclass(frozen=True, slots=True)
class MaliciousLink:
    name: ClassVar[str] = "malicious_link"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})
    site_domains: tuple[str, ...] = DEFAULT_SITE_DOMAINS

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or event.kind != "text" or len(event.text) < 4:
            return []
        if not may_hold_link_lower(event.text):  # no link, and no dot for a bare file name either
            return []
        lowered = event.text.lower()
        risks: list[str] = []
        urls: list[str] = []
        for link in extract_links(event.text):
            found = link_risks(link, self.site_domains)
            if found:
                risks.extend(found)
                urls.append(link.url)
        if not urls:
            if "." not in event.text:
                return []
            bare = BARE_EXECUTABLE.search(lowered) if DOT_EXECUTABLE.search(lowered) else None
            if bare is None:
                return []
            risks.append(f"names executable file {bare.group(0)}")
        severity: Severity = "critical" if len(risks) >= 2 else "high" if urls else "medium"
        return [
            message_finding(
                event,
                detector=self.name,
                category="malicious_link",
                severity=severity,
                score=min(0.99, 0.7 + 0.1 * len(risks)),
                kind="malicious_link",
                summary="suspicious link: " + "; ".join(risks),
                measures={"urls": urls, "risks": risks},
            )
        ]
