"""A stage's checkpoints: store -> flush produced records -> commit offsets, in that order.

Why this order: an offset is committed only once everything derived from the records before it
is durable (stored, flags, actions and re-keyed records acknowledged by the broker), so a crash
at any point replays from the previous commit: at-least-once, and since every id is
deterministic, every write an upsert and every re-keyed record dropped downstream when seen
twice, exactly-once in effect (only `moderation.flags` may see a flag twice).

A checkpoint runs every `commit_interval_ms`, after `store_batch_events` events, and whenever a
poll finds nothing new; not every poll: a store transaction and two broker round trips per poll
would cap a live, small-batch stream. The write goes to the store with the offsets it covers,
taken now; those are committed once its ack arrives (checked every loop, never waited for,
except at the end and before giving partitions up), at most every `commit_interval_ms` while
busy, and at once when idle, so a burst's tail is not left hanging.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Collection
from typing import Protocol

from kafka import OffsetAndMetadata
from kafka import TopicPartition as KafkaTopicPartition
from kafka.errors import CommitFailedError, KafkaError

from railbird.ingest.kafka.client_types import CommittedOffset, Consumer, Producer, TopicPartition

log = logging.getLogger(__name__)

Offsets = dict[TopicPartition, tuple[int, str]]  # next offset to read, commit metadata


class Durable(Protocol):
    """What a checkpoint needs of a store writer (`ingest.sink.Sink`): a ticket for what was
    added, and whether it is durable."""

    set_aside: int

    def flush(self) -> int: ...

    def durable(self) -> int: ...

    def wait(self, ticket: int | None = None) -> None: ...


class Checkpoints:
    def __init__(
        self,
        consumer: Consumer,
        producer: Producer,
        store: Durable | None,
        interval_ms: int,
        owned: Callable[[], Collection[TopicPartition]],
    ) -> None:
        self.consumer = consumer
        self.producer = producer
        self.store = store
        self.interval = interval_ms / 1000
        self._owned = owned  # only partitions still ours are committed
        self._last = self._last_commit = time.monotonic()
        # (store ticket, offsets): committed once that ticket's write is durable.
        self.pending: deque[tuple[int, Offsets]] = deque()
        self.failing_since: float | None = None
        self.commits = 0
        self.failures = 0
        self.last_ok = True
        # Told of each successful commit (the runtime lets superseded snapshots go).
        self.on_committed: Callable[[Offsets], None] | None = None

    def due(self) -> bool:
        return time.monotonic() - self._last >= self.interval

    def checkpoint(self, offsets: Offsets, wait: bool = False, idle: bool = False) -> None:
        """Queue the store write of everything processed so far with `offsets`, the positions
        it covers; commit what is durable (with `wait`: everything, once the store has it)."""
        self._last = time.monotonic()
        ticket = self.store.flush() if self.store is not None else 0
        if offsets:
            self.pending.append((ticket, offsets))
        if wait and self.store is not None:
            self.store.wait()
        self.commit_durable(now=wait or idle)

    def commit_durable(self, now: bool = False) -> None:
        """Commit the offsets whose writes are durable; while busy, at most every interval
        (`now`: whatever the time)."""
        if not self.pending:
            return
        if not now and time.monotonic() - self._last_commit < self.interval:
            return
        done = self.store.durable() if self.store is not None else self.pending[-1][0]
        offsets: Offsets = {}
        while self.pending and self.pending[0][0] <= done:
            offsets.update(self.pending.popleft()[1])  # a later checkpoint's offset supersedes
        if offsets:
            self.producer.flush()
            self._commit(offsets)
            self._last_commit = time.monotonic()

    def stuck_for(self) -> float:
        """Seconds commits have been failing without a success in between (0: they are not)."""
        return 0.0 if self.failing_since is None else time.monotonic() - self.failing_since

    def forget(self) -> None:
        """Drop what is waiting to be committed (the member is leaving the group)."""
        self.pending.clear()
        self.failing_since = None

    def _commit(self, offsets: Offsets) -> None:
        # Only partitions still ours: a write that finished after a rebalance must not move
        # back an offset the partition's new owner has committed since.
        owned = set(self._owned())
        chosen = {tp: at for tp, at in offsets.items() if tp in owned}
        if not chosen:
            return
        request: dict[TopicPartition, CommittedOffset] = {
            # kafka-python checks for its own partition type
            KafkaTopicPartition(tp.topic, tp.partition): OffsetAndMetadata(offset, meta, -1)
            for tp, (offset, meta) in chosen.items()
        }
        try:
            self.consumer.commit(request)
        except (CommitFailedError, KafkaError) as exc:
            # Mostly a rebalance: retried with the next checkpoint's offsets while the partitions
            # are still ours; if the group moved on, their new owner replays from the last commit.
            self.failures += 1
            self.last_ok = False
            log.warning("offset commit failed, will retry: %s", exc)
            self.pending.appendleft((0, chosen))
            if self.failing_since is None:
                self.failing_since = time.monotonic()
            return
        self.commits += 1
        self.last_ok = True
        self.failing_since = None
        if self.on_committed is not None:
            self.on_committed(chosen)
