"""One id, two contents: the second is a dead letter, not a silent overwrite.

The store keeps the first record of an id (upsert by id), while the detectors would read the
second: a flag could then cite words that the stored message does not contain. A record seen
again with the same content is a redelivery (Kafka is at least once, a replay re-reads) and
passes. Ids are remembered for `window` of event time: retries and collisions arrive close
together, and the memory stays bounded (~250 bytes an id, `MAX_IDS` at most).
"""

from __future__ import annotations

import heapq
import itertools
from datetime import datetime, timedelta

from railbird.detectors.events import AnyEvent, ChatEvent, TableEvent

DEFAULT_WINDOW = timedelta(minutes=10)
# A bound on memory whatever the event times say, far above the window's worth of ids at a
# busy site's rate (docs/design-numbers.md).
MAX_IDS = 2_000_000


def _content(event: AnyEvent) -> int:
    """A fingerprint of what a detector reads, cheap enough for every event."""
    if isinstance(event, ChatEvent):
        return hash((event.player_id, event.ts, event.channel, event.kind, event.text))
    if isinstance(event, TableEvent):
        return hash((event.table_id, event.ts, event.action, event.player_id, event.seat))
    return hash((event.table_id, event.ended_at, len(event.seats), len(event.actions)))


class DuplicateIds:
    """Remembers each id's content fingerprint for `window` of event time, and never more than
    `max_ids` of them (the oldest go first).

    `scope` separates where ids come from: the worker passes the partition number, so its
    table stage and its site stage, which see a partition's records in the same order, always
    agree on what is a duplicate; `scan` has one scope."""

    def __init__(self, window: timedelta = DEFAULT_WINDOW, max_ids: int = MAX_IDS) -> None:
        self.window = window
        self.max_ids = max_ids
        self._seen: dict[tuple[object, str, str], int] = {}
        self._order: list[tuple[datetime, int, tuple[object, str, str]]] = []  # a heap
        self._count = itertools.count()

    def conflict(self, event: AnyEvent, scope: object = None) -> str | None:
        """Why `event` must be set aside (its id came before with other content), or None."""
        key = (scope, event.type, event.event_id)
        content = _content(event)
        known = self._seen.get(key)
        if known is not None:
            if known == content:
                return None
            return (
                f"duplicate {event.type} id {event.event_id!r} with different content "
                "(the first record with this id is kept)"
            )
        self._seen[key] = content
        now = event.time
        order = self._order
        heapq.heappush(order, (now, next(self._count), key))
        # Against this event's time, not the newest seen: one record dated 2199 must not make
        # every id of today expire at once (it waits at the far end of the heap instead).
        horizon = now - self.window
        while order and (order[0][0] < horizon or len(order) > self.max_ids):
            _, _, old = heapq.heappop(order)
            self._seen.pop(old, None)
        return None

    def __len__(self) -> int:
        return len(self._seen)
