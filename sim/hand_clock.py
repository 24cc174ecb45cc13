"""Time inside one simulated hand: think times, and offsets as datetimes and contract stamps.

The hand counts milliseconds from its start; the stamps are `sim.stream`'s (`fmt_ms`, which
formats each second once), so a hand's actions and the rest of the simulated stream write
time the same way.
"""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta

from railbird.sim.stream import fmt_ms, to_ms

_THINK_MU = math.log(3.0)  # median think time 3 s
_THINK_SIGMA = 0.7  # ~90% of decisions between 1 and 9.5 s


def rfc3339(ts: datetime) -> str:
    """Contract timestamp: UTC, milliseconds, `Z`."""
    return fmt_ms(to_ms(ts))


def think_ms(rng: random.Random) -> int:
    """How long a player takes over one decision, in milliseconds (log-normal, 0.4-30 s)."""
    return int(1000.0 * min(30.0, max(0.4, rng.lognormvariate(_THINK_MU, _THINK_SIGMA))))


class HandClock:
    """Offsets in milliseconds since the hand started, as datetimes and as contract stamps."""

    __slots__ = ("epoch_ms", "started_at")

    def __init__(self, started_at: datetime) -> None:
        self.started_at = started_at.astimezone(UTC)
        self.epoch_ms = to_ms(self.started_at)

    def at(self, offset_ms: int) -> datetime:
        return self.started_at + timedelta(milliseconds=offset_ms)

    def stamp(self, offset_ms: int) -> str:
        return fmt_ms(self.epoch_ms + offset_ms)
