"""The chat server's question, "may this player say this?", answered in well under a millisecond.

Two checks: is the player restricted now (a mute blocks chat and emoji; a communication
suspension blocks SnapCam too), and would the message itself break the chat rules. Restrictions
are read from the store in one bulk query at most every `refresh` seconds and held in memory, so
the hot path never waits on the database; the content check runs the same detectors as the
pipeline, through the pipeline (`Pipeline.detect`): a detector that raises is counted in
`detector_errors`, named in the verdict, and skipped, so the check still answers. Its state is
fresh for every message (a single message cannot be flooding).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import Engine

from railbird.api.restriction_store import Restriction, active_restrictions
from railbird.detectors.detector import Detector
from railbird.detectors.events import ChatEvent
from railbird.detectors.findings import SEVERITY_RANK, Finding
from railbird.rules.pipeline import Pipeline

# Categories the chat server should hold back rather than deliver.
BLOCKING = frozenset(
    {"hate", "harassment", "malicious_link", "impersonation", "advertising", "pii_disclosure"}
)


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer for one message, `allow` or `block`, and why.

    `restriction` is set when one in force blocked the message; otherwise `reasons` are the
    summaries of the blocking findings, or of all the findings when the message is allowed.
    """

    decision: str  # allow | block
    reasons: tuple[str, ...]
    restriction: Restriction | None = None
    findings: tuple[Finding, ...] = field(default=())
    # Detectors that raised on this message: the content check ran without them.
    failed_detectors: tuple[str, ...] = ()


def blocks(restriction: Restriction, kind: str) -> bool:
    """Whether `restriction` stops a `kind` of message: a suspension all, a mute text and emoji."""
    return restriction.kind == "suspend_communication" or kind in ("text", "emoji")


class ChatGate:
    """Answers "may this player say this?" from restrictions held in memory and the chat detectors.

    One per app, shared by the request threads; call `invalidate` when a restriction changes.
    """

    def __init__(self, engine: Engine, detectors: Sequence[Detector], refresh: float = 1.0) -> None:
        self.engine = engine
        self.detectors = tuple(detectors)
        self.refresh = refresh
        self._by_player: dict[str, list[Restriction]] = {}
        self._loaded_at = float("-inf")
        self._lock = threading.Lock()
        self.detector_errors: Counter[str] = Counter()  # by detector, since start

    def invalidate(self) -> None:
        """Called after an analyst applies or lifts a restriction: the next check reloads."""
        self._loaded_at = float("-inf")

    def _restrictions_for(self, player_id: str, now: datetime) -> list[Restriction]:
        if time.monotonic() - self._loaded_at > self.refresh:
            with self._lock:
                if time.monotonic() - self._loaded_at > self.refresh:
                    by_player: dict[str, list[Restriction]] = {}
                    for r in active_restrictions(self.engine, now):
                        by_player.setdefault(r.player_id, []).append(r)
                    self._by_player = by_player
                    self._loaded_at = time.monotonic()
        return [r for r in self._by_player.get(player_id, ()) if r.active_at(now)]

    def check(self, message: ChatEvent) -> Verdict:
        """Block if a restriction in force covers this kind of message, or if its content does.

        Content blocks on a `BLOCKING` category or a severity of `high` or worse; a detector that
        raises is skipped and named in `failed_detectors`.
        """
        now = datetime.now(UTC)
        for restriction in self._restrictions_for(message.player_id, now):
            if blocks(restriction, message.kind):
                until = restriction.expires_at.isoformat() if restriction.expires_at else "lifted"
                return Verdict(
                    "block",
                    (f"player is under {restriction.kind} until {until}: {restriction.reason}",),
                    restriction=restriction,
                )
        pipeline = Pipeline(self.detectors)
        findings = tuple(pipeline.detect(message) or ())
        failed = tuple(sorted(pipeline.metrics.detector_errors))
        if failed:
            with self._lock:
                self.detector_errors.update(failed)
        blocking = [
            f
            for f in findings
            if f.category in BLOCKING or SEVERITY_RANK[f.severity] >= SEVERITY_RANK["high"]
        ]
        decision = "block" if blocking else "allow"
        shown = blocking if blocking else findings
        return Verdict(
            decision,
            tuple(f.evidence.summary for f in shown),
            findings=findings,
            failed_detectors=failed,
        )
