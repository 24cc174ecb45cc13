"""Flags swearing and vulgarity in chat, however it is spelled, and never poker talk.

better-profanity's word list is the base but not its matcher: its matcher is milliseconds a
message, misses `f u c k`, `fuuuuck` and look-alike letters, and its list flags "kill pot", "god
run" and "suck out". The lexicon (`abuse_terms`, matched by `abuse_lexicon`) fixes the list;
this detector reports the vulgar part of a match. Severity follows direction: mild swearing at
nobody ("no fucking way", "fuck this game", "shit shit shit") is low however much of it there
is; a string of it in a message aimed at someone (a second person or a mention) is medium, and
so are sexual vulgarity and vulgar insults. Swearing at someone ("fuck you") and insults
without vulgarity ("idiot") are harassment's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from railbird.detectors.chat.harassment_patterns import SECOND_PERSON
from railbird.detectors.chat.reasons import Reason, chat_finding, describe, reason_measures
from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.findings import Finding, Severity
from railbird.detectors.state import State
from railbird.detectors.text.abuse_lexicon import scan
from railbird.detectors.text.normalise import normalise


def profanity_reasons(text: str) -> list[Reason]:
    return list(_reasons(text))


# Memoised per text: the detector's verdict on "nh" or "gl all" is the same every time, and a
# cache hit is one C-level lookup where the scan was a dozen Python calls. Bounded (LRU).
@lru_cache(maxsize=8192)
def _reasons(text: str) -> tuple[Reason, ...]:
    hits = scan(text)
    if not hits:  # most chat
        return ()
    return tuple(
        Reason(
            "mild swearing" if h.entry.tier == "mild" else "vulgarity",
            h.entry.term,
            h.original,
            h.entry.tier,
        )
        for h in hits
        if h.entry.vulgar
    )


@lru_cache(maxsize=1024)
def _aimed(text: str) -> bool:
    """Whether `text` speaks to someone: a second person ("you", "ur") or a mention."""
    return any(t.mention or t.form in SECOND_PERSON for t in normalise(text).tokens)


@dataclass(frozen=True, slots=True)
class Profanity:
    name: ClassVar[str] = "profanity"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})
    # This many profane words in a message aimed at someone make even mild swearing medium.
    string_of_swearing: int = 3

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or event.kind != "text" or not event.text:
            return []
        found = _reasons(event.text)
        if not found:
            return []
        reasons = list(found)
        mild = all(r.tier == "mild" for r in reasons) and not (
            len(reasons) >= self.string_of_swearing and _aimed(event.text)
        )
        severity: Severity = "low" if mild else "medium"
        score = min(0.95, (0.6 if mild else 0.75) + 0.05 * (len(reasons) - 1))
        return [
            chat_finding(
                self.name,
                "profanity",
                event,
                severity,
                score,
                f"{describe(reasons)} in {event.channel} chat",
                reason_measures(reasons),
            )
        ]
