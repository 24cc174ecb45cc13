"""`railbird run`: a consumer-group member feeding Kafka's streams through the one pipeline.

Per cycle: poll -> decode -> merge the partitions in event time -> `Pipeline.process` -> send
flags, actions and dead letters; every `commit_interval_ms`: store -> flush the sends -> commit
offsets, in that order. The store write runs on a background thread (`StoreThread`) so the loop
never stalls on a transaction; a batch's offsets are committed only once its write is durable.
A crash before a commit replays what followed the previous one: at-least-once, and since every
id is deterministic and every write an upsert, exactly-once in effect (only `moderation.flags`
may see a flag twice).

State and rebalances. Detector state is keyed by table (the partition key), so:
- a partition this worker gives up has its tables' state dropped;
- a partition it takes over starts with empty state, which is rebuilt by *replaying* a window
  of event time before the committed offset: each commit carries, in its metadata, the offset
  from which `replay_window_seconds` of event time precede it. Replayed records go through the
  pipeline with their outputs discarded (they were produced before that commit). Anything a
  detector remembers for longer than the window is lost at a takeover; the window is a setting.
- partitions kept through a rebalance keep their state and their place.
Co-partitioning relies on the range assignor (see `kafka_clients`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from kafka import OffsetAndMetadata
from kafka.errors import CommitFailedError, KafkaError

from detectors.events import AnyEvent, EventError, parse_event
from ingest.decode import Rejected
from ingest.kafka_codec import (
    action_record,
    dlq_headers,
    flag_record,
    raw_record,
    read_seq,
)
from ingest.kafka_merge import EventTimeMerge, Pending, pending
from ingest.kafka_metrics import WorkerMetrics
from ingest.kafka_progress import PartitionProgress, RoutingIndex, parse_replay
from ingest.kafka_settings import KafkaSettings
from ingest.store_thread import StoreThread
from ingest.store_writer import StoreWriter
from rules.actions import Action
from rules.flags import Flag
from rules.pipeline import Pipeline

log = logging.getLogger(__name__)


class KafkaWorker:
    def __init__(
        self,
        settings: KafkaSettings,
        pipeline: Pipeline,
        consumer: Any,
        producer: Any,
        writer: StoreWriter | None,
        metrics: WorkerMetrics | None = None,
    ) -> None:
        self.settings = settings
        self.pipeline = pipeline
        self.consumer = consumer
        self.producer = producer
        self.writer = writer
        self.metrics = metrics or WorkerMetrics()
        self.merge = EventTimeMerge(settings.max_merge_wait_ms / 1000)
        self.topic_rank = {t: i for i, t in enumerate(settings.input_topics)}
        self.window = timedelta(seconds=settings.replay_window_seconds)
        self._progress: dict[Any, PartitionProgress] = {}
        self._routes = RoutingIndex()
        self._clock: datetime | None = None  # newest event time processed
        self._last_record = time.monotonic()
        self._failing_since: float | None = None
        # Processed but not yet stored / committed (see `_checkpoint`).
        self._events: list[AnyEvent] = []
        self._flags: list[Flag] = []
        self._actions: list[Action] = []
        self._touched: set[Any] = set()
        self._last_checkpoint = time.monotonic()
        self.store = StoreThread() if writer is not None else None
        # (store ticket, offsets): committed once that ticket's write is durable.
        self._pending_commits: deque[tuple[int, dict[Any, OffsetAndMetadata]]] = deque()

    # ---- the loop -------------------------------------------------------------------------

    def run(self, stop: threading.Event, exit_when_idle: float | None = None) -> None:
        self.consumer.subscribe(list(self.settings.input_topics))
        backlog = False
        while not stop.is_set():
            # With records already buffered and releasable, only look for more; don't wait.
            timeout = 0 if backlog else self.settings.poll_timeout_ms
            polled = self.consumer.poll(timeout_ms=timeout)
            reset = self._apply_rebalance()
            self._buffer(polled, skip=reset)
            self._pause_full()
            ready = self.merge.release(
                self._progress, self._caught_up, limit=self.settings.max_poll_records
            )
            backlog = len(ready) >= self.settings.max_poll_records
            if ready:
                self._process(ready)
            elif polled:
                self._report(Counter(), Counter(), Counter(), 0, 0, 0.0)
            if self._touched and self._checkpoint_due():
                self._checkpoint()
            elif self._pending_commits:
                self._commit_durable()
            self.metrics.maybe_log(self.settings.log_interval_seconds)
            if exit_when_idle is not None and self._idle_for() >= exit_when_idle:
                log.info("caught up and idle for %.1f s: exiting", exit_when_idle)
                break
        self._checkpoint(wait=True)
        if self.store is not None:
            self.store.close()

    def _idle_for(self) -> float:
        """Seconds this worker has had nothing left to do (for `--exit-when-idle`)."""
        busy = (
            not self._progress
            or bool(self._pending_commits)
            or self.merge.total() > 0
            or not all(self._caught_up(tp) and self._lag(tp) == 0 for tp in self._progress)
        )
        if busy:
            self._last_record = time.monotonic()
        return time.monotonic() - self._last_record

    # ---- rebalances -----------------------------------------------------------------------

    def _apply_rebalance(self) -> set[Any]:
        """Follow the assignment; returns the new partitions, whose polled records are void.

        No rebalance listener on purpose: kafka-python 3.0.12 leaves a partition that an eager
        rebalance revokes and gives straight back flagged "pending revocation" when a listener
        is set, and never fetches it again. Without one it keeps such a partition's position,
        so comparing assignments after each poll is enough: kept partitions just go on.
        """
        assigned = set(self.consumer.assignment())
        owned = set(self._progress)
        if assigned == owned:
            return set()
        self.metrics.note(rebalance=True)
        lost, fresh = owned - assigned, assigned - owned
        if lost:
            self._checkpoint(
                wait=True
            )  # store what was processed; the commit may no longer be ours
        self.merge.drop(lost)
        for tp in lost:
            del self._progress[tp]
        lost_numbers = {tp.partition for tp in lost} - {tp.partition for tp in assigned}
        if lost_numbers:
            self._drop_state(lost_numbers)
        self._start_fresh(sorted(fresh))
        log.info(
            "rebalance: %d partitions assigned (%d new), dropped state of partitions %s",
            len(assigned),
            len(fresh),
            sorted(lost_numbers),
        )
        self._report(Counter(), Counter(), Counter(), 0, 0, 0.0)  # lag gauges follow ownership
        return fresh

    def _start_fresh(self, tps: list[Any]) -> None:
        if not tps:
            return
        committed = {tp: self.consumer.committed(tp, metadata=True) for tp in tps}
        missing = [tp for tp, om in committed.items() if om is None]
        beginning = self.consumer.beginning_offsets(missing) if missing else {}
        for tp in tps:
            self.merge.drop([tp])
            om = committed[tp]
            start = beginning[tp] if om is None else om.offset
            replay = parse_replay(om.metadata if om is not None else "")
            progress = self._progress[tp] = PartitionProgress(processed=start)
            if replay is not None and replay < start:
                progress.replay_until = start
                progress.processed = progress.fetched = replay
                self.consumer.seek(tp, replay)
                log.info("partition %s: replaying offsets %d..%d", tp, replay, start - 1)
            else:
                progress.fetched = start
                self.consumer.seek(tp, start)

    def _drop_state(self, partitions: set[int]) -> None:
        keys = self._routes.release(partitions)
        dropped = self.pipeline.drop_routing_keys(keys)
        log.info("dropped %d state entries of %d routing keys", dropped, len(keys))

    # ---- buffering and the merge -----------------------------------------------------------

    def _buffer(self, polled: dict[Any, list[Any]], skip: set[Any]) -> None:
        rank = self.topic_rank
        for tp, records in polled.items():
            progress = self._progress.get(tp)
            if tp in skip or progress is None:
                continue
            topic_rank = rank.get(tp.topic, len(rank))
            for record in records:
                item = self._decode(tp, record)
                self.merge.add(
                    pending(
                        tp,
                        record.offset,
                        item,
                        record.key,
                        seq=read_seq(record.headers),
                        topic_rank=topic_rank,
                    )
                )
            if records:
                progress.fetched = records[-1].offset + 1

    @staticmethod
    def _decode(tp: Any, record: Any) -> AnyEvent | Rejected:
        # The position string and raw record are only built for a rejection: the common case
        # pays for pydantic's validation alone.
        value = record.value
        try:
            if value is None:
                raise EventError("", "empty record (no value)")
            return parse_event(value)
        except EventError as exc:
            return Rejected(raw_record(tp.topic, tp.partition, record.offset, value), exc.reason)

    def _pause_full(self) -> None:
        limit = self.settings.max_buffered_per_partition
        paused = set(self.consumer.paused())
        to_pause = [tp for tp in self._progress if self.merge.buffered(tp) >= limit]
        to_resume = [tp for tp in paused if self.merge.buffered(tp) < limit // 2]
        if to_pause:
            self.consumer.pause(*[tp for tp in to_pause if tp not in paused])
        if to_resume:
            self.consumer.resume(*to_resume)

    def _caught_up(self, tp: Any) -> bool:
        progress = self._progress.get(tp)
        highwater = self.consumer.highwater(tp) if progress is not None else None
        return (
            highwater is not None
            and progress is not None
            and progress.fetched is not None
            and progress.fetched >= highwater
        )

    def _lag(self, tp: Any) -> int | None:
        """Records behind the high watermark; None until a fetch has told us where that is."""
        progress = self._progress.get(tp)
        highwater: int | None = self.consumer.highwater(tp)
        if progress is None or progress.processed is None or highwater is None:
            return None
        return max(0, highwater - progress.processed)

    # ---- one batch --------------------------------------------------------------------------

    def _process(self, ready: list[Pending]) -> None:
        started = time.perf_counter()
        events, flags, actions = self._events, self._flags, self._actions
        new_flags, new_actions = len(flags), len(actions)
        counts: Counter[str] = Counter()
        replayed: Counter[str] = Counter()
        dead: Counter[str] = Counter()
        touched = self._touched
        for entry in ready:
            tp = entry.tp
            progress = self._progress[tp]
            warm = entry.offset < progress.replay_until
            item = entry.item
            if isinstance(item, Rejected):
                if not warm:
                    self._dead_letter(entry, item)
                    dead[tp.topic] += 1
            else:
                outcome = self.pipeline.process(item)
                self._routes.note(item, tp.partition)
                when = item.time
                if self._clock is None or when > self._clock:
                    self._clock = when
                progress.mark(when, entry.offset)
                if warm:
                    replayed[tp.topic] += 1
                else:
                    counts[tp.topic] += 1
                    events.append(item)
                    flags.extend(outcome.flags)
                    actions.extend(outcome.actions)
            progress.processed = entry.offset + 1
            touched.add(tp)
        # Sent now (latency); flushed, like the store write, before the next offset commit.
        self._produce(flags[new_flags:], actions[new_actions:])
        if len(events) >= self.settings.max_poll_records or self._checkpoint_due():
            self._checkpoint()
        new_flags, new_actions = len(flags) - new_flags, len(actions) - new_actions
        self._report(counts, replayed, dead, new_flags, new_actions, started)

    def _checkpoint_due(self) -> bool:
        elapsed = time.monotonic() - self._last_checkpoint
        return elapsed * 1000 >= self.settings.commit_interval_ms

    def _checkpoint(self, wait: bool = False) -> None:
        """Store -> flush produced records -> commit offsets, in that order: at-least-once.

        Runs every `commit_interval_ms` rather than every poll: a store transaction and two
        broker round trips per poll would cap a live (small-batch) stream. A crash replays at
        most that interval; ids are deterministic and writes upserts, so nothing doubles.
        The write is queued on the store thread with the offsets it covers (taken now); they
        are committed by `_commit_durable` once it is done (at once with `wait`).
        """
        self._last_checkpoint = time.monotonic()
        ticket = 0
        if self.store is not None and self.writer is not None:
            if self._events or self._flags or self._actions:
                write = partial(self.writer.write, self._events, self._flags, self._actions)
                self.store.submit(write)
            ticket = self.store.submitted  # also covers dead letters queued before
        self._events, self._flags, self._actions = [], [], []
        touched, self._touched = self._touched, set()
        offsets = self._offsets(touched)
        if offsets:
            self._pending_commits.append((ticket, offsets))
        if wait and self.store is not None:
            self.store.wait()
        self._commit_durable()

    def _commit_durable(self) -> None:
        done = self.store.done() if self.store is not None else 0
        offsets: dict[Any, OffsetAndMetadata] = {}
        pending = self._pending_commits
        while pending and pending[0][0] <= done:
            offsets.update(pending.popleft()[1])  # a later batch's offset supersedes
        if offsets:
            self.producer.flush()
            self._commit(offsets)

    def _dead_letter(self, entry: Pending, rejected: Rejected) -> None:
        tp = entry.tp
        log.warning("dead letter %s", rejected.describe())
        self.producer.send(
            self.settings.dlq_topic(tp.topic),
            key=entry.key,
            value=rejected.record.data,
            headers=dlq_headers(rejected.reason, tp.topic, tp.partition, entry.offset),
        )
        if self.writer is not None and self.store is not None:
            raw = rejected.record.data.decode("utf-8", "replace")
            self.store.submit(
                partial(
                    self.writer.write_dead_letter,
                    tp.topic,
                    rejected.record.position,
                    rejected.reason,
                    raw,
                )
            )

    def _produce(self, flags: list[Flag], actions: list[Action]) -> None:
        for flag in flags:
            key, value = flag_record(flag)
            self.producer.send(self.settings.flags_topic, key=key, value=value)
        for action in actions:
            key, value = action_record(action)
            self.producer.send(self.settings.actions_topic, key=key, value=value)

    def _offsets(self, tps: Iterable[Any]) -> dict[Any, OffsetAndMetadata]:
        cutoff = self._clock - self.window if self._clock is not None else None
        offsets = {}
        for tp in tps:
            progress = self._progress.get(tp)
            if progress is not None and progress.processed is not None:
                metadata = progress.commit_metadata(cutoff)
                offsets[tp] = OffsetAndMetadata(progress.processed, metadata, -1)
        return offsets

    def _commit(self, offsets: dict[Any, OffsetAndMetadata]) -> None:
        # Only partitions still ours: a write that finished after a rebalance must not move
        # back an offset the partition's new owner has committed since.
        offsets = {tp: om for tp, om in offsets.items() if tp in self._progress}
        if not offsets:
            return
        try:
            self.consumer.commit(offsets)
            self.metrics.note(commit=True)
            self._failing_since = None
        except (CommitFailedError, KafkaError) as exc:
            # Mostly a rebalance: retried at the next checkpoint while the partitions are still
            # ours; if the group moved on, their new owner re-processes from the last commit.
            self.metrics.note(commit_failure=True)
            log.warning("offset commit failed, will retry: %s", exc)
            self._touched.update(offsets)
            self._rejoin_if_stuck()

    def _rejoin_if_stuck(self) -> None:
        """Leave and re-join the group after commits failed for a whole session timeout.

        kafka-python 3.0.12 can leave a member in "rebalancing" without ever sending JoinGroup
        (seen with two workers under load): it goes on processing partitions the group gave to
        someone else and can never commit. Re-subscribing forces a fresh join; the assignment
        check after the next poll then drops this worker's state and rebuilds what it gets.
        """
        now = time.monotonic()
        if self._failing_since is None:
            self._failing_since = now
            return
        stuck = now - self._failing_since
        if stuck * 1000 < self.settings.session_timeout_ms:
            return
        log.error("commits failing for %.0f s: leaving and re-joining the group", stuck)
        self._failing_since = None
        owned = set(self._progress)
        self.merge.drop(owned)
        self._progress.clear()
        self._touched.clear()
        self._pending_commits.clear()
        self._drop_state({tp.partition for tp in owned})
        self.consumer.unsubscribe()
        self.consumer.subscribe(list(self.settings.input_topics))

    def _report(
        self,
        counts: Counter[str],
        replayed: Counter[str],
        dead: Counter[str],
        flags: int,
        actions: int,
        started: float,
    ) -> None:
        self.metrics.batch_done(
            records=counts,
            replayed=replayed,
            dead_letters=dead,
            flags=flags,
            actions=actions,
            seconds=time.perf_counter() - started if started else 0.0,
            lag={(tp.topic, tp.partition): self._lag(tp) for tp in self._progress},
            buffered=self.merge.total(),
            detector_errors=self.pipeline.metrics.detector_errors,
        )
