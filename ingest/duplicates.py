"""One id, two contents: the second is a dead letter, not a silent overwrite.

The store keeps the first record of an id (upsert by id), while the detectors would read the
second: a flag could then cite words that the stored message does not contain. A record seen
again with the same content is a redelivery (Kafka is at least once, a replay re-reads) and
passes. Ids are remembered for `window` of event time: retries and collisions arrive close
together, and the memory stays bounded (~100 bytes an id).
"""

from __future__ import annotations

from collections import deque
from datetime import datetime, timedelta

from railbird.detectors.events import AnyEvent, ChatEvent, TableEvent

DEFAULT_WINDOW = timedelta(minutes=10)


def _content(event: AnyEvent) -> int:
    """A fingerprint of what a detector reads, cheap enough for every event."""
    if isinstance(event, ChatEvent):
        return hash((event.player_id, event.ts, event.channel, event.kind, event.text))
    if isinstance(event, TableEvent):
        return hash((event.table_id, event.ts, event.action, event.player_id, event.seat))
    return hash((event.table_id, event.ended_at, len(event.seats), len(event.actions)))


class DuplicateIds:
    """Remembers each id's content fingerprint for `window` of event time."""

    def __init__(self, window: timedelta = DEFAULT_WINDOW) -> None:
        self.window = window
        self._seen: dict[tuple[str, str], int] = {}
        self._order: deque[tuple[datetime, tuple[str, str]]] = deque()

    def conflict(self, event: AnyEvent) -> str | None:
        """Why `event` must be set aside (its id came before with other content), or None."""
        key = (event.type, event.event_id)
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
        order.append((now, key))
        horizon = now - self.window
        while order and order[0][0] < horizon:
            _, old = order.popleft()
            self._seen.pop(old, None)
        return None

    def __len__(self) -> int:
        return len(self._seen)
