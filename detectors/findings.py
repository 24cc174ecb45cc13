"""What a detector returns: a finding, with the evidence an analyst reads in a second.

A finding is not yet a flag. The pipeline turns it into a flag with a deterministic id, so that
replaying the same input gives the same flags; `dedupe_key` is what makes two findings "the same
flag" (by default the message or event ids that prove it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from railbird.detectors.categories import CATEGORIES as CATEGORIES
from railbird.detectors.categories import Category as Category
from railbird.detectors.events import ChatEvent
from railbird.detectors.severity import SEVERITY_RANK as SEVERITY_RANK
from railbird.detectors.severity import Severity as Severity

MeasureValue = int | float | str | bool | None | list[str] | list[int] | list[float]


@dataclass(frozen=True, slots=True)
class Evidence:
    """Why: one sentence, the events that prove it, and the numbers behind the sentence."""

    kind: str
    summary: str
    event_ids: tuple[str, ...] = ()
    measures: dict[str, MeasureValue] = field(default_factory=dict)
    # Top-level evidence fields the contract names (e.g. `target` for bounty collusion).
    details: dict[str, MeasureValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Finding:
    detector: str
    category: Category
    severity: Severity
    score: float
    ts: datetime
    player_ids: tuple[str, ...]
    evidence: Evidence
    table_id: str | None = None
    tournament_id: str | None = None
    hand_id: str | None = None
    message_ids: tuple[str, ...] = ()
    dedupe_key: str | None = None

    def __post_init__(self) -> None:
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"{self.detector}: score {self.score} outside [0, 1]")
        if not self.player_ids:
            raise ValueError(f"{self.detector}: a finding names at least one player")

    @property
    def identity(self) -> str:
        """The stable part of a finding that the flag id is derived from."""
        key = self.dedupe_key or ",".join(self.message_ids or self.evidence.event_ids)
        return f"{self.category}|{self.detector}|{key}|{','.join(self.player_ids)}"


def message_finding(
    event: ChatEvent,
    *,
    detector: str,
    category: Category,
    severity: Severity,
    score: float,
    kind: str,
    summary: str,
    measures: dict[str, MeasureValue],
    message_ids: tuple[str, ...] | None = None,
    player_ids: tuple[str, ...] | None = None,
    dedupe_key: str | None = None,
) -> Finding:
    """A finding about chat, as every chat detector reports one: said by the sender of `event`
    (or `player_ids`, for a wave of senders) where `event` was said, proved by `message_ids`
    (the event's own message by default), which are also the evidence's events."""
    ids = (event.message_id,) if message_ids is None else message_ids
    return Finding(
        detector=detector,
        category=category,
        severity=severity,
        score=score,
        ts=event.ts,
        player_ids=(event.player_id,) if player_ids is None else player_ids,
        table_id=event.table_id,
        tournament_id=event.tournament_id,
        message_ids=ids,
        dedupe_key=dedupe_key,
        evidence=Evidence(kind=kind, summary=summary, event_ids=ids, measures=measures),
    )
