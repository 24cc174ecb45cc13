"""The escalation stage of `railbird run`: one ladder per player, whoever raised the flags.

It reads the offences topic (`kafka.offences`: each flag's offences keyed by player, and every
source's marks) in consumer group `<group_id>-escalation`, its partitions shared by the
members; each owned partition is one `rules.escalation.Escalation`, whose actions go to
`moderation.actions` and the store. Per cycle: poll -> feed each record to its partition's
ladder -> send and store the actions; every `commit_interval_ms`: store -> flush -> commit.

Restarts and takeovers, as in the other stages: every `snapshot_interval_seconds` each
ladder is written to `<group_id>-escalation-state` (`kafka.snapshots`) and the commits after it
name that snapshot and the offset it covers; a new owner restores it and replays the records
between it and the commit with their actions discarded (they were sent before that commit).
With no snapshot the partition is replayed from its first retained record (the topic is kept
`offences_retention_ms`, longer than any strike window), still with outputs discarded up to
the commit: either way the ladder resumes exactly where it was.

With `--exit-when-idle` a member exits once every partition of the topic is done: committed to
its end by a ladder that every source has ended and that holds nothing (a commit says so in its
metadata, `done=1`), so a member that owns nothing never leaves a partition without an heir.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from kafka import KafkaConsumer, OffsetAndMetadata
from kafka import TopicPartition as KafkaTopicPartition
from kafka.errors import CommitFailedError, KafkaError

from railbird.detectors.events import AnyEvent
from railbird.ingest.kafka.client_types import ConsumedRecord, Consumer, Producer, TopicPartition
from railbird.ingest.kafka.clients import BrokerUnreachable, unreachable
from railbird.ingest.kafka.codec import OffenceRecordError, read_offence_record
from railbird.ingest.kafka.metrics import WorkerMetrics
from railbird.ingest.kafka.offences import ensure_offences_topic
from railbird.ingest.kafka.outputs import send_outputs
from railbird.ingest.kafka.progress import FROM_PREFIX, SNAPSHOT_PREFIX, parse_resume
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.kafka.snapshots import SnapshotStore
from railbird.ingest.sink import Sink
from railbird.rules.actions import Action
from railbird.rules.escalation import END, Escalation, Raised
from railbird.rules.policy import RuleBook
from railbird.rules.policy_watch import PolicyWatch

log = logging.getLogger(__name__)

DONE_MARK = "done=1"
GROUP_CHECK_SECONDS = 1.0


def escalation_sources(partitions: int, site: bool) -> list[str]:
    """The sources every ladder waits for: each table partition, and the site stage if it runs."""
    return [f"tables:{n}" for n in range(partitions)] + (["site"] if site else [])


def input_partitions(settings: KafkaSettings) -> int:
    """How many partitions the input topics have (0: they do not exist yet); a broker that
    does not answer is `BrokerUnreachable`."""
    try:
        consumer = KafkaConsumer(
            bootstrap_servers=settings.bootstrap_list(),
            client_id=f"{settings.client_id}-layout",
            bootstrap_timeout_ms=settings.bootstrap_timeout_ms,
        )
    except KafkaError as exc:
        raise BrokerUnreachable(unreachable(settings, exc)) from exc
    try:
        return len(consumer.partitions_for_topic(settings.chat_topic) or ())
    finally:
        consumer.close()


@dataclass
class _Owned:
    ladder: Escalation
    processed: int = 0  # next offset to read
    replay_until: int = -1  # below this, actions were sent before: discarded
    snapshot: tuple[str, int] | None = None
    touched: bool = False

    def metadata(self) -> str:
        parts = []
        if self.snapshot is not None:
            sid, covered = self.snapshot
            parts += [f"{SNAPSHOT_PREFIX}{sid}", f"{FROM_PREFIX}{covered}"]
        if self.ladder.complete and self.processed >= self.replay_until:
            parts.append(DONE_MARK)
        return ";".join(parts)


@dataclass
class _Batch:
    actions: list[Action] = field(default_factory=list)
    records: int = 0
    replayed: int = 0
    unreadable: int = 0


class EscalationWorker:
    def __init__(
        self,
        settings: KafkaSettings,
        consumer: Consumer,
        producer: Producer,
        store: Sink[AnyEvent] | None,
        sources: Iterable[str],
        metrics: WorkerMetrics | None = None,
        policy: PolicyWatch | None = None,
    ) -> None:
        self.settings = settings
        self.consumer = consumer
        self.producer = producer
        self.store = store
        self.sources = list(sources)
        self.metrics = metrics or WorkerMetrics("escalation")
        self.topic = settings.offences_topic_name
        self.snapshots = (
            SnapshotStore(settings, producer, "escalation")
            if settings.snapshot_interval_seconds > 0
            else None
        )
        self._owned: dict[TopicPartition, _Owned] = {}
        self.policy = policy if policy is not None else PolicyWatch(None)
        self._next_commit = 0.0
        self._next_snapshot = time.monotonic() + settings.snapshot_interval_seconds
        self._group_checked_at = -GROUP_CHECK_SECONDS
        self._group_done = False
        self._idle_since = time.monotonic()
        # An END read live in this run: without one, "every commit says done" may be the last
        # run's, and this run's stages have not spoken yet.
        self._ended_live = False

    # ---- the loop -------------------------------------------------------------------------

    def run(self, stop: threading.Event, exit_when_idle: float | None = None) -> None:
        partitions = len(self.consumer.partitions_for_topic(self.settings.chat_topic) or ())
        ensure_offences_topic(self.settings, max(partitions, 1))
        if self.snapshots is not None:
            try:
                self.snapshots.ensure_topic()
            except KafkaError as exc:
                log.warning("no escalation state topic (%s): restarts replay the topic", exc)
                self.snapshots = None
        self.consumer.subscribe([self.topic])
        while not stop.is_set():
            polled = self.consumer.poll(timeout_ms=self.settings.poll_timeout_ms)
            self._follow_policy()
            fresh = self._follow_assignment()
            batch = _Batch()
            started = time.perf_counter()
            for tp, records in polled.items():
                owned = self._owned.get(tp)
                if owned is None or tp in fresh:
                    continue  # given up, or re-positioned: these records are void
                self._feed(tp, owned, records, batch)
            if batch.actions:
                send_outputs(self.settings, self.producer, (), batch.actions)
                if self.store is not None:
                    self.store.add([], [], batch.actions)
            self._report(batch, started if polled else 0.0)
            self._maybe_snapshot()
            self._maybe_commit(force=not polled)
            self.metrics.maybe_log(self.settings.log_interval_seconds)
            if polled:
                self._idle_since = time.monotonic()
            if exit_when_idle is not None and self._idle_for() >= exit_when_idle:
                log.info(
                    "escalation: every ladder done and idle for %.1f s: exiting", exit_when_idle
                )
                break
        self._maybe_snapshot(force=True)
        self._maybe_commit(force=True)

    def _feed(
        self, tp: TopicPartition, owned: _Owned, records: list[ConsumedRecord], batch: _Batch
    ) -> None:
        ladder = owned.ladder
        for record in records:
            if record.offset < owned.processed:
                continue
            warm = record.offset < owned.replay_until
            try:
                item = read_offence_record(record.value)
            except OffenceRecordError as exc:
                log.warning("offences %s offset %d skipped: %s", tp, record.offset, exc)
                batch.unreadable += 1
                item = None
            try:
                if isinstance(item, Raised):
                    decided = ladder.offer(item)
                elif item is not None:
                    decided = ladder.mark(*item)
                    if item[1] == END and not warm:
                        self._ended_live = True
                else:
                    decided = []
            except Exception:  # one record must not stop the ladders (nor crash-loop them)
                log.exception("offences %s offset %d could not be decided", tp, record.offset)
                batch.unreadable += 1
                decided = []
            if warm:
                batch.replayed += 1
            else:
                batch.records += 1
                batch.actions.extend(decided)
                owned.touched = True
            owned.processed = record.offset + 1

    # ---- commits and snapshots ------------------------------------------------------------

    def _maybe_commit(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now < self._next_commit:
            return
        self._next_commit = now + self.settings.commit_interval_ms / 1000
        touched = {tp: o for tp, o in self._owned.items() if o.touched}
        if not touched:
            return
        try:
            if self.store is not None:
                self.store.wait(self.store.flush())
            self.producer.flush()
            offsets = {  # kafka-python checks for its own partition type
                KafkaTopicPartition(tp.topic, tp.partition): OffsetAndMetadata(
                    o.processed, o.metadata(), -1
                )
                for tp, o in touched.items()
            }
            self.consumer.commit(offsets)
        except (CommitFailedError, KafkaError) as exc:
            self.metrics.note(commit_failure=True)
            log.warning("escalation commit failed, will retry: %s", exc)
            return
        self.metrics.note(commit=True)
        for owned in touched.values():
            owned.touched = False
            if owned.snapshot is not None and self.snapshots is not None:
                self.snapshots.committed(owned.snapshot[0])

    def _maybe_snapshot(self, force: bool = False) -> None:
        store = self.snapshots
        now = time.monotonic()
        if store is None or not self._owned or (not force and now < self._next_snapshot):
            return
        self._next_snapshot = now + self.settings.snapshot_interval_seconds
        for tp, owned in sorted(self._owned.items()):
            if owned.processed < owned.replay_until:
                continue  # mid-replay: its state is not yet the one the commit covers
            try:
                sid = store.save(
                    f"escalation:{tp.partition}",
                    {tp: owned.processed},
                    owned.ladder.snapshot(),
                )
            except Exception as exc:  # a broker away: next time
                log.warning("escalation snapshot of %s not written (%s)", tp, exc)
                continue
            owned.snapshot = (sid, owned.processed)
            owned.touched = True

    # ---- assignment -----------------------------------------------------------------------

    def _follow_assignment(self) -> set[TopicPartition]:
        assigned = {TopicPartition(tp.topic, tp.partition) for tp in self.consumer.assignment()}
        owned = set(self._owned)
        if assigned == owned:
            return set()
        self.metrics.note(rebalance=True)
        lost, fresh = owned - assigned, assigned - owned
        if lost:
            self._maybe_commit(force=True)  # what was decided, while it may still be ours
            for tp in lost:
                del self._owned[tp]
        for tp in sorted(fresh):
            self._start(tp)
        log.info("escalation: %d partitions (%d new)", len(assigned), len(fresh))
        return fresh

    def _start(self, tp: TopicPartition) -> None:
        ktp = KafkaTopicPartition(tp.topic, tp.partition)
        committed = self.consumer.committed(ktp, metadata=True)
        first = self.consumer.beginning_offsets([ktp]).get(ktp, 0)
        owned = _Owned(self._ladder())
        start = first if committed is None else committed.offset
        plan = parse_resume(committed.metadata if committed is not None else "")
        replay_from = first
        if plan.snapshot_id and plan.snapshot_from is not None and self.snapshots is not None:
            loaded = self.snapshots.load([plan.snapshot_id]).get(plan.snapshot_id)
            if loaded is not None:
                try:
                    owned.ladder.restore(loaded.state)
                    replay_from = plan.snapshot_from
                    owned.snapshot = (plan.snapshot_id, plan.snapshot_from)
                    log.info("escalation %s: restored snapshot %s", tp, plan.snapshot_id)
                except Exception as exc:  # unreadable: the topic replay instead
                    owned.ladder = self._ladder()
                    log.warning("escalation snapshot %s not restored (%s)", plan.snapshot_id, exc)
        owned.processed = replay_from
        owned.replay_until = start
        self.consumer.seek(ktp, replay_from)
        self._owned[tp] = owned
        if replay_from < start:
            log.info("escalation %s: replaying offsets %d..%d", tp, replay_from, start - 1)

    def _ladder(self) -> Escalation:
        return Escalation(self.sources, RuleBook(self.policy.current()))

    def _follow_policy(self) -> None:
        """A changed policy file (checked every `PolicyWatch.every` s) applies from the next
        decision on; one that fails its check is logged and the old one kept."""
        if self.policy.changed():
            for owned in self._owned.values():
                owned.ladder.rulebook.policy = self.policy.current()

    # ---- exit when idle ---------------------------------------------------------------------

    def _idle_for(self) -> float:
        busy = any(
            not o.ladder.complete or o.touched or o.processed < (self._highwater(tp) or 0)
            for tp, o in self._owned.items()
        )
        if not busy and (not (self._ended_live or not self._owned) or not self._everything_done()):
            busy = True
        if busy:
            self._idle_since = time.monotonic()
        return time.monotonic() - self._idle_since

    def _highwater(self, tp: TopicPartition) -> int | None:
        return self.consumer.highwater(KafkaTopicPartition(tp.topic, tp.partition))

    def _everything_done(self) -> bool:
        """Every partition of the topic committed to its end by a finished ladder."""
        now = time.monotonic()
        if now - self._group_checked_at < GROUP_CHECK_SECONDS:
            return self._group_done
        self._group_checked_at = now
        consumer = self.consumer
        try:
            tps = [
                KafkaTopicPartition(self.topic, p)
                for p in sorted(consumer.partitions_for_topic(self.topic) or ())
            ]
            ends = consumer.end_offsets(tps)
            done = bool(tps)
            for tp in tps:
                committed = consumer.committed(tp, metadata=True)
                if (
                    committed is None
                    or committed.offset < ends.get(tp, 0)
                    or DONE_MARK not in (committed.metadata or "").split(";")
                ):
                    done = False
                    break
            self._group_done = done
        except Exception as exc:  # the broker away: not known to be done
            log.info("could not read the escalation group's offsets (%s)", exc)
            self._group_done = False
        return self._group_done

    def _report(self, batch: _Batch, started: float) -> None:
        records: Counter[str] = Counter()
        replayed: Counter[str] = Counter()
        if batch.records:
            records[self.topic] = batch.records
        if batch.replayed:
            replayed[self.topic] = batch.replayed
        self.metrics.batch_done(
            records=records,
            replayed=replayed,
            dead_letters=Counter({self.topic: batch.unreadable}) if batch.unreadable else Counter(),
            flags=0,
            actions=len(batch.actions),
            seconds=time.perf_counter() - started if started else 0.0,
            lag={
                (tp.topic, tp.partition): max(0, (self._highwater(tp) or o.processed) - o.processed)
                for tp, o in self._owned.items()
            },
            buffered=sum(o.ladder.waiting for o in self._owned.values()),
            detector_errors=Counter(),
            store_set_aside=0,
        )
