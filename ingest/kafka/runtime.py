"""The one runtime every Kafka stage runs on, shaped like Quix Streams' `Application` and
`Checkpoint` (on kafka-python): the poll loop, assignment and rebalances, the checkpoint
(store, then producer flush, then offsets), snapshots with restore and replay, idleness and
metrics. A stage (`Stage`) plugs in with what is its own: what a batch of records does, what
a task's state is, how it is restored and dropped. The table stage, the keyed stage and the
escalation stage are its three users.

Tasks. A stage's topics are co-partitioned (the range assignor gives one member partition N
of each); partition number N of all of them is one *task*, with its own state, as in Kafka
Streams. A task starts (`Stage.open`) from the snapshot its commits name (`kafka.resume`,
`kafka.snapshots`) and reads again from the offsets that snapshot covers: records before the
committed offsets are *replayed*, their outputs discarded (they were produced before that
commit); a task with no snapshot starts empty from its committed offset (or the beginning) and
writes one at once, so a crash always finds one. A task given up is dropped whole.

Rebalances without a listener, on purpose: kafka-python 3.0.12 leaves a partition that an
eager rebalance revokes and gives straight back flagged "pending revocation" when a listener
is set, and never fetches it again. Without one it keeps such a partition's position, so
comparing the assignment after each poll is enough: kept partitions just go on.

Idleness (`--exit-when-idle S`). Once the stage's own input has been caught up for S seconds
the stage is told its input has ended (`Stage.end_input`: the table stage then ends its
sources downstream). A member exits once every task it owns is complete and the whole
deployment is done: every partition of every stage's topics committed to its end by a task
that said `done` (`kafka.resume`), for S seconds. A member owning nothing (a standby) thus
never exits while an owner that may die still has work, and exits once the group is done.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from kafka import KafkaAdminClient
from kafka import TopicPartition as KafkaTopicPartition

from railbird.ingest.kafka.checkpoint import Checkpoints, Durable, Offsets
from railbird.ingest.kafka.client_types import ConsumedRecord, Consumer, Producer, TopicPartition
from railbird.ingest.kafka.codec import SortKey
from railbird.ingest.kafka.internals import force_rejoin, has_joined, restore_parked
from railbird.ingest.kafka.metrics import StageMetrics
from railbird.ingest.kafka.resume import DONE, ResumeNote, parse_note
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.kafka.snapshots import SnapshotStore

log = logging.getLogger(__name__)

DEPLOYMENT_CHECK_SECONDS = 1.0  # how often an idle member asks whether everything is done


@dataclass(frozen=True)
class Resume:
    """How a task starts: the state to restore (None: empty), where each partition is read
    from, where live processing starts (records before: replayed), and the lanes' progress."""

    state: bytes | None
    start: dict[TopicPartition, int]
    live_from: dict[TopicPartition, int]
    lanes: dict[str, SortKey] = field(default_factory=dict)


@dataclass
class Batch:
    """What one `Stage.process` call did, for the metrics."""

    records: Counter[str] = field(default_factory=Counter)
    replayed: Counter[str] = field(default_factory=Counter)
    dead_letters: Counter[str] = field(default_factory=Counter)
    flags: int = 0
    actions: int = 0

    @property
    def processed(self) -> int:
        return sum(self.records.values()) + sum(self.replayed.values())


class Feed(Protocol):
    """What the runtime tells a stage about its partitions."""

    polled_at: float  # monotonic time of the last poll

    def caught_up(self, tp: TopicPartition) -> bool: ...


class Stage(Protocol):
    """A stream stage: it never polls; the runtime hands it records and asks for its state."""

    name: str

    def topics(self) -> list[str]: ...

    def attach(self, feed: Feed) -> None: ...

    def open(self, task: int, tps: list[TopicPartition], resume: Resume) -> None:
        """Start (or restart) a task from `resume`; the runtime then seeks to `resume.start`."""
        ...

    def process(self, polled: Mapping[TopicPartition, Sequence[ConsumedRecord]]) -> Batch:
        """Records polled from owned partitions (possibly none: time passes) -> outputs."""
        ...

    def snapshot(self, task: int) -> tuple[bytes, dict[TopicPartition, int]] | None:
        """The task's state and the offsets it covers; None while it cannot be taken."""
        ...

    def commit_note(self, task: int) -> tuple[dict[TopicPartition, int], dict[str, SortKey], bool]:
        """What to commit: each partition's next offset, the lanes' progress, completeness."""
        ...

    def drop(self, tasks: Collection[int]) -> None: ...

    def buffered(self, tp: TopicPartition) -> int:
        """Records of `tp` fetched and not yet processed (backpressure, idleness)."""
        ...

    def position(self, tp: TopicPartition) -> int | None:
        """The next offset of `tp` to process (for the lag)."""
        ...

    def busy(self) -> bool:
        """Records are ready to process now: poll without waiting."""
        ...

    def end_input(self) -> None:
        """The stage's input has ended (`--exit-when-idle`)."""
        ...

    def finished(self) -> bool:
        """Every owned task is complete and nothing waits."""
        ...

    def counters(self) -> tuple[Counter[str], int, int]:
        """Detector errors so far, late records so far, records waiting in merges and lanes."""
        ...


class StreamRuntime:
    def __init__(
        self,
        settings: KafkaSettings,
        stage: Stage,
        consumer: Consumer,
        producer: Producer,
        store: Durable | None,
        metrics: StageMetrics,
        deployment: Sequence[tuple[str, Sequence[str]]],
    ) -> None:
        """`deployment`: every (consumer group, topics) of the deployment, for idleness."""
        self.settings = settings
        self.stage = stage
        self.consumer = consumer
        self.producer = producer
        self.store = store
        self.metrics = metrics
        self.deployment = deployment
        self.snapshots = SnapshotStore(settings, producer, stage.name)
        self.checkpoints = Checkpoints(
            consumer, producer, store, settings.commit_interval_ms, lambda: self._owned
        )
        self.checkpoints.on_committed = self._committed
        self.polled_at = time.monotonic()
        self._owned: set[TopicPartition] = set()
        self._fetched: dict[TopicPartition, int] = {}
        self._task_snapshot: dict[int, str] = {}
        self._committed_at: dict[TopicPartition, tuple[int, str]] = {}
        self._next_snapshot = time.monotonic() + settings.snapshot_interval_seconds
        self._unstored = 0
        self._input_idle_since: float | None = None
        self._input_ended = False
        self._done_since: float | None = None
        self._deployment_checked = -DEPLOYMENT_CHECK_SECONDS
        self._deployment_done = False
        self._admin: KafkaAdminClient | None = None
        self._started = False
        self._started_checked = -DEPLOYMENT_CHECK_SECONDS
        stage.attach(self)

    # ---- what the stage asks ---------------------------------------------------------------

    def caught_up(self, tp: TopicPartition) -> bool:
        fetched = self._fetched.get(tp)
        if fetched is None:
            return False
        highwater = self.consumer.highwater(tp)
        return highwater is not None and fetched >= highwater

    # ---- the loop ----------------------------------------------------------------------------

    def run(self, stop: threading.Event, exit_when_idle: float | None = None) -> None:
        self.snapshots.ensure_topic()
        topics = self.stage.topics()
        self.consumer.subscribe(topics)
        stage = self.stage
        while not stop.is_set():
            timeout = 0 if stage.busy() else self.settings.poll_timeout_ms
            polled = self.consumer.poll(timeout_ms=timeout)
            self.polled_at = time.monotonic()
            fresh = self._follow_assignment()
            mine = {
                tp: records
                for tp, records in polled.items()
                if records and tp in self._owned and tp not in fresh
            }
            for tp, records in mine.items():
                self._fetched[tp] = records[-1].offset + 1
            started = time.perf_counter()
            batch = stage.process(mine)
            self._unstored += sum(batch.records.values())
            self._report(batch, started)
            self._pace()
            self._maybe_snapshot()
            idle = not mine and not stage.busy()
            if self._unstored >= self.settings.store_batch_events or self.checkpoints.due() or idle:
                self._checkpoint(idle=idle)
            else:
                self.checkpoints.commit_durable()
            if self.checkpoints.stuck_for() * 1000 >= self.settings.session_timeout_ms:
                self._rejoin(topics)
            self.metrics.maybe_log(self.settings.log_interval_seconds)
            if exit_when_idle is not None and self._idle_enough(exit_when_idle, bool(mine)):
                log.info("%s stage: done and idle for %.1f s: exiting", stage.name, exit_when_idle)
                break
        self._maybe_snapshot(force=True)
        self._checkpoint(wait=True)
        if self._admin is not None:
            self._admin.close()

    def _pace(self) -> None:
        """Pause fetching from partitions whose records wait unprocessed; resume them later."""
        limit = self.settings.max_buffered_per_partition
        buffered = self.stage.buffered
        paused = set(self.consumer.paused())
        to_pause = [tp for tp in self._owned if tp not in paused and buffered(tp) >= limit]
        to_resume = [tp for tp in paused if buffered(tp) < limit // 2]
        if to_pause:
            self.consumer.pause(*to_pause)
        if to_resume:
            self.consumer.resume(*to_resume)
        restore_parked(self.consumer)

    # ---- checkpoints and snapshots -----------------------------------------------------------

    def _checkpoint(self, wait: bool = False, idle: bool = False) -> None:
        self._unstored = 0
        self.checkpoints.checkpoint(self._offsets(), wait=wait, idle=idle)
        self.metrics.commits_seen(
            self.checkpoints.commits, self.checkpoints.failures, self.checkpoints.last_ok
        )

    def _offsets(self) -> Offsets:
        """What each owned task would commit now, where it differs from what was committed."""
        offsets: Offsets = {}
        for task in sorted({tp.partition for tp in self._owned}):
            positions, lanes, complete = self.stage.commit_note(task)
            note = ResumeNote(self._task_snapshot.get(task), lanes, complete).format()
            for tp, offset in positions.items():
                if tp in self._owned and self._committed_at.get(tp) != (offset, note):
                    offsets[tp] = (offset, note)
        return offsets

    def _committed(self, offsets: Offsets) -> None:
        """After a successful commit: remember it, and let superseded snapshots go."""
        self._committed_at.update(offsets)
        for _offset, note in offsets.values():
            sid = parse_note(note).snapshot_id
            if sid is not None:
                self.snapshots.committed(sid)

    def _maybe_snapshot(self, force: bool = False, tasks: Collection[int] | None = None) -> None:
        """Write each task's state when due (`force`: now; `tasks`: only these, now); the next
        commits name it (the producer is flushed before them)."""
        now = time.monotonic()
        if tasks is None:
            if not force and now < self._next_snapshot:
                return
            self._next_snapshot = now + self.settings.snapshot_interval_seconds
            tasks = sorted({tp.partition for tp in self._owned})
        started = time.perf_counter()
        written = 0
        for task in tasks:
            taken = self.stage.snapshot(task)
            if taken is None:
                continue
            state, covered = taken
            try:
                sid = self.snapshots.save(f"{self.stage.name}:{task}", covered, state)
            except Exception as exc:  # a broker away: next time (the last one stands)
                log.warning(
                    "%s snapshot of task %d not written (%s: %s)",
                    self.stage.name,
                    task,
                    type(exc).__name__,
                    exc,
                )
                continue
            self._task_snapshot[task] = sid
            written += 1
        if written:
            log.info(
                "%s stage: state snapshot of %d task(s) in %.2f s",
                self.stage.name,
                written,
                time.perf_counter() - started,
            )

    # ---- assignment --------------------------------------------------------------------------

    def _follow_assignment(self) -> set[TopicPartition]:
        """Follow the assignment; returns the partitions just (re)positioned, whose polled
        records are void."""
        # kafka-python's own partition type: its calls check for it (ours hashes alike).
        assigned = set(self.consumer.assignment())
        if assigned == self._owned:
            return set()
        self.metrics.rebalanced()
        lost, fresh = self._owned - assigned, assigned - self._owned
        lost_tasks = {tp.partition for tp in lost}
        if lost:
            self._checkpoint(wait=True)  # what was processed, while the commit may be ours
            self.stage.drop(lost_tasks)
            for tp in lost:
                self._fetched.pop(tp, None)
                self._committed_at.pop(tp, None)
            for task in lost_tasks:
                self._task_snapshot.pop(task, None)
        # A task that lost one partition and kept another restarts whole from its snapshot.
        reopened = {tp for tp in assigned - fresh if tp.partition in lost_tasks}
        self._owned = assigned
        to_open = fresh | reopened
        by_task: dict[int, list[TopicPartition]] = {}
        for tp in sorted(to_open):
            by_task.setdefault(tp.partition, []).append(tp)
        for task, tps in sorted(by_task.items()):
            self._open(task, tps)
        log.info(
            "%s stage: %d partitions assigned (%d new), tasks %s dropped, %s opened",
            self.stage.name,
            len(assigned),
            len(fresh),
            sorted(lost_tasks),
            sorted(by_task),
        )
        return to_open

    def _open(self, task: int, tps: list[TopicPartition]) -> None:
        consumer = self.consumer
        ktps = [KafkaTopicPartition(tp.topic, tp.partition) for tp in tps]
        committed = {
            tp: consumer.committed(ktp, metadata=True) for tp, ktp in zip(tps, ktps, strict=True)
        }
        beginning = consumer.beginning_offsets(ktps)
        notes = {
            tp: parse_note(om.metadata if om is not None else "") for tp, om in committed.items()
        }
        live_from = {
            tp: (om.offset if om is not None else beginning.get(KafkaTopicPartition(*tp), 0))
            for tp, om in committed.items()
        }
        named = sorted({n.snapshot_id for n in notes.values() if n.snapshot_id})
        lanes = next((n.lanes for n in notes.values() if n.snapshot_id), {})
        loaded = self.snapshots.load(named[-1:]) if named else {}
        if len(named) > 1:
            log.warning(
                "task %d's partitions name different snapshots %s: %s used", task, named, named[-1]
            )
        snapshot = next(iter(loaded.values()), None)
        if snapshot is not None:
            start = {tp: snapshot.offsets.get(tp, live_from[tp]) for tp in tps}
            resume = Resume(snapshot.state, start, live_from, lanes)
        else:
            if any(om is not None for om in committed.values()):
                log.warning(
                    "%s task %d: no state snapshot found (%s): its state starts empty at the "
                    "committed offsets",
                    self.stage.name,
                    task,
                    named or "none named",
                )
            resume = Resume(None, dict(live_from), live_from)
        try:
            self.stage.open(task, tps, resume)
        except Exception as exc:  # a snapshot that cannot be restored: start over, empty
            if resume.state is None:
                raise
            log.warning(
                "%s task %d: snapshot not restored (%s: %s): its state starts empty",
                self.stage.name,
                task,
                type(exc).__name__,
                exc,
            )
            snapshot = None
            resume = Resume(None, dict(live_from), live_from)
            self.stage.open(task, tps, resume)
        for tp, ktp in zip(tps, ktps, strict=True):
            consumer.seek(ktp, resume.start[tp])
            self._fetched[tp] = resume.start[tp]
            if resume.start[tp] < live_from[tp]:
                log.info("%s: replaying offsets %d..%d", tp, resume.start[tp], live_from[tp] - 1)
        if snapshot is not None:
            self._task_snapshot[task] = snapshot.snapshot_id
            self.snapshots.committed(snapshot.snapshot_id)  # the commits name it: older can go
            log.info(
                "%s task %d: restored state snapshot %s",
                self.stage.name,
                task,
                snapshot.snapshot_id,
            )
        else:
            self._maybe_snapshot(tasks=[task])  # a crash from now on finds this one

    def _rejoin(self, topics: list[str]) -> None:
        log.error(
            "%s stage: commits failing for %.0f s: leaving and re-joining the group",
            self.stage.name,
            self.checkpoints.stuck_for(),
        )
        self.stage.drop({tp.partition for tp in self._owned})
        self._owned = set()
        self._fetched.clear()
        self._task_snapshot.clear()
        self._committed_at.clear()
        self.checkpoints.forget()
        force_rejoin(self.consumer, topics)

    # ---- idleness ----------------------------------------------------------------------------

    def _idle_enough(self, seconds: float, polled: bool) -> bool:
        now = time.monotonic()
        stage = self.stage
        drained = not polled and all(
            self.caught_up(tp) and stage.buffered(tp) == 0 for tp in self._owned
        )
        joined = bool(self._owned) or has_joined(self.consumer)
        if not drained or not joined or not self._input_started():
            self._input_idle_since = None
        elif self._input_idle_since is None:
            self._input_idle_since = now
        if (
            not self._input_ended
            and self._input_idle_since is not None
            and now - self._input_idle_since >= seconds
        ):
            self._input_ended = True
            stage.end_input()
        done = (
            self._input_ended
            and stage.finished()
            and not self.checkpoints.pending
            and self._everything_done()
        )
        if not done:
            self._done_since = None
            return False
        if self._done_since is None:
            self._done_since = now
        return now - self._done_since >= seconds

    def _input_started(self) -> bool:
        """Whether the input topics hold any record: a stream that has not begun has not
        ended (a worker started before its producer must wait for it). The input topics, not
        the stage's own: the internal ones carry the stages' marks from the start."""
        if self._started:
            return True
        now = time.monotonic()
        if now - self._started_checked < DEPLOYMENT_CHECK_SECONDS:
            return False
        self._started_checked = now
        try:
            tps = [
                KafkaTopicPartition(topic, p)
                for topic in self.settings.input_topics
                for p in sorted(self.consumer.partitions_for_topic(topic) or ())
            ]
            self._started = any(end > 0 for end in self.consumer.end_offsets(tps).values())
        except Exception as exc:  # the broker away: not known to have begun
            log.info("could not read the input's end offsets (%s)", exc)
        return self._started

    def _everything_done(self) -> bool:
        """Every partition of every stage's topics committed to its end by a task that said
        it was done, asked of the broker at most every `DEPLOYMENT_CHECK_SECONDS`."""
        now = time.monotonic()
        if now - self._deployment_checked < DEPLOYMENT_CHECK_SECONDS:
            return self._deployment_done
        self._deployment_checked = now
        try:
            self._deployment_done = self._ask_deployment()
        except Exception as exc:  # the broker away: not known to be done
            log.info("could not read the deployment's offsets (%s): not done", exc)
            self._deployment_done = False
        return self._deployment_done

    def _ask_deployment(self) -> bool:
        consumer = self.consumer
        if self._admin is None:
            self._admin = KafkaAdminClient(
                bootstrap_servers=self.settings.bootstrap_list(),
                client_id=f"{self.settings.client_id}-idle",
            )
        groups = self._admin.list_group_offsets({group: None for group, _ in self.deployment})
        for group, topics in self.deployment:
            tps = [
                KafkaTopicPartition(topic, p)
                for topic in topics
                for p in sorted(consumer.partitions_for_topic(topic) or ())
            ]
            ends = consumer.end_offsets(tps)
            committed = groups.get(group, {})
            for tp in tps:
                end = ends.get(tp, 0)
                if end == 0:
                    continue
                found = committed.get(tp)
                if found is None or found.offset < end:
                    return False
                if DONE not in (found.metadata or "").split(";"):
                    return False
        return True

    # ---- metrics -----------------------------------------------------------------------------

    def _report(self, batch: Batch, started: float) -> None:
        errors, late, waiting = self.stage.counters()
        lag: dict[tuple[str, int], int | None] = {}
        for tp in self._owned:
            position = self.stage.position(tp)
            highwater = self.consumer.highwater(tp)
            lag[(tp.topic, tp.partition)] = (
                None if position is None or highwater is None else max(0, highwater - position)
            )
        self.metrics.batch_done(
            records=batch.records,
            replayed=batch.replayed,
            dead_letters=batch.dead_letters,
            flags=batch.flags,
            actions=batch.actions,
            late=late,
            seconds=time.perf_counter() - started if batch.processed else 0.0,
            lag=lag,
            buffered=waiting,
            detector_errors=errors,
            store_set_aside=self.store.set_aside if self.store is not None else 0,
        )
