"""The table stage: the input topics, keyed by table, read where they lie.

One task per partition number: that partition of the three input topics (a table's chat,
events and hands share a key, hence a partition) and of `<group>-hands` (private messages
joined to the table of their recipient's hand, `kafka.topology`). Per task:

decode -> duplicate ids set aside -> the three topics merged in event time (`kafka.merge`) ->
- the *table* pipeline (detectors keyed by table) at once: the lowest latency;
- the store (events, dead letters) and the dead-letter topics;
- the router: each event's re-keyed copies to `<group>-keyed` (`Topology.routes`), with its
  sort key, and this source's marks after them;
- the *hand* lane: the task's own table events, hands and table chat, merged in the stream's
  order with the private messages `<group>-hands` brings (`kafka.lane_merge`), for the
  detectors keyed by hand; they wait for the players tasks' marks, so their flags come a
  join later than the table pipeline's.
Flags go to `moderation.flags` and the store, their offences to the escalation stage.

A replayed record (before the committed offset, after a restart or takeover) rebuilds state
only: it is not stored, routed, or flagged again. Its hand-lane copy is processed again too,
and its outputs kept if the lane had not released it before the commit (`kafka.resume`).
"""

from __future__ import annotations

import base64
import logging
from collections import Counter, deque
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

from railbird.detectors.events import AnyEvent, EventError, parse_event, parse_event_as
from railbird.ingest.decode import Rejected
from railbird.ingest.duplicates import DuplicateIds
from railbird.ingest.kafka.client_types import ConsumedRecord, Producer, TopicPartition
from railbird.ingest.kafka.codec import (
    END,
    LaneRecordError,
    SortKey,
    lane_headers,
    micros,
    raw_record,
    read_lane_record,
    read_seq,
)
from railbird.ingest.kafka.lane_merge import Held, LaneMerge
from railbird.ingest.kafka.marks import MarkSender
from railbird.ingest.kafka.merge import EventTimeMerge, Pending, pending
from railbird.ingest.kafka.outputs import offences_of, send_dead_letter, send_outputs, send_routed
from railbird.ingest.kafka.runtime import Batch, Feed, Resume
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.kafka.topology import HAND, KeyPartitionMemo, Topology, table_source
from railbird.ingest.sink import Sink
from railbird.rules.escalation import Raised
from railbird.rules.flags import Flag
from railbird.rules.pipeline import Pipeline

log = logging.getLogger(__name__)

_TYPE_OF_RANK = ("chat", "table", "hand")  # in `KafkaSettings.input_topics` order
SELF = "self"


@dataclass
class _Input:
    """What a task knows of one of its input partitions."""

    processed: int  # next offset to process
    live_from: int  # below this, records are replayed
    last_time: datetime | None = None  # event time of the last record processed


class _Task:
    def __init__(
        self,
        stage: TableStage,
        number: int,
        tps: Sequence[TopicPartition],
        resume: Resume,
    ) -> None:
        settings, topology = stage.settings, stage.topology
        self.number = number
        self.source = table_source(number)
        self.inputs = [tp for tp in tps if tp.topic in stage.ranks]
        self.hands_tp = next((tp for tp in tps if tp.topic == settings.hands_topic), None)
        self.merge = EventTimeMerge(
            settings.max_merge_wait_ms / 1000, hold=settings.merge_hold_ms / 1000
        )
        self.progress = {tp: _Input(resume.start[tp], resume.live_from[tp]) for tp in self.inputs}
        self.table = Pipeline(topology.table, decide=False)
        self.hand = Pipeline(topology.hand, decide=False) if topology.hand else None
        self.lane = LaneMerge(topology.lane_sources(HAND)) if topology.hand else None
        self.lane_live_from: SortKey | None = resume.lanes.get(HAND)
        self.hands_consumed = resume.start.get(self.hands_tp, 0) if self.hands_tp else 0
        self.hands_live_from = resume.live_from.get(self.hands_tp, 0) if self.hands_tp else 0
        self.duplicates = DuplicateIds()
        # What this source has told the stages downstream, kept with the state: a task taken
        # over at the end of the stream repeats nothing (a new record would undo "done").
        self.ended = False  # this source's END sent downstream
        self.complete = False  # ... and the hand lane drained: END sent to the ladders
        if resume.state is not None:
            self._restore(resume.state)

    @property
    def replaying(self) -> bool:
        return any(p.processed < p.live_from for p in self.progress.values())

    def snapshot(self) -> bytes:
        parts: dict[str, Any] = {
            "table": _b64(self.table.snapshot()),
            "said": [self.ended, self.complete],
        }
        if self.hand is not None and self.lane is not None:
            parts["hand"] = _b64(self.hand.snapshot())
            parts["lane"] = self.lane.state()
        return orjson.dumps(parts)

    def _restore(self, data: bytes) -> None:
        parts = orjson.loads(data)
        self.table.restore(base64.b64decode(parts["table"]))
        self.ended, self.complete = (bool(x) for x in parts.get("said", (False, False)))
        if self.hand is not None and self.lane is not None and "hand" in parts:
            self.hand.restore(base64.b64decode(parts["hand"]))
            self.lane.load(parts["lane"])


class TableStage:
    name = "tables"

    def __init__(
        self,
        settings: KafkaSettings,
        topology: Topology,
        producer: Producer,
        store: Sink[tuple[str, bytes]] | None,
        offences_partitions: int,
    ) -> None:
        self.settings = settings
        self.topology = topology
        self.producer = producer
        self.store = store
        self.ranks = {topic: rank for rank, topic in enumerate(settings.input_topics)}
        interval = settings.mark_interval_ms / 1000
        self.keyed_marks = (
            MarkSender(producer, settings.keyed_topic, topology.keyed, interval)
            if topology.keyed_lanes
            else None
        )
        self.offence_marks = MarkSender(
            producer, settings.offences_topic_name, offences_partitions, interval, offences=True
        )
        self.tasks: dict[int, _Task] = {}
        self._by_tp: dict[TopicPartition, _Task] = {}
        self._feed: Feed | None = None
        # (monotonic time, newest event time processed, µs): "the clock as it was then".
        self._clock: deque[tuple[float, int]] = deque()
        self._ending = False
        self._backlog = False
        self._late_lost = 0  # late records of tasks dropped since
        self._partitions = KeyPartitionMemo()

    # ---- the runtime's calls ---------------------------------------------------------------

    def topics(self) -> list[str]:
        topics = list(self.settings.input_topics)
        if self.topology.hand:
            topics.append(self.settings.hands_topic)
        return topics

    def attach(self, feed: Feed) -> None:
        self._feed = feed

    def open(self, task: int, tps: list[TopicPartition], resume: Resume) -> None:
        opened = _Task(self, task, tps, resume)
        self.tasks[task] = opened
        for tp in tps:
            self._by_tp[tp] = opened
        now = opened.table.clock.now
        if resume.state is not None and (not self._clock or self._clock[-1][1] < micros(now)):
            self._clock.append((0.0, micros(now)))  # a restored task's clock: a floor to mark by
        # No HOLD: what its previous owner promised still holds (everything before its marks
        # was sent; what this owner sends again is dropped downstream as seen).

    def drop(self, tasks: Collection[int]) -> None:
        for number in tasks:
            task = self.tasks.pop(number, None)
            if task is None:
                continue
            for tp in [*task.inputs, *([task.hands_tp] if task.hands_tp else [])]:
                self._by_tp.pop(tp, None)
            if task.lane is not None:
                self._late_lost += task.lane.late
            if self.keyed_marks is not None:
                self.keyed_marks.forget([task.source])
            self.offence_marks.forget([task.source])

    def snapshot(self, task: int) -> tuple[bytes, dict[TopicPartition, int]] | None:
        found = self.tasks.get(task)
        if found is None or found.replaying:
            return None
        covered = {tp: p.processed for tp, p in found.progress.items()}
        if found.hands_tp is not None:
            covered[found.hands_tp] = found.hands_consumed
        return found.snapshot(), covered

    def commit_note(self, task: int) -> tuple[dict[TopicPartition, int], dict[str, SortKey], bool]:
        found = self.tasks[task]
        positions = {tp: max(p.processed, p.live_from) for tp, p in found.progress.items()}
        lanes: dict[str, SortKey] = {}
        if found.hands_tp is not None:
            positions[found.hands_tp] = max(found.hands_consumed, found.hands_live_from)
        if found.lane is not None:
            progress = [k for k in (found.lane.progress, found.lane_live_from) if k is not None]
            if progress:
                lanes[HAND] = max(progress)
        return positions, lanes, found.complete

    def buffered(self, tp: TopicPartition) -> int:
        task = self._by_tp.get(tp)
        return task.merge.buffered(tp) if task is not None and tp in task.progress else 0

    def position(self, tp: TopicPartition) -> int | None:
        task = self._by_tp.get(tp)
        if task is None:
            return None
        if tp == task.hands_tp:
            return task.hands_consumed
        return task.progress[tp].processed

    def busy(self) -> bool:
        return self._backlog

    def end_input(self) -> None:
        self._ending = True

    def finished(self) -> bool:
        return all(task.complete for task in self.tasks.values())

    def counters(self) -> tuple[Counter[str], int, int]:
        errors: Counter[str] = Counter()
        late, waiting = self._late_lost, 0
        for task in self.tasks.values():
            errors.update(task.table.metrics.detector_errors)
            waiting += task.merge.total()
            if task.hand is not None and task.lane is not None:
                errors.update(task.hand.metrics.detector_errors)
                late += task.lane.late
                waiting += task.lane.waiting
        return errors, late, waiting

    # ---- one batch ---------------------------------------------------------------------------

    def process(self, polled: Mapping[TopicPartition, Sequence[ConsumedRecord]]) -> Batch:
        batch = Batch()
        for tp, records in polled.items():
            task = self._by_tp.get(tp)
            if task is None:
                continue
            if tp == task.hands_tp:
                self._take_joined(task, tp, records, batch)
            else:
                self._buffer(task, tp, records)
        out = _Out()
        limit = self.settings.max_poll_records
        self._backlog = False
        assert self._feed is not None
        caught_up = self._feed.caught_up
        for task in self.tasks.values():
            ready = task.merge.release(task.inputs, caught_up, limit=limit)
            self._backlog |= len(ready) >= limit
            if ready:
                self._process(task, ready, out, batch)
        self._note_clock(out.clock)
        for task in self.tasks.values():
            mark = self._mark(task)
            if task.lane is not None and task.hand is not None:
                if mark is not None:
                    task.lane.mark(SELF, mark)
                self._process_hand(task, out, batch)
        self._send(out, batch)
        self._send_marks()
        return batch

    def _buffer(self, task: _Task, tp: TopicPartition, records: Sequence[ConsumedRecord]) -> None:
        rank = self.ranks[tp.topic]
        expected = _TYPE_OF_RANK[rank]
        add, arrived = task.merge.add, task.merge.now()
        for record in records:
            value = record.value
            add(
                pending(
                    tp,
                    record.offset,
                    _decode(tp, record, expected),
                    record.key,
                    seq=read_seq(record.headers) if record.headers else None,
                    topic_rank=rank,
                    value=value if value is not None else b"",
                    arrived=arrived,
                )
            )

    def _take_joined(
        self, task: _Task, tp: TopicPartition, records: Sequence[ConsumedRecord], batch: Batch
    ) -> None:
        """Private messages joined to this task's tables, and the players tasks' marks."""
        lane = task.lane
        for record in records:
            if lane is not None:
                try:
                    found = read_lane_record(record.headers, record.value, record.key)
                except LaneRecordError as exc:
                    log.warning("%s offset %d skipped: %s", tp, record.offset, exc)
                    batch.dead_letters[tp.topic] += 1
                    found = None
                if isinstance(found, dict):
                    for source, until in found.items():
                        lane.mark(source, until)
                elif found is not None:
                    lane.add(found.source, found.key, Held(found.role, found.value))
                    if record.offset < task.hands_live_from:
                        batch.replayed[tp.topic] += 1
                    else:
                        batch.records[tp.topic] += 1
            task.hands_consumed = record.offset + 1

    def _process(self, task: _Task, ready: list[Pending], out: _Out, batch: Batch) -> None:
        topology, settings = self.topology, self.settings
        table = task.table
        conflict = task.duplicates.conflict
        lane = task.lane if task.hand is not None else None
        for entry in ready:
            tp = entry.tp
            progress = task.progress[tp]
            warm = entry.offset < progress.live_from
            item = entry.item
            if not isinstance(item, Rejected) and (why := conflict(item, tp.partition)):
                item = Rejected(raw_record(tp.topic, tp.partition, entry.offset, entry.value), why)
            if isinstance(item, Rejected):
                if not warm:
                    send_dead_letter(settings, self.producer, self.store, entry, item)
                    batch.dead_letters[tp.topic] += 1
                progress.processed = entry.offset + 1
                continue
            outcome = table.process(item)
            when = item.time
            progress.last_time = when
            if out.clock is None or when > out.clock:
                out.clock = when
            key: SortKey | None = None
            if lane is not None and topology.reaches_hand(item):
                key = _sort_key(entry, when)
                lane.add(SELF, key, Held("", entry.value, item))
            if warm:
                batch.replayed[tp.topic] += 1
            else:
                batch.records[tp.topic] += 1
                out.events.append((item.type, entry.value))
                if outcome.flags:
                    out.flags.extend(outcome.flags)
                    out.offences.extend(offences_of(item, outcome.flags))
                routes = topology.routes(item)
                if routes:
                    key = key or _sort_key(entry, when)
                    self._route(task, entry, key, routes)
            progress.processed = entry.offset + 1

    def _route(self, task: _Task, entry: Pending, key: SortKey, routes: Sequence[Any]) -> None:
        topic, partitions = self.settings.keyed_topic, self.topology.keyed
        source = task.source
        choose = self._partitions.get
        for routed in routes:
            copy_key = (*key[:5], routed.copy)
            value = routed.value if routed.value is not None else entry.value
            headers = lane_headers(routed.lane, source, copy_key, routed.role)
            partition = choose(routed.key)
            if partition is None:
                partition = self._partitions.choose(routed.key, partitions)
            send_routed(self.producer, topic, partition, routed.key, value, headers)

    def _process_hand(self, task: _Task, out: _Out, batch: Batch) -> None:
        lane, hand = task.lane, task.hand
        assert lane is not None and hand is not None
        live_from = task.lane_live_from
        for key, source, held in lane.release(limit=self.settings.max_poll_records):
            event = held.decoded
            if event is None:
                try:
                    event = parse_event(held.value, where=f"{source} {key}")
                except EventError as exc:
                    log.warning("hand lane record from %s skipped: %s", source, exc.reason)
                    batch.dead_letters[self.settings.hands_topic] += 1
                    continue
            outcome = hand.process(event)
            if outcome.flags and (live_from is None or key > live_from):
                out.flags.extend(outcome.flags)
                out.offences.extend(offences_of(event, outcome.flags))

    def _send(self, out: _Out, batch: Batch) -> None:
        if out.flags or out.offences:
            send_outputs(self.settings, self.producer, out.flags, (), out.offences)
        if self.store is not None and (out.events or out.flags):
            self.store.add(out.events, out.flags, [])
        batch.flags += len(out.flags)

    # ---- marks -------------------------------------------------------------------------------

    def _note_clock(self, clock: datetime | None) -> None:
        if clock is None:
            return
        assert self._feed is not None
        value = micros(clock)
        samples = self._clock
        if samples and samples[-1][1] >= value:
            return
        now = self._feed.polled_at
        samples.append((now, value))
        hold = self.settings.mark_hold_ms / 1000
        while len(samples) > 1 and samples[1][0] <= now - hold:
            samples.popleft()

    def _clock_ago(self) -> int | None:
        """The newest event time processed as it was `mark_hold_ms` before the last poll."""
        assert self._feed is not None
        cutoff = self._feed.polled_at - self.settings.mark_hold_ms / 1000
        found = None
        for when, clock in self._clock:
            if when > cutoff:
                break
            found = clock
        return found

    def _mark(self, task: _Task) -> int | None:
        """How far this task's input has got (µs): nothing more before it will be routed.
        None while replaying or not yet known."""
        if task.ended:
            return END
        assert self._feed is not None
        bounds: list[int] = []
        for tp, progress in task.progress.items():
            if progress.processed < progress.live_from:
                return None
            head = task.merge.head_time(tp)
            if head is not None:
                bounds.append(micros(head))
            elif self._feed.caught_up(tp):
                clock = self._clock_ago()
                if clock is None:
                    return None
                bounds.append(clock)
            elif progress.last_time is not None:
                bounds.append(micros(progress.last_time))
            else:
                return None
        return min(bounds) if bounds else None

    def _send_marks(self) -> None:
        assert self._feed is not None
        routed: dict[str, int] = {}
        ladders: dict[str, int] = {}
        for task in self.tasks.values():
            if self._ending and not task.ended and not task.replaying and self._drained(task):
                task.ended = True
                if self.keyed_marks is not None:
                    self.keyed_marks.end([task.source])
                if task.lane is not None:
                    task.lane.mark(SELF, END)
                    if task.hand is not None:
                        self._drain_hand(task)
            mark = self._mark(task)
            if mark is None:
                continue
            routed[task.source] = mark
            lane = task.lane
            ladder = mark if lane is None else min(mark, lane.settled)
            if task.ended and (lane is None or lane.complete):
                if not task.complete:
                    task.complete = True
                    self.offence_marks.end([task.source])
                continue
            ladders[task.source] = ladder
        if self.keyed_marks is not None and routed:
            self.keyed_marks.send({s: m for s, m in routed.items() if m != END})
        if ladders:
            self.offence_marks.send(ladders)

    def _drained(self, task: _Task) -> bool:
        assert self._feed is not None
        return task.merge.total() == 0 and all(self._feed.caught_up(tp) for tp in task.inputs)

    def _drain_hand(self, task: _Task) -> None:
        out = _Out()
        batch = Batch()
        self._process_hand(task, out, batch)
        self._send(out, batch)


class _Out:
    """What one batch sends and stores."""

    __slots__ = ("clock", "events", "flags", "offences")

    def __init__(self) -> None:
        self.events: list[tuple[str, bytes]] = []
        self.flags: list[Flag] = []
        self.offences: list[Raised] = []
        self.clock: datetime | None = None


def _sort_key(entry: Pending, when: datetime) -> SortKey:
    _time, seq, rank, offset = entry.sort_key
    return (micros(when), seq, rank, entry.tp.partition, offset, 0)


def _decode(tp: TopicPartition, record: ConsumedRecord, expected: str) -> AnyEvent | Rejected:
    # The position string and raw record are only built for a rejection: the common case
    # pays for pydantic's validation alone.
    value = record.value
    try:
        if value is None:
            raise EventError("", "empty record (no value)")
        return parse_event_as(value, expected)
    except EventError as exc:
        return Rejected(raw_record(tp.topic, tp.partition, record.offset, value), exc.reason)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
