"""Sliding windows of messages and burst reporting shared by the spam detectors.

Why a shared tracker: a flood of sixty messages must not become sixty flags, yet every offending
message should end up in some flag so an analyst (and a replay) can see it. A burst therefore
emits its first flag when the limit is crossed (with every message in the window), then one flag
per further `chunk` offending messages, or sooner when the severity rises. Each emission has its
own stable `dedupe_key` (burst start + chunk number), so a replay gives the same flag ids.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any, NamedTuple

from railbird.detectors.findings import SEVERITY_RANK, Severity
from railbird.detectors.state import State, StateKey

# Cap on ids kept per window, so one runaway bot cannot grow state without bound.
MAX_WINDOW_ITEMS = 256
# Per-player records live in one entry per routing key (`room`), which lives this much longer
# in the state than its window, so it is really put at most once per `KEEP_EXTRA` of event
# time instead of once per message.
KEEP_EXTRA = timedelta(minutes=5)
_NEVER = datetime.min.replace(tzinfo=UTC)
_NO_TIME = timedelta(0)


class Kept:
    """A record that is not put in the state on every write (see `room`).

    `until` is when it would have expired had it been put on every write, with the window's
    span; readers treat it as gone from then on, so it behaves exactly as such a record."""

    __slots__ = ("refresh_by", "until")

    def __init__(self) -> None:
        self.until = _NEVER
        self.refresh_by = _NEVER  # when the entry holding it must be put again


class Window(Kept):
    """Messages (time, id, weight) inside a sliding window of event time.

    A list, not a deque: a kept window outlives its messages (see `room`), and an empty
    deque holds a 64-slot block; the front pops of a window capped at 256 items are cheap."""

    __slots__ = ("items", "total")

    def __init__(self) -> None:
        self.until = self.refresh_by = _NEVER  # `Kept.__init__`, without the call
        self.items: list[tuple[datetime, str, float]] = []
        self.total = 0.0

    def add(self, ts: datetime, message_id: str, weight: float, span: timedelta) -> None:
        items = self.items
        if not items and span > _NO_TIME:  # the usual case: nothing in the window to prune
            items.append((ts, message_id, weight))
            self.total += weight
            return
        items.append((ts, message_id, weight))
        self.total += weight
        horizon = ts - span
        while items and items[0][0] <= horizon:
            self.total -= items.pop(0)[2]
        while len(items) > MAX_WINDOW_ITEMS:
            self.total -= items.pop(0)[2]

    def clear(self) -> None:
        """Empty, as a fresh `Window()` (a kept record whose life ran out is reused)."""
        self.items.clear()
        self.total = 0.0

    @property
    def count(self) -> int:
        return len(self.items)

    def ids(self) -> list[str]:
        return [mid for _, mid, _ in self.items]

    def first_ts(self) -> datetime:
        return self.items[0][0]


class Room(Kept):
    """One routing key's records of one kind (each player's window at a table, say) in a
    single state entry. Busy chat keeps it alive, so a player's first line in a while costs a
    dict insert, not a new state key (a heap push now and a sweep later); each member's own
    `until` says when a put of it on every message would have let it expire."""

    __slots__ = ("members",)

    def __init__(self) -> None:
        self.until = self.refresh_by = _NEVER  # `Kept.__init__`, without the call
        self.members: dict[Hashable, Any] = {}


def room(state: State, key: StateKey, span: timedelta, now: datetime) -> dict[Hashable, Any]:
    """The members kept under `key`, whose entry lives at least `span` past `now`.

    Re-put (and swept of members whose `until` passed) only once per `KEEP_EXTRA`: the entry
    then lives `span + KEEP_EXTRA`, so it outlives any member touched before the next re-put
    (`until` at most that `now + span`)."""
    found: Room | None = state.get(key)
    if found is not None and now <= found.refresh_by:  # the usual case
        return found.members
    return refresh_room(state, key, found, span, now)


def refresh_room(
    state: State, key: StateKey, found: Room | None, span: timedelta, now: datetime
) -> dict[Hashable, Any]:
    """`room` past its usual case, for a caller that already got `found` (the entry, or None)
    from the state and saw `now` past its `refresh_by`."""
    if found is None:
        found = Room()
    members = found.members
    if members:
        for gone in [k for k, member in members.items() if member.until <= now]:
            del members[gone]
    found.refresh_by = now + KEEP_EXTRA
    state.put(key, found, span + KEEP_EXTRA)
    return members


class Emission(NamedTuple):
    """What to put in one flag: its dedupe key, the message ids, the burst size so far.

    A NamedTuple, not a frozen dataclass: it is made for every flag of a flood, and a frozen
    dataclass's `__init__` sets each field through `object.__setattr__`, which costs more
    (docs/design-numbers.md)."""

    dedupe_key: str
    message_ids: tuple[str, ...]
    burst_size: int


@dataclass(slots=True)
class Burst:
    """One run of violations; ends when no violation is seen for a whole window."""

    key: str = ""
    last_violation: datetime | None = None
    chunk: int = 0
    rank: int = -1
    size: int = 0
    pending: list[str] = field(default_factory=list)

    def violate(
        self,
        scope: str,
        now: datetime,
        window_ids: list[str],
        message_id: str,
        severity: Severity,
        span: timedelta,
        chunk_size: int,
    ) -> Emission | None:
        """Record a violating message; return what to emit now, if anything."""
        if self.opens(now, span):
            return self.start(scope, now, window_ids, severity)
        return self.extend(now, message_id, severity, chunk_size)

    # `violate` in two halves, so a caller in a long flood builds the window's id list (and
    # the scope string) only when a burst starts, not for every message of it.
    def opens(self, now: datetime, span: timedelta) -> bool:
        """Whether a violation at `now` starts a new burst."""
        return self.last_violation is None or now - self.last_violation > span

    def start(
        self, scope: str, now: datetime, window_ids: list[str], severity: Severity
    ) -> Emission:
        self.key = f"{scope}:{window_ids[0]}"
        self.chunk, self.rank, self.size = 0, SEVERITY_RANK[severity], len(window_ids)
        self.pending = []
        self.last_violation = now
        return Emission(self.key, tuple(window_ids), self.size)

    def extend(
        self, now: datetime, message_id: str, severity: Severity, chunk_size: int
    ) -> Emission | None:
        rank = SEVERITY_RANK[severity]
        self.last_violation = now
        if message_id not in self.pending:
            self.pending.append(message_id)
            self.size += 1
        if rank <= self.rank and len(self.pending) < chunk_size:
            return None
        self.rank = max(rank, self.rank)
        self.chunk += 1
        ids, self.pending = tuple(self.pending), []
        return Emission(f"{self.key}#{self.chunk}", ids, self.size)


def severity_for(ratio: float) -> Severity:
    """How far over the limit: just over is low, double medium, 4x high, 8x critical."""
    if ratio >= 8:
        return "critical"
    if ratio >= 4:
        return "high"
    if ratio >= 2:
        return "medium"
    return "low"


def routing_key(table_id: str | None, player_id: str) -> str:
    """The Kafka key of chat: the table, or the player for table-less chat."""
    return table_id or player_id


@lru_cache(maxsize=64)
def span_of(seconds: float) -> timedelta:
    """The window as a timedelta, built once per length: `timedelta(seconds=float)` costs about
    a microsecond, which is most of a clean message's budget in the spam detectors."""
    return timedelta(seconds=seconds)
