"""The keyed stage: `<group>-keyed`, the events re-keyed by tournament, text and player.

One task per partition of `<group>-keyed`, whose members share the partitions (range assignor):
a site with many tournaments spreads them over as many workers as it runs. A task has up to
three lanes (`kafka.topology`), each ordering its records in the stream's order from the marks
of the sources that feed it (`kafka.lane_merge`):
- *tournament*: the detectors keyed by tournament (sit-outs, bounty collusion);
- *text*: the detectors keyed by text (bot waves away from the tables);
- *players*: the detectors keyed by player (each player's chat from every table and channel),
  and the player view (`kafka.player_view`): a message naming no tournament goes on to its
  sender's tournament (the tournament lane, through `<group>-keyed` again), a private message
  to the table of its recipient's hand (`<group>-hands`, read by the table stage). These
  forwards keep their event's sort key, so each lands in the stream's order; this task sends
  their marks as source `players:<n>`.
Flags go to `moderation.flags` and the store, their offences (source `keyed:<n>`) to the
escalation stage. Records replayed after a restart rebuild state only.
"""

from __future__ import annotations

import base64
import logging
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import orjson

from railbird.detectors.events import AnyEvent, ChatEvent, EventError, parse_event
from railbird.ingest.kafka.client_types import ConsumedRecord, Producer, TopicPartition
from railbird.ingest.kafka.codec import (
    LaneRecordError,
    SortKey,
    from_micros,
    lane_headers,
    read_lane_record,
)
from railbird.ingest.kafka.lane_merge import Held, LaneMerge, Released
from railbird.ingest.kafka.marks import MarkSender
from railbird.ingest.kafka.outputs import offences_of, send_outputs, send_routed
from railbird.ingest.kafka.player_view import PlayerView
from railbird.ingest.kafka.runtime import Batch, Feed, Resume
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.kafka.topology import (
    DEALT,
    HAND,
    JOINED,
    PLAYERS,
    RECIPIENT,
    SENDER,
    TEXT,
    TOURNAMENT,
    Topology,
    keyed_source,
    partition_for,
    players_source,
)
from railbird.ingest.sink import Sink
from railbird.rules.escalation import Raised
from railbird.rules.flags import Flag
from railbird.rules.pipeline import Pipeline

log = logging.getLogger(__name__)


class _Task:
    def __init__(self, stage: KeyedStage, number: int, tp: TopicPartition, resume: Resume) -> None:
        topology = stage.topology
        self.number = number
        self.tp = tp
        self.players_source = players_source(number)
        self.keyed_source = keyed_source(number)
        self.consumed = resume.start[tp]
        self.live_from = resume.live_from[tp]
        self.lanes = {lane: LaneMerge(topology.lane_sources(lane)) for lane in topology.keyed_lanes}
        self.live_lanes = dict(resume.lanes)
        self.pipelines = {
            lane: Pipeline(detectors, decide=False)
            for lane, detectors in (
                (TOURNAMENT, topology.tournament),
                (TEXT, topology.text),
                (PLAYERS, topology.player),
            )
            if detectors
        }
        self.view = PlayerView(stage.hand_ttl) if PLAYERS in self.lanes else None
        # What this task has told the stages downstream, kept with the state (see table_stage).
        self.players_ended = False
        self.complete = False
        if resume.state is not None:
            self._restore(resume.state)

    def warm(self, lane: str, key: SortKey) -> bool:
        """Whether the lane released `key` before the commit this task resumed from."""
        committed = self.live_lanes.get(lane)
        return committed is not None and key <= committed

    def snapshot(self) -> bytes:
        return orjson.dumps(
            {
                "lanes": {name: lane.state() for name, lane in self.lanes.items()},
                "pipelines": {
                    name: base64.b64encode(p.snapshot()).decode()
                    for name, p in self.pipelines.items()
                },
                "view": None if self.view is None else self.view.state(),
                "said": [self.players_ended, self.complete],
            }
        )

    def _restore(self, data: bytes) -> None:
        saved = orjson.loads(data)
        for name, lane in self.lanes.items():
            if name in saved["lanes"]:
                lane.load(saved["lanes"][name])
        for name, pipeline in self.pipelines.items():
            if name in saved["pipelines"]:
                pipeline.restore(base64.b64decode(saved["pipelines"][name]))
        if self.view is not None and saved.get("view") is not None:
            self.view.load(saved["view"])
        self.players_ended, self.complete = (bool(x) for x in saved.get("said", (False, False)))


class KeyedStage:
    name = "keyed"

    def __init__(
        self,
        settings: KafkaSettings,
        topology: Topology,
        producer: Producer,
        store: Sink[AnyEvent] | None,
        offences_partitions: int,
    ) -> None:
        self.settings = settings
        self.topology = topology
        self.producer = producer
        self.store = store
        self.hand_ttl = _hand_ttl(topology)
        interval = settings.mark_interval_ms / 1000
        # The players tasks' forwards: to the table stage, and to the tournament lane.
        self.hand_marks = (
            MarkSender(producer, settings.hands_topic, topology.inputs, interval)
            if topology.hand
            else None
        )
        self.tournament_marks = (
            MarkSender(producer, settings.keyed_topic, topology.keyed, interval)
            if topology.tournament
            else None
        )
        self.offence_marks = MarkSender(
            producer, settings.offences_topic_name, offences_partitions, interval, offences=True
        )
        self.tasks: dict[int, _Task] = {}
        self._feed: Feed | None = None
        self._backlog = False
        self._late_lost = 0

    # ---- the runtime's calls ---------------------------------------------------------------

    def topics(self) -> list[str]:
        return [self.settings.keyed_topic]

    def attach(self, feed: Feed) -> None:
        self._feed = feed

    def open(self, task: int, tps: list[TopicPartition], resume: Resume) -> None:
        (tp,) = tps
        self.tasks[task] = _Task(self, task, tp, resume)  # no HOLD: see TableStage.open

    def drop(self, tasks: Collection[int]) -> None:
        for number in tasks:
            task = self.tasks.pop(number, None)
            if task is None:
                continue
            self._late_lost += sum(lane.late for lane in task.lanes.values())
            for sender in self._players_marks():
                sender.forget([task.players_source])
            self.offence_marks.forget([task.keyed_source])

    def snapshot(self, task: int) -> tuple[bytes, dict[TopicPartition, int]] | None:
        found = self.tasks.get(task)
        if found is None or found.consumed < found.live_from:
            return None
        return found.snapshot(), {found.tp: found.consumed}

    def commit_note(self, task: int) -> tuple[dict[TopicPartition, int], dict[str, SortKey], bool]:
        found = self.tasks[task]
        lanes: dict[str, SortKey] = {}
        for name, lane in found.lanes.items():
            known = [k for k in (lane.progress, found.live_lanes.get(name)) if k is not None]
            if known:
                lanes[name] = max(known)
        return {found.tp: max(found.consumed, found.live_from)}, lanes, found.complete

    def buffered(self, tp: TopicPartition) -> int:
        return 0  # a lane must hear every record to see its marks: never paused

    def position(self, tp: TopicPartition) -> int | None:
        task = self.tasks.get(tp.partition)
        return None if task is None else task.consumed

    def busy(self) -> bool:
        return self._backlog

    def end_input(self) -> None:
        pass  # its sources say when they end

    def finished(self) -> bool:
        return all(task.complete for task in self.tasks.values())

    def counters(self) -> tuple[Counter[str], int, int]:
        errors: Counter[str] = Counter()
        late, waiting = self._late_lost, 0
        for task in self.tasks.values():
            for pipeline in task.pipelines.values():
                errors.update(pipeline.metrics.detector_errors)
            for lane in task.lanes.values():
                late += lane.late
                waiting += lane.waiting
        return errors, late, waiting

    # ---- one batch ---------------------------------------------------------------------------

    def process(self, polled: Mapping[TopicPartition, Sequence[ConsumedRecord]]) -> Batch:
        batch = Batch()
        for tp, records in polled.items():
            task = self.tasks.get(tp.partition)
            if task is not None and tp == task.tp:
                self._take(task, records, batch)
        flags: list[Flag] = []
        offences: list[Raised] = []
        limit = self.settings.max_poll_records
        self._backlog = False
        for task in self.tasks.values():
            for name, lane in task.lanes.items():
                released = lane.release(limit)
                self._backlog |= len(released) >= limit
                pipeline = task.pipelines.get(name)
                if name == PLAYERS:
                    self._join(task, released, pipeline, flags, offences, batch)
                elif pipeline is not None:
                    self._detect(task, name, pipeline, released, flags, offences, batch)
        if flags or offences:
            send_outputs(self.settings, self.producer, flags, (), offences)
        if self.store is not None and flags:
            self.store.add([], flags, [])
        batch.flags += len(flags)
        self._send_marks()
        return batch

    def _take(self, task: _Task, records: Sequence[ConsumedRecord], batch: Batch) -> None:
        lanes = task.lanes
        topic = task.tp.topic
        for record in records:
            try:
                found = read_lane_record(record.headers, record.value, record.key)
            except LaneRecordError as exc:
                log.warning("%s offset %d skipped: %s", task.tp, record.offset, exc)
                batch.dead_letters[topic] += 1
                found = None
            if isinstance(found, dict):
                for lane in lanes.values():
                    for source, until in found.items():
                        lane.mark(source, until)
            elif found is not None:
                target = lanes.get(found.lane)
                if target is not None:
                    target.add(
                        found.source,
                        found.key,
                        Held(found.role, found.value, None, found.routing_key),
                    )
                if record.offset < task.live_from:
                    batch.replayed[topic] += 1
                else:
                    batch.records[topic] += 1
            task.consumed = record.offset + 1

    def _join(
        self,
        task: _Task,
        released: list[Released],
        pipeline: Pipeline | None,
        flags: list[Flag],
        offences: list[Raised],
        batch: Batch,
    ) -> None:
        """The players lane: keep the view, run the detectors keyed by player on each sender's
        chat, send messages on to where they are read."""
        view = task.view
        assert view is not None
        topology, settings = self.topology, self.settings
        source = task.players_source
        for key, lane_source, held in released:
            view.advance(from_micros(key[0]))
            role = held.role
            if role in (DEALT, JOINED):
                try:
                    seen = orjson.loads(held.value)
                    player = held.key.decode()  # the record's key
                    if role == DEALT:
                        view.dealt(player, str(seen["table"]), str(seen["hand"]))
                    if seen.get("tournament"):
                        view.seen_in(player, str(seen["tournament"]))
                except (orjson.JSONDecodeError, KeyError, TypeError, UnicodeDecodeError) as exc:
                    log.warning("players lane record skipped: %r", exc)
                continue
            try:
                event = parse_event(held.value, where=f"{lane_source} {key}")
            except EventError as exc:
                log.warning("players lane record from %s skipped: %s", lane_source, exc.reason)
                batch.dead_letters[task.tp.topic] += 1
                continue
            if not isinstance(event, ChatEvent):
                continue
            warm = task.warm(PLAYERS, key)
            if role == SENDER and pipeline is not None:
                outcome = pipeline.process(event)
                if outcome.flags and not warm:
                    flags.extend(outcome.flags)
                    offences.extend(offences_of(event, outcome.flags))
            if warm:
                continue  # forwarded before the commit this task resumed from
            if role == SENDER and topology.tournament and event.tournament_id is None:
                tournament = view.tournament(event.player_id)
                if tournament is not None:
                    headers = lane_headers(TOURNAMENT, source, key, SENDER)
                    target = tournament.encode()
                    partition = partition_for(target, topology.keyed)
                    send_routed(
                        self.producer, settings.keyed_topic, partition, target, held.value, headers
                    )
            elif role == RECIPIENT and topology.hand and event.recipient_id:
                table = view.hand_table(event.recipient_id)
                if table is not None:
                    headers = lane_headers(HAND, source, key, RECIPIENT)
                    target = table.encode()
                    partition = partition_for(target, topology.inputs)
                    send_routed(
                        self.producer, settings.hands_topic, partition, target, held.value, headers
                    )

    def _detect(
        self,
        task: _Task,
        lane: str,
        pipeline: Pipeline,
        released: list[Released],
        flags: list[Flag],
        offences: list[Raised],
        batch: Batch,
    ) -> None:
        for key, source, held in released:
            try:
                event = parse_event(held.value, where=f"{source} {key}")
            except EventError as exc:
                log.warning("%s lane record from %s skipped: %s", lane, source, exc.reason)
                batch.dead_letters[task.tp.topic] += 1
                continue
            outcome = pipeline.process(event)
            if outcome.flags and not task.warm(lane, key):
                flags.extend(outcome.flags)
                offences.extend(offences_of(event, outcome.flags))

    # ---- marks -------------------------------------------------------------------------------

    def _players_marks(self) -> list[MarkSender]:
        return [s for s in (self.hand_marks, self.tournament_marks) if s is not None]

    def _send_marks(self) -> None:
        forwarded: dict[str, int] = {}
        ladders: dict[str, int] = {}
        for task in self.tasks.values():
            if task.consumed < task.live_from:
                continue  # replaying: the previous owner's marks stand until it is live
            players = task.lanes.get(PLAYERS)
            if players is not None and not task.players_ended:
                if players.complete:
                    task.players_ended = True
                    for sender in self._players_marks():
                        sender.end([task.players_source])
                else:
                    forwarded[task.players_source] = players.settled
            if all(lane.complete for lane in task.lanes.values()):
                if not task.complete:
                    task.complete = True
                    self.offence_marks.end([task.keyed_source])
                continue
            detecting = [task.lanes[name] for name in task.pipelines]
            if detecting:
                ladders[task.keyed_source] = min(lane.settled for lane in detecting)
        for sender in self._players_marks():
            sender.send(forwarded)
        if ladders:
            self.offence_marks.send(ladders)


def _hand_ttl(topology: Topology) -> Any:
    """How long the view keeps a player's hand: as long as the hand-keyed detectors do."""
    from railbird.ingest.kafka.player_view import HAND_TTL

    ttls = [getattr(d, "hand_ttl", None) for d in topology.hand]
    return max([HAND_TTL, *(t for t in ttls if t is not None)])
