"""What the lexical chat detectors report: reasons, their one-line summary, and the finding.

Shared by profanity, harassment, hate and impersonation so that their evidence reads the same
way to an analyst: "directed insult 'idiot' (typed 'id1ot')".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import _lru_cache_wrapper, lru_cache

from railbird.detectors.events import ChatEvent
from railbird.detectors.findings import (
    Category,
    Finding,
    MeasureValue,
    Severity,
    message_finding,
)


@dataclass(frozen=True, slots=True)
class Reason:
    """One thing a detector found in a message: what, as normalised and as typed, how bad."""

    label: str  # e.g. "directed insult", "threat", "slur"
    term: str
    original: str
    tier: str


Reading = tuple[list[Reason], Severity | None]
Verdict = tuple[tuple[Reason, ...], Severity | None]


def memoised_per_text(
    read: Callable[[str], Reading], size: int = 8192
) -> _lru_cache_wrapper[Verdict]:
    """`read`, memoised per exact text (bounded LRU), its reasons frozen into a tuple.

    Table chat repeats itself ("gg", "nh"): a hit is one C-level lookup instead of the word
    checks and the lexicon scan. Frozen so that no caller can change a cached answer.
    """

    @lru_cache(maxsize=size)
    def verdict(text: str) -> Verdict:
        reasons, worst = read(text)
        return tuple(reasons), worst

    return verdict


def describe(reasons: list[Reason]) -> str:
    """ "directed insult 'idiot'; threat 'kys'": the reasons as an analyst reads them."""
    parts: list[str] = []
    for reason in reasons:
        part = f"{reason.label} '{reason.term}'"
        if reason.original.lower() != reason.term:
            part += f" (typed '{reason.original}')"
        if part not in parts:
            parts.append(part)
    return "; ".join(parts)


def reason_measures(reasons: list[Reason]) -> dict[str, MeasureValue]:
    return {
        "terms": [r.term for r in reasons],
        "originals": [r.original for r in reasons],
        "tiers": [r.tier for r in reasons],
        "count": len(reasons),
    }


def chat_finding(
    detector: str,
    category: Category,
    event: ChatEvent,
    severity: Severity,
    score: float,
    summary: str,
    measures: dict[str, MeasureValue],
    dedupe_key: str | None = None,
) -> Finding:
    return message_finding(
        event,
        detector=detector,
        category=category,
        severity=severity,
        score=score,
        kind=category,
        summary=summary,
        measures={**measures, "severity": severity},
        dedupe_key=dedupe_key,
    )
