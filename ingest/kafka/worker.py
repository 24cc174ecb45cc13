"""`railbird run`: a consumer-group member feeding Kafka's streams through the one pipeline.

One `KafkaWorker` runs one *stage* (`kafka.stages`): "tables" (table-scoped detectors, the
partitions shared by the group's members) or "site" (detectors whose state spans tables, every
partition with one member of `<group_id>-site`); `railbird run` runs both, in two processes. Only
the table stage stores events and dead-letters; the site stage stores its flags and actions.

Per cycle: poll -> decode -> merge the partitions in event time (`kafka.intake`) ->
`Pipeline.process` -> send flags, actions and dead letters; every `commit_interval_ms`: store ->
flush the sends -> commit offsets, in that order (`kafka.commits`). The store write runs in a
child process (`StoreProcess`) so the loop never stalls on a transaction nor shares its core
with one; a batch's offsets are committed only once its write is durable. A crash before a
commit replays what followed the previous one: at-least-once, and since every id is
deterministic and every write an upsert, exactly-once in effect (only `moderation.flags` may
see a flag twice).

State and rebalances. State routes by table (the partition key) in the table stage, so:
- a partition this worker gives up has its tables' state dropped (all state, once it owns
  nothing: the site stage's standby keeps none);
- a partition it takes over (or a restart) starts from checkpointed state: every
  `snapshot_interval_seconds` the stage writes its state to its state topic
  (`kafka.snapshots`), and the commits after it name that snapshot and the offsets it covers.
  The new owner restores it and *replays* only the records after it, outputs discarded (they
  were produced before that commit), so it resumes with the state `scan` would have however
  long ago it was built. With no snapshot yet, a window of event time is replayed instead:
  each commit's metadata also carries the offset from which `replay_window_seconds` precede
  it. The site stage's owner dying is such a takeover, of every partition at once.
- partitions kept through a rebalance keep their state and their place.
Co-partitioning relies on the range assignor (see `kafka.clients`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Hashable
from datetime import datetime

from kafka import TopicPartition as KafkaTopicPartition
from kafka.errors import KafkaError

from railbird.detectors.events import AnyEvent
from railbird.ingest.decode import Rejected
from railbird.ingest.duplicates import DuplicateIds
from railbird.ingest.kafka.client_types import (
    CommittedOffset,
    Consumer,
    Producer,
    TopicPartition,
)
from railbird.ingest.kafka.codec import raw_record
from railbird.ingest.kafka.commits import Checkpoints
from railbird.ingest.kafka.intake import Intake
from railbird.ingest.kafka.internals import has_joined
from railbird.ingest.kafka.merge import EventTimeMerge, Pending
from railbird.ingest.kafka.metrics import WorkerMetrics
from railbird.ingest.kafka.offences import Marks, ensure_offences_topic
from railbird.ingest.kafka.outputs import send_dead_letter, send_outputs
from railbird.ingest.kafka.progress import (
    PartitionProgress,
    ResumePlan,
    RoutingIndex,
    mark_spacing,
    parse_resume,
)
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.kafka.snapshots import SnapshotStore
from railbird.ingest.kafka.stages import StageName
from railbird.rules.actions import Action
from railbird.rules.escalation import Raised, place_of
from railbird.rules.flags import Flag
from railbird.rules.pipeline import Pipeline, medium_of
from railbird.rules.policy import Offence
from railbird.store.writer_process import StoreProcess

log = logging.getLogger(__name__)

GROUP_CHECK_SECONDS = 1.0  # how often an idle worker asks whether its whole group is done


class KafkaWorker:
    def __init__(
        self,
        settings: KafkaSettings,
        pipeline: Pipeline,
        consumer: Consumer,
        producer: Producer,
        store: StoreProcess | None,
        metrics: WorkerMetrics | None = None,
        stage: StageName = "tables",
    ) -> None:
        self.settings = settings
        self.pipeline = pipeline
        self.consumer = consumer
        self.producer = producer
        self.store = store
        self.metrics = metrics or WorkerMetrics()
        hold = (settings.site_merge_hold_ms if stage == "site" else settings.merge_hold_ms) / 1000
        self.merge = EventTimeMerge(settings.max_merge_wait_ms / 1000, hold=hold)
        self.intake = Intake(settings, consumer, self.merge)
        self._progress = self.intake.progress
        window = (
            settings.site_replay_window_seconds
            if stage == "site"
            else settings.replay_window_seconds
        )
        self.commits = Checkpoints(
            settings, consumer, producer, store, self.metrics, self._progress, window
        )
        self.commits.on_committed = self._committed
        self._routes = RoutingIndex()
        self.snapshots = (
            SnapshotStore(settings, producer, stage)
            if settings.snapshot_interval_seconds > 0
            else None
        )
        self._next_snapshot = time.monotonic() + settings.snapshot_interval_seconds
        # Both stages set aside the same second-content duplicates, so both see what `scan` sees.
        self._duplicates = DuplicateIds()
        self._clock: datetime | None = None  # newest event time processed
        self._last_record = time.monotonic()
        self._group_checked_at = -GROUP_CHECK_SECONDS
        self._group_idle = False
        # Only the table stage stores events and dead-letters; the site stage, which reads
        # the same records again, stores and produces its own flags and actions alone.
        self.stage = stage
        self._primary = stage == "tables"
        # What this stage tells the escalation stage (`kafka.offences`); a pipeline that
        # decides its own actions (no escalation stage) sends no offences.
        self.marks = Marks(
            settings, producer, stage, settings.site_merge_hold_ms / 1000, time.monotonic
        )
        self._escalated = not pipeline.decides

    # ---- the loop -------------------------------------------------------------------------

    def run(self, stop: threading.Event, exit_when_idle: float | None = None) -> None:
        if self.snapshots is not None:
            try:
                self.snapshots.ensure_topic()
            except KafkaError as exc:
                log.warning("no state topic (%s): restarts replay the window only", exc)
                self.snapshots = None
        if self._escalated:
            self._prepare_offences_topic()
        self.consumer.subscribe(list(self.settings.input_topics))
        intake, commits = self.intake, self.commits
        backlog = False
        while not stop.is_set():
            # With records already buffered and releasable, only look for more; don't wait.
            timeout = 0 if backlog else self.settings.poll_timeout_ms
            polled = self.consumer.poll(timeout_ms=timeout)
            reset = self._apply_rebalance()
            intake.buffer(polled, skip=reset)
            intake.pause_full()
            ready = self.merge.release(
                self._progress, intake.caught_up, limit=self.settings.max_poll_records
            )
            backlog = len(ready) >= self.settings.max_poll_records
            if ready:
                self._process(ready)
            elif polled:
                self._report(Counter(), Counter(), Counter(), 0, 0, 0.0)
            # A poll that found nothing: store and commit what is done now, not at the interval.
            idle = not polled and not ready
            self._maybe_snapshot()
            if commits.touched and (idle or commits.due()):
                commits.checkpoint(self._clock, idle=idle)
            elif commits.pending:
                commits.commit_durable(now=idle)
            if commits.stuck_for() * 1000 >= self.settings.session_timeout_ms:
                self._rejoin()
            if self._escalated:
                self.marks.maybe_send(self._progress, self.merge.head_time, intake.caught_up)
            self.metrics.maybe_log(self.settings.log_interval_seconds)
            if exit_when_idle is not None and self._idle_for() >= exit_when_idle:
                log.info("caught up and idle for %.1f s: exiting", exit_when_idle)
                break
        else:
            exit_when_idle = None  # stopped: the stream goes on, whoever resumes it says so
        self._maybe_snapshot(force=True)
        commits.checkpoint(self._clock, wait=True)
        if self._escalated and exit_when_idle is not None:
            self.marks.end(self._progress)  # the stream has ended: the ladders may finish

    def _prepare_offences_topic(self) -> None:
        """The escalation stage's input exists, and the marks know its partitions."""
        partitions = len(self.consumer.partitions_for_topic(self.settings.chat_topic) or ())
        try:
            ensure_offences_topic(self.settings, max(partitions, 1))
            found = self.producer.partitions_for(self.settings.offences_topic_name)
            self.marks.partitions = len(found or ())
        except KafkaError as exc:
            log.error("no offences topic (%s): no actions can be decided", exc)

    # ---- checkpointed state ---------------------------------------------------------------

    def _maybe_snapshot(self, force: bool = False) -> None:
        """Write this stage's state to the state topic when due (`kafka.snapshots`); the next
        checkpoint commits offsets that name the snapshot (the producer is flushed first)."""
        store = self.snapshots
        now = time.monotonic()
        if store is None or not self._progress or (not force and now < self._next_snapshot):
            return
        self._next_snapshot = now + self.settings.snapshot_interval_seconds
        started = time.perf_counter()
        groups: dict[str, tuple[list[TopicPartition], Callable[[Hashable], bool] | None]] = {}
        if self.stage == "site":  # one owner, state across tables: one snapshot of it all
            groups["site"] = (list(self._progress), None)
        else:
            for number in sorted({tp.partition for tp in self._progress}):
                keys = self._routes.on_partition(number)
                groups[f"tables:{number}"] = (
                    [tp for tp in self._progress if tp.partition == number],
                    keys.__contains__,
                )
        for key, (tps, routes) in groups.items():
            offsets = {
                tp: processed
                for tp in tps
                if (processed := self._progress[tp].processed) is not None
                and processed >= self._progress[tp].replay_until  # not mid-replay
            }
            if len(offsets) < len(tps):
                continue
            try:
                sid = store.save(key, offsets, self.pipeline.snapshot(routes))
            except Exception as exc:  # a state that cannot be written, a broker away: next time
                log.warning("state snapshot %s not written (%s: %s)", key, type(exc).__name__, exc)
                continue
            for tp, offset in offsets.items():
                self._progress[tp].snapshot = (sid, offset)
            self.commits.touched.update(offsets)
        log.info(
            "state snapshot of %d partition group(s) in %.2f s",
            len(groups),
            time.perf_counter() - started,
        )

    def _restore(self, plans: dict[TopicPartition, ResumePlan]) -> set[str]:
        """Restore the snapshots the commits name; returns the ids restored. A key whose
        partitions name different snapshots (a commit failed for some) is not restored: the
        window replay is the safe way back for it."""
        named: dict[str, set[str]] = {}
        for plan in plans.values():
            if plan.snapshot_id:
                named.setdefault(plan.snapshot_id.partition("@")[0], set()).add(plan.snapshot_id)
        wanted = {next(iter(sids)) for sids in named.values() if len(sids) == 1}
        if self.snapshots is None or not wanted:
            return set()
        restored: set[str] = set()
        for sid, snapshot in sorted(self.snapshots.load(wanted).items()):
            try:
                routes = self.pipeline.restore(snapshot.state)
            except Exception as exc:  # unreadable, or another version's: the window replay
                log.warning("snapshot %s not restored (%s: %s)", sid, type(exc).__name__, exc)
                continue
            key = sid.partition("@")[0]
            if key.startswith("tables:"):  # its tables are routed here now, and dropped with it
                self._routes.adopt(routes, int(key.removeprefix("tables:")))
            restored.add(sid)
            self.snapshots.committed(sid)  # the commits name it: older ones can go
            log.info("restored state snapshot %s (%d bytes)", sid, len(snapshot.state))
        return restored

    def _committed(self, offsets: dict[TopicPartition, CommittedOffset]) -> None:
        """After a successful commit: snapshots older than the ones it names can go."""
        if self.snapshots is None:
            return
        for sid in {parse_resume(om.metadata).snapshot_id for om in offsets.values()}:
            if sid is not None:
                self.snapshots.committed(sid)

    def _idle_for(self) -> float:
        """Seconds this worker has had nothing left to do (for `--exit-when-idle`)."""
        intake = self.intake
        busy = (
            (not self._progress and not has_joined(self.consumer))
            or bool(self.commits.pending)
            or self.merge.total() > 0
            or not all(intake.caught_up(tp) and intake.lag(tp) == 0 for tp in self._progress)
        )
        if not busy and not self._group_caught_up():
            busy = True
        if busy:
            self._last_record = time.monotonic()
        return time.monotonic() - self._last_record

    def _group_caught_up(self) -> bool:
        """Whether the whole group is done: every input partition's committed offset (the
        group's, whoever owns it) has reached its end. A standby owning nothing is idle only
        then, so that it never exits while an owner that may die still has work: if it dies,
        its commits stop, the lag stays, and the standby is there to take over. Asked of the
        broker at most every `GROUP_CHECK_SECONDS`."""
        now = time.monotonic()
        if now - self._group_checked_at < GROUP_CHECK_SECONDS:
            return self._group_idle
        self._group_checked_at = now
        consumer = self.consumer
        try:
            tps = [
                KafkaTopicPartition(topic, p)  # kafka-python checks for its own type
                for topic in self.settings.input_topics
                for p in sorted(consumer.partitions_for_topic(topic) or ())
            ]
            ends = consumer.end_offsets(tps)
            self._group_idle = all(_done(consumer, tp, ends.get(tp, 0)) for tp in tps)
        except Exception as exc:  # the broker away: not known to be idle
            log.info("could not read the group's offsets (%s): not idle", exc)
            self._group_idle = False
        return self._group_idle

    # ---- rebalances -----------------------------------------------------------------------

    def _apply_rebalance(self) -> set[TopicPartition]:
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
            # Store what was processed; the commit may no longer be ours.
            self.commits.checkpoint(self._clock, wait=True)
            self.marks.forget(lost)
        self.merge.drop(lost)
        for tp in lost:
            del self._progress[tp]
        lost_numbers = {tp.partition for tp in lost} - {tp.partition for tp in assigned}
        if lost_numbers:
            self._drop_state(lost_numbers)
        if not assigned:  # owns nothing now (the site stage's standby): forget everything
            self._routes = RoutingIndex()
            for state in self.pipeline.states.values():
                state.drop_where(lambda _key: True)
        self._start_fresh(sorted(fresh))
        log.info(
            "rebalance: %d partitions assigned (%d new), dropped state of partitions %s",
            len(assigned),
            len(fresh),
            sorted(lost_numbers),
        )
        self._report(Counter(), Counter(), Counter(), 0, 0, 0.0)  # lag gauges follow ownership
        return fresh

    def _start_fresh(self, tps: list[TopicPartition]) -> None:
        if not tps:
            return
        if self._escalated:
            self.marks.hold_sources(tps)
        committed = {tp: self.consumer.committed(tp, metadata=True) for tp in tps}
        missing = [tp for tp, om in committed.items() if om is None]
        beginning = self.consumer.beginning_offsets(missing) if missing else {}
        plans = {
            tp: parse_resume(om.metadata if om is not None else "") for tp, om in committed.items()
        }
        restored = self._restore(plans)
        for tp in tps:
            self.merge.drop([tp])
            om = committed[tp]
            start = beginning[tp] if om is None else om.offset
            plan = plans[tp]
            replay = plan.replay
            progress = self._progress[tp] = PartitionProgress(
                processed=start, mark_every=mark_spacing(self.commits.window)
            )
            if plan.snapshot_id in restored and plan.snapshot_from is not None:
                # The snapshot holds the state up to its offset: replay only what follows.
                progress.snapshot = (plan.snapshot_id, plan.snapshot_from)
                replay = plan.snapshot_from
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

    def _rejoin(self) -> None:
        """Leave and re-join the group after commits failed for a whole session timeout.

        kafka-python 3.0.12 can leave a member in "rebalancing" without ever sending JoinGroup
        (seen with two workers under load): it goes on processing partitions the group gave to
        someone else and can never commit. Re-subscribing forces a fresh join; the assignment
        check after the next poll then drops this worker's state and rebuilds what it gets.
        """
        log.error(
            "commits failing for %.0f s: leaving and re-joining the group",
            self.commits.stuck_for(),
        )
        owned = set(self._progress)
        self.merge.drop(owned)
        self._progress.clear()
        self.commits.forget()
        self._drop_state({tp.partition for tp in owned})
        self.consumer.unsubscribe()
        self.consumer.subscribe(list(self.settings.input_topics))

    # ---- one batch --------------------------------------------------------------------------

    def _process(self, ready: list[Pending]) -> None:
        started = time.perf_counter()
        commits = self.commits
        events: list[tuple[str, bytes]] = []
        flags: list[Flag] = []
        actions: list[Action] = []
        offences: list[Raised] = []
        counts: Counter[str] = Counter()
        replayed: Counter[str] = Counter()
        dead: Counter[str] = Counter()
        touched = commits.touched
        process, note_route = self.pipeline.process, self._routes.note
        duplicates = self._duplicates.conflict
        progress_of = self._progress
        clock = self._clock
        for entry in ready:
            tp = entry.tp
            progress = progress_of[tp]
            warm = entry.offset < progress.replay_until
            item = entry.item
            if not isinstance(item, Rejected) and (why := duplicates(item, tp.partition)):
                item = Rejected(raw_record(tp.topic, tp.partition, entry.offset, entry.value), why)
            if isinstance(item, Rejected):
                if not warm and self._primary:
                    send_dead_letter(self.settings, self.producer, self.store, entry, item)
                    dead[tp.topic] += 1
            else:
                outcome = process(item)
                note_route(item, tp.partition)
                when = item.time
                if clock is None or when > clock:
                    clock = when
                progress.mark(when, entry.offset)
                if warm:
                    replayed[tp.topic] += 1
                else:
                    counts[tp.topic] += 1
                    if self._primary:
                        events.append((item.type, entry.value))
                    if outcome.flags:
                        flags.extend(outcome.flags)
                        if self._escalated:
                            offences.extend(_offences(item, outcome.flags))
                    if outcome.actions:
                        actions.extend(outcome.actions)
            progress.processed = entry.offset + 1
            if not warm:  # a replay's commit would move the committed offset back
                touched.add(tp)
        self._clock = clock
        self.marks.processed(clock)
        # Sent now (latency); flushed, like the store write, before the next offset commit.
        send_outputs(self.settings, self.producer, flags, actions, offences)
        if offences:
            self.marks.unflushed = True
        commits.add(events, flags, actions)
        if commits.unstored >= self.settings.store_batch_events or commits.due():
            commits.checkpoint(self._clock)
        self._report(counts, replayed, dead, len(flags), len(actions), started)

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
            lag=self.intake.lags(),
            buffered=self.merge.total(),
            detector_errors=self.pipeline.metrics.detector_errors,
            store_set_aside=self.store.set_aside if self.store is not None else 0,
        )


def _offences(event: AnyEvent, flags: tuple[Flag, ...]) -> list[Raised]:
    """Each flag's offence per player, with the event that raised it (`rules.escalation`)."""
    medium = medium_of(event)
    seen: Counter[str] = Counter()
    raised: list[Raised] = []
    for flag in flags:
        detector = flag.finding.detector
        place = place_of(event.type, event.event_id, detector, seen[detector])
        seen[detector] += 1
        raised.extend(
            Raised(Offence.of(flag, player, medium), event.time, place)
            for player in flag.player_ids
        )
    return raised


def _done(consumer: Consumer, tp: TopicPartition, end: int) -> bool:
    """The group has committed everything `tp` holds (an empty partition is done, and so is
    one whose records retention removed before anyone read them)."""
    if end == 0:
        return True
    committed = consumer.committed(tp, metadata=True)
    if committed is None:
        return consumer.beginning_offsets([tp]).get(tp, 0) >= end
    return committed.offset >= end
