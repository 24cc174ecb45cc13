"""Checkpoints of a Kafka worker: store -> flush produced records -> commit offsets, in that order.

Why this order: an offset is committed only once everything derived from the records before it
is durable (stored, flags and actions acknowledged by the broker), so a crash at any point
replays from the previous commit: at-least-once, and since every id is deterministic and every
write an upsert, exactly-once in effect (only `moderation.flags` may see a flag twice).

A checkpoint runs every `commit_interval_ms`, after `store_batch_events` events, and whenever a
poll finds nothing new; not every poll: a store transaction and two broker round trips per poll
would cap a live, small-batch stream. The write goes to the store process with the offsets it
covers, taken now; those are committed once its ack arrives (checked every loop, never waited
for, except at the end and before giving partitions up), at most every `commit_interval_ms`
while busy (a synchronous commit plus a producer flush per batch was a real share of a busy
worker's time, docs/design-numbers.md), and at once when idle, so a burst's tail is not left
hanging.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from kafka import OffsetAndMetadata
from kafka.errors import CommitFailedError, KafkaError

from railbird.ingest.kafka.client_types import (
    CommittedOffset,
    Consumer,
    Producer,
    TopicPartition,
)
from railbird.ingest.kafka.metrics import WorkerMetrics
from railbird.ingest.kafka.progress import PartitionProgress
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.sink import Sink
from railbird.rules.actions import Action
from railbird.rules.flags import Flag

log = logging.getLogger(__name__)


class Checkpoints:
    def __init__(
        self,
        settings: KafkaSettings,
        consumer: Consumer,
        producer: Producer,
        store: Sink[tuple[str, bytes]] | None,
        metrics: WorkerMetrics,
        progress: dict[TopicPartition, PartitionProgress],
        replay_window_seconds: float | None = None,
    ) -> None:
        self.settings = settings
        self.consumer = consumer
        self.producer = producer
        self.store = store
        self.metrics = metrics
        self.progress = progress  # the intake's, shared: only partitions still ours commit
        window = replay_window_seconds
        self.window = timedelta(
            seconds=settings.replay_window_seconds if window is None else window
        )
        self.unstored = 0  # events processed since the last checkpoint
        self.touched: set[TopicPartition] = set()  # partitions processed since the last checkpoint
        self._last = self._last_commit = time.monotonic()
        # (store ticket, offsets): committed once that ticket's write is durable.
        self.pending: deque[tuple[int, dict[TopicPartition, CommittedOffset]]] = deque()
        self.failing_since: float | None = None
        # Told of each successful commit (the worker lets superseded state snapshots go).
        self.on_committed: Callable[[dict[TopicPartition, CommittedOffset]], None] | None = None

    def add(
        self, events: list[tuple[str, bytes]], flags: list[Flag], actions: list[Action]
    ) -> None:
        """What one batch produced, for the store at the next checkpoint."""
        self.unstored += len(events)
        if self.store is not None and (events or flags or actions):
            self.store.add(events, flags, actions)

    def due(self) -> bool:
        return (time.monotonic() - self._last) * 1000 >= self.settings.commit_interval_ms

    def checkpoint(self, clock: datetime | None, wait: bool = False, idle: bool = False) -> None:
        """Queue the store write of everything processed so far with the offsets it covers;
        commit what is durable (with `wait`: everything, once the store has caught up)."""
        self._last = time.monotonic()
        # The ticket also covers dead letters queued before.
        ticket = self.store.flush() if self.store is not None else 0
        self.unstored = 0
        touched, self.touched = self.touched, set()
        offsets = self._offsets(touched, clock)
        if offsets:
            self.pending.append((ticket, offsets))
        if wait and self.store is not None:
            self.store.wait()
        self.commit_durable(now=wait or idle)

    def commit_durable(self, now: bool = False) -> None:
        """Commit the offsets whose writes are durable; while busy, at most every
        `commit_interval_ms` (`now`: whatever the time)."""
        since = (time.monotonic() - self._last_commit) * 1000
        if not now and since < self.settings.commit_interval_ms:
            return
        done = self.store.durable() if self.store is not None else 0
        offsets: dict[TopicPartition, CommittedOffset] = {}
        pending = self.pending
        while pending and pending[0][0] <= done:
            offsets.update(pending.popleft()[1])  # a later batch's offset supersedes
        if offsets:
            self.producer.flush()
            self._commit(offsets)
            self._last_commit = time.monotonic()

    def stuck_for(self) -> float:
        """Seconds commits have been failing without a success in between (0: they are not)."""
        return 0.0 if self.failing_since is None else time.monotonic() - self.failing_since

    def forget(self) -> None:
        """Drop what is waiting to be committed (the worker is leaving the group)."""
        self.touched.clear()
        self.pending.clear()
        self.failing_since = None

    def _offsets(
        self, tps: Iterable[TopicPartition], clock: datetime | None
    ) -> dict[TopicPartition, CommittedOffset]:
        cutoff = clock - self.window if clock is not None else None
        offsets = {}
        for tp in tps:
            progress = self.progress.get(tp)
            if progress is not None and progress.processed is not None:
                metadata = progress.commit_metadata(cutoff)
                offsets[tp] = OffsetAndMetadata(progress.processed, metadata, -1)
        return offsets

    def _commit(self, offsets: dict[TopicPartition, CommittedOffset]) -> None:
        # Only partitions still ours: a write that finished after a rebalance must not move
        # back an offset the partition's new owner has committed since.
        offsets = {tp: om for tp, om in offsets.items() if tp in self.progress}
        if not offsets:
            return
        try:
            self.consumer.commit(offsets)
            self.metrics.note(commit=True)
            self.failing_since = None
            if self.on_committed is not None:
                self.on_committed(offsets)
        except (CommitFailedError, KafkaError) as exc:
            # Mostly a rebalance: retried at the next checkpoint while the partitions are still
            # ours; if the group moved on, their new owner re-processes from the last commit.
            self.metrics.note(commit_failure=True)
            log.warning("offset commit failed, will retry: %s", exc)
            self.touched.update(offsets)
            if self.failing_since is None:
                self.failing_since = time.monotonic()
