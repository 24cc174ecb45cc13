"""Flags swearing, insults and threats in the room's other languages: Russian, Polish, Czech,
German, Spanish, Portuguese, French, Turkish and Italian.

The English detectors read Cyrillic as Latin look-alikes and know no other language's words,
so abuse in those languages went unflagged. What is abuse, in which language and whether it was
aimed at someone is read by `text.multilingual_terms`; this detector grades it. Abuse aimed at
a player (a second person, a mention, a vocative, the player's mother) is harassment, medium,
and a threat or "kill yourself" is harassment, high; a slur is hate, high; swearing at nobody
is profanity, low.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.findings import Category, Finding, Severity, message_finding
from railbird.detectors.state import State
from railbird.detectors.text.multilingual_terms import Found, abuse_in
from railbird.detectors.text.multilingual_words import LANGUAGE_NAMES

_LABELS: dict[str, str] = {
    "swear": "swearing",
    "insult": "insult",
    "weak": "insult",
    "threat": "threat",
    "slur": "slur",
}
_SCORES: dict[Severity, float] = {"low": 0.6, "medium": 0.8, "high": 0.92, "critical": 0.97}


# Memoised per text: table chat repeats itself, and a hit is one C-level lookup. Bounded (LRU).
@lru_cache(maxsize=8192)
def _abuse(text: str) -> tuple[Found, ...]:
    return abuse_in(text)


def _grade(found: tuple[Found, ...]) -> tuple[Category, Severity]:
    if any(f.tier == "threat" for f in found):
        return "harassment", "high"
    if any(f.tier == "slur" for f in found):
        return "hate", "high"
    if any(f.aimed for f in found):
        return "harassment", "medium"
    return "profanity", "low"


def _describe(found: tuple[Found, ...]) -> str:
    """What an analyst reads: per piece, the language, what kind of abuse, the term (and how it
    was typed when that differs), and whether it was aimed at a player."""
    parts: list[str] = []
    for f in found:
        languages = "/".join(LANGUAGE_NAMES[lang] for lang in f.languages)
        part = f"{languages} {_LABELS[f.tier]} '{f.term}'"
        if f.typed.lower() != f.term:
            part += f" (typed '{f.typed}')"
        if f.family:
            part += " about a player's family"
        elif f.aimed:
            part += " aimed at a player"
        if part not in parts:
            parts.append(part)
    return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class MultilingualAbuse:
    name: ClassVar[str] = "multilingual_abuse"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or event.kind != "text" or not event.text:
            return []
        found = _abuse(event.text)
        if not found:
            return []
        category, severity = _grade(found)
        score = min(0.97, _SCORES[severity] + 0.03 * (len(found) - 1))
        languages = sorted({lang for f in found for lang in f.languages})
        return [
            message_finding(
                event,
                detector=self.name,
                category=category,
                severity=severity,
                score=score,
                kind=category,
                summary=f"{_describe(found)} in {event.channel} chat",
                measures={
                    "languages": languages,
                    "terms": [f.term for f in found],
                    "typed": [f.typed for f in found],
                    "tiers": [str(f.tier) for f in found],
                    "aimed_terms": [f.term for f in found if f.aimed],
                    "directed": any(f.aimed for f in found),
                    "count": len(found),
                    "severity": severity,
                },
            )
        ]
