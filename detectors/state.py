"""Keyed detector state with time-to-live, driven by event time.

Why event time and not the wall clock: a replay of last week's file must expire state exactly as
the live stream did, or `scan` and the Kafka workers would disagree. Why TTLs at all: the stream
never ends, and a detector that remembers every table forever eventually exhausts memory.

Keys are tuples whose first element is the *routing key* (a table id, or the player id for
table-less chat): the same key the Kafka topics are partitioned by, so a worker that loses a
partition in a rebalance can drop exactly the state that now belongs to someone else.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Hashable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

StateKey = tuple[Hashable, ...]
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class State(Protocol):
    """What a detector may do with its memory."""

    @property
    def now(self) -> datetime: ...

    def get(self, key: StateKey, default: Any = None) -> Any: ...

    def put(self, key: StateKey, value: Any, ttl: timedelta) -> None: ...

    def pop(self, key: StateKey) -> Any: ...


class EventClock:
    """The newest event time seen, shared by every state of one pipeline.

    Why shared: the pipeline moves one clock per event instead of calling `advance` on each
    detector's state (a call per detector per message was a large share of the chain's own
    cost: docs/design-numbers.md).
    """

    __slots__ = ("now",)

    def __init__(self) -> None:
        self.now = _EPOCH

    def advance(self, now: datetime) -> None:
        if now > self.now:
            self.now = now


class TtlState:
    """A dict whose entries expire `ttl` after their last `put`, in event time.

    Expiry is exact for readers (`get` and `pop` never return an expired value) and lazy for
    memory: expired entries are swept when the state is written to (`put`), measured (`len`)
    or advanced, so a state that is only read costs nothing to keep current.
    """

    __slots__ = ("_clock", "_counter", "_entries", "_heap", "max_entries_seen")

    def __init__(self, clock: EventClock | None = None) -> None:
        # key -> (expires, value, when its reminder in the heap is due)
        self._entries: dict[StateKey, tuple[datetime, Any, datetime]] = {}
        self._heap: list[tuple[datetime, int, StateKey]] = []
        self._clock = clock if clock is not None else EventClock()
        self._counter = itertools.count()
        self.max_entries_seen = 0

    @property
    def now(self) -> datetime:
        return self._clock.now

    def __len__(self) -> int:
        self._sweep()
        return len(self._entries)

    def advance(self, now: datetime) -> None:
        """Move event time forward (never back) and drop what has expired."""
        self._clock.advance(now)
        self._sweep()

    def _sweep(self) -> None:
        heap = self._heap
        now = self._clock.now
        if not heap or heap[0][0] > now:  # the usual case: nothing has expired yet
            return
        entries = self._entries
        while heap and heap[0][0] <= now:
            due, _, key = heapq.heappop(heap)
            entry = entries.get(key)
            if entry is None or entry[2] != due:
                continue  # dropped, popped, or rescheduled since: a stale reminder
            if entry[0] <= now:
                del entries[key]
            else:  # refreshed by a later put: remind again when the new expiry comes
                entries[key] = (entry[0], entry[1], entry[0])
                heapq.heappush(heap, (entry[0], next(self._counter), key))

    def get(self, key: StateKey, default: Any = None) -> Any:
        entry = self._entries.get(key)
        if entry is None or entry[0] <= self._clock.now:
            return default
        return entry[1]

    def put(self, key: StateKey, value: Any, ttl: timedelta) -> None:
        now = self._clock.now
        heap = self._heap
        if heap and heap[0][0] <= now:  # `_sweep`'s own first test, without the call
            self._sweep()
        expires = now + ttl
        entries = self._entries
        previous = entries.get(key)
        if previous is not None and previous[2] <= expires:
            # Refreshing a live key: its reminder fires first and reschedules, so the heap
            # keeps about one item per key instead of one per put (no compaction pauses).
            entries[key] = (expires, value, previous[2])
            return
        entries[key] = (expires, value, expires)
        heapq.heappush(heap, (expires, next(self._counter), key))
        if len(heap) > 4 * len(entries) + 1024:
            self._compact()
        if len(entries) > self.max_entries_seen:
            self.max_entries_seen = len(entries)

    def pop(self, key: StateKey) -> Any:
        entry = self._entries.pop(key, None)
        if entry is None or entry[0] <= self._clock.now:
            return None
        return entry[1]

    def live_entries(
        self, keep: Callable[[StateKey], bool] | None = None
    ) -> list[tuple[StateKey, datetime, Any]]:
        """(key, expiry, value) of every unexpired entry (those `keep` accepts): a snapshot."""
        now = self._clock.now
        return [
            (key, expires, value)
            for key, (expires, value, _) in self._entries.items()
            if expires > now and (keep is None or keep(key))
        ]

    def load(self, entries: Iterable[tuple[StateKey, datetime, Any]]) -> None:
        """Put back what `live_entries` returned, each with its own expiry. A key this state
        already holds keeps whichever copy expires later (the one put more recently)."""
        heap, counter = self._heap, self._counter
        for key, expires, value in entries:
            held = self._entries.get(key)
            if held is not None and held[0] >= expires:
                continue
            self._entries[key] = (expires, value, expires)
            heapq.heappush(heap, (expires, next(counter), key))
        self.max_entries_seen = max(self.max_entries_seen, len(self._entries))

    def drop_routing_keys(self, routing_keys: Iterable[Hashable]) -> int:
        """Forget every entry whose routing key is given (partitions revoked in a rebalance)."""
        wanted = set(routing_keys)
        return self.drop_where(lambda key: key[0] in wanted)

    def drop_where(self, predicate: Callable[[StateKey], bool]) -> int:
        doomed = [key for key in self._entries if predicate(key)]
        for key in doomed:
            del self._entries[key]
        return len(doomed)

    def _compact(self) -> None:
        """Rebuild the heap from live entries so stale reminders don't pile up."""
        entries = self._entries
        for key, (expires, value, _) in list(entries.items()):
            entries[key] = (expires, value, expires)
        self._heap = [(exp, next(self._counter), key) for key, (exp, _, _) in entries.items()]
        heapq.heapify(self._heap)
