"""Time inside one simulated hand: think times and the contract's timestamps, made fast.

Why its own clock: a hand stamps every action, and `datetime.isoformat` per action was a
visible share of the simulator's time; the clock formats each minute once through `datetime`
and the seconds and milliseconds by hand, and re-uses the stamp of the current millisecond.
"""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)
_THINK_MU = math.log(3.0)  # median think time 3 s
_THINK_SIGMA = 0.7  # ~90% of decisions between 1 and 9.5 s


def rfc3339(ts: datetime) -> str:
    """Contract timestamp: UTC, milliseconds, `Z`."""
    return ts.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def think_ms(rng: random.Random) -> int:
    """How long a player takes over one decision, in milliseconds (log-normal, 0.4-30 s)."""
    return int(1000.0 * min(30.0, max(0.4, rng.lognormvariate(_THINK_MU, _THINK_SIGMA))))


class HandClock:
    """Offsets in milliseconds since the hand started, as datetimes and as contract stamps."""

    __slots__ = ("_minute", "_stamp", "epoch_ms", "started_at")

    def __init__(self, started_at: datetime) -> None:
        self.started_at = started_at.astimezone(UTC)
        self.epoch_ms = (self.started_at - _EPOCH) // _MS
        self._minute = (-1, "")  # (minute since epoch, "YYYY-MM-DDTHH:MM:")
        self._stamp = (-1, "")  # (offset, its stamp): actions often share a millisecond

    def at(self, offset_ms: int) -> datetime:
        return self.started_at + timedelta(milliseconds=offset_ms)

    def stamp(self, offset_ms: int) -> str:
        """`rfc3339` of started_at + offset, formatting only the minute through datetime."""
        if self._stamp[0] == offset_ms:
            return self._stamp[1]
        total = self.epoch_ms + offset_ms
        minute = total // 60_000
        if self._minute[0] != minute:
            prefix = (_EPOCH + timedelta(minutes=minute)).strftime("%Y-%m-%dT%H:%M:")
            self._minute = (minute, prefix)
        stamp = f"{self._minute[1]}{total // 1000 % 60:02d}.{total % 1000:03d}Z"
        self._stamp = (offset_ms, stamp)
        return stamp
