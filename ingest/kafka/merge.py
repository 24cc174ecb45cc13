"""Merges the records of many partitions into one event-time order before the pipeline sees them.

Why: detector state expires in event time (`TtlState`), and `scan` sees the file in time order.
Kafka hands a worker one partition's records at a time (a fetch can span hours of event time on
one partition before another is read), so processing records as fetched would jump the clock
ahead and expire other tables' state early: the live stream would flag differently from `scan`.

Each topic-partition has a buffer in offset order (which is event-time order: producers write a
table's events in time order). The merge releases the smallest head while every assigned
partition either has something buffered or is caught up with its high watermark; a partition
still fetching holds the others back, for at most `max_wait` seconds. Records that failed to
decode have no time: they are released as soon as they reach the head of their buffer.

Live, "caught up" is only as fresh as the partition's last fetch response: a record produced to
a quiet partition just before another partition's record may arrive a fetch round trip after
it. Table-scoped detectors rarely care (a table's records share a partition number), so the
table stage releases at once, for latency. The site stage, whose detectors relate tables to each
other (a private message to the recipient's hand at another table), sets `hold`: while some
partition has nothing buffered, a record waits until it has been buffered `hold` seconds, so
what was produced before it has arrived too. Its flags come that much later.
"""

from __future__ import annotations

import heapq
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from railbird.detectors.events import AnyEvent
from railbird.ingest.decode import Rejected
from railbird.ingest.kafka.client_types import TopicPartition

log = logging.getLogger(__name__)
_NO_TIME = datetime(1, 1, 1, tzinfo=UTC)


@dataclass(slots=True, order=True)
class Pending:
    """A decoded record waiting for its turn; ordered by (event time, file seq, topic, offset)."""

    sort_key: tuple[datetime, int, int, int]
    tp: TopicPartition = field(compare=False)
    offset: int = field(compare=False)
    item: AnyEvent | Rejected = field(compare=False)
    key: bytes | None = field(compare=False)
    value: bytes = field(compare=False, default=b"")  # the raw record, for the store process
    arrived: float = field(compare=False, default=0.0)  # the merge's clock when buffered


def pending(
    tp: TopicPartition,
    offset: int,
    item: AnyEvent | Rejected,
    key: bytes | None,
    *,
    seq: int | None,
    topic_rank: int,
    value: bytes = b"",
    arrived: float = 0.0,
) -> Pending:
    when = _NO_TIME if isinstance(item, Rejected) else item.time
    sort_key = (when, -1 if seq is None else seq, topic_rank, offset)
    return Pending(sort_key, tp, offset, item, key, value, arrived)


class EventTimeMerge:
    def __init__(
        self, max_wait: float, clock: Callable[[], float] = time.monotonic, hold: float = 0.0
    ) -> None:
        self.max_wait = max_wait
        self.hold = hold
        self._clock = clock
        self._buffers: dict[TopicPartition, deque[Pending]] = {}
        self._blocked_since: float | None = None

    def add(self, record: Pending) -> None:
        buffer = self._buffers.get(record.tp)
        if buffer is None:
            buffer = self._buffers[record.tp] = deque()
        buffer.append(record)

    def now(self) -> float:
        """The merge's clock, to stamp records' `arrived` with (once per poll)."""
        return self._clock()

    def buffered(self, tp: TopicPartition) -> int:
        buffer = self._buffers.get(tp)
        return len(buffer) if buffer else 0

    def head_time(self, tp: TopicPartition) -> datetime | None:
        """The event time of the next record of `tp` that has one (None: nothing buffered)."""
        for record in self._buffers.get(tp, ()):
            when = record.sort_key[0]
            if when is not _NO_TIME:
                return when
        return None

    def total(self) -> int:
        return sum(len(b) for b in self._buffers.values())

    def drop(self, tps: Iterable[TopicPartition]) -> int:
        """Forget buffered records of partitions given up; their new owner re-reads them."""
        dropped = 0
        for tp in tps:
            buffer = self._buffers.pop(tp, None)
            dropped += len(buffer) if buffer else 0
        return dropped

    def release(
        self,
        assigned: Iterable[TopicPartition],
        caught_up: Callable[[TopicPartition], bool],
        limit: int | None = None,
    ) -> list[Pending]:
        """What can go to the pipeline now (at most `limit` records), in merged order."""
        assigned = list(assigned)
        buffers = self._buffers
        waiting = {tp for tp in assigned if not buffers.get(tp) and not caught_up(tp)}
        forced = False
        if waiting:
            now = self._clock()
            if self._blocked_since is None:
                self._blocked_since = now
            forced = now - self._blocked_since >= self.max_wait
            if forced:
                log.warning(
                    "event-time merge: gave up waiting %.1f s for %s; order may slip",
                    now - self._blocked_since,
                    sorted(map(str, waiting)),
                )
        out: list[Pending] = []
        heads = [(buffer[0].sort_key, tp) for tp, buffer in buffers.items() if buffer]
        heapq.heapify(heads)
        # With `hold`, a record is released before it has been buffered that long only while
        # every partition has something buffered (see the module docstring).
        young = self._clock() - self.hold if self.hold > 0 else None
        while heads and (limit is None or len(out) < limit):
            sort_key, tp = heads[0]
            if waiting and not forced and sort_key[0] is not _NO_TIME:
                break
            buffer = buffers[tp]
            if young is not None and buffer[0].arrived > young and len(heads) < len(assigned):
                break
            out.append(buffer.popleft())
            if buffer:
                heapq.heapreplace(heads, (buffer[0].sort_key, tp))
            else:
                heapq.heappop(heads)
                if not caught_up(tp):
                    waiting.add(tp)
        if out or not waiting or forced:
            # The wait clock only runs while nothing at all can be released: time spent
            # processing earlier batches must not count as waiting for a lagging partition.
            self._blocked_since = None
        return out
