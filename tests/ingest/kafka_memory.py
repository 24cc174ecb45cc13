"""The whole `railbird run` topology on an in-memory log, without a broker: the table, keyed and
escalation stages as `railbird run` builds them, fed their partitions in chunks the test
chooses, their sends appended to the partitions they name. What the runtime does around a
stage (polls, commits, snapshots, restarts) is done here by hand, so a test can cut a run
anywhere, restore every task from a snapshot taken earlier and a commit taken later, and
compare with a run that never stopped (`test_kafka_restore`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from railbird.detectors.registry import build_detectors
from railbird.ingest.kafka.client_types import Header, TopicPartition
from railbird.ingest.kafka.codec import event_key, seq_header
from railbird.ingest.kafka.escalation_stage import EscalationStage
from railbird.ingest.kafka.keyed_stage import KeyedStage
from railbird.ingest.kafka.runtime import Resume, Stage
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.kafka.table_stage import TableStage
from railbird.ingest.kafka.topology import Topology, partition_for
from railbird.rules.policy_watch import PolicyWatch


@dataclass(frozen=True)
class MemRecord:
    offset: int
    key: bytes | None
    value: bytes | None
    headers: Sequence[Header]


class _Sent:
    def get(self, timeout: float | None = None) -> object:
        return None

    def add_errback(self, errback: Callable[[Exception], object]) -> _Sent:
        return self


class MemoryLog:
    """Topics as lists of partitions of records; also the producer every stage sends with."""

    def __init__(self) -> None:
        self.topics: dict[str, list[list[MemRecord]]] = {}

    def create(self, topic: str, partitions: int) -> None:
        self.topics.setdefault(topic, [[] for _ in range(partitions)])

    def send(
        self,
        topic: str,
        value: bytes | None = None,
        key: bytes | None = None,
        headers: Sequence[Header] | None = None,
        partition: int | None = None,
    ) -> _Sent:
        parts = self.topics[topic]
        if partition is None:
            partition = 0 if key is None else partition_for(key, len(parts))
        records = parts[partition]
        records.append(MemRecord(len(records), key, value, list(headers or ())))
        return _Sent()

    def flush(self, timeout: float | None = None) -> None:
        pass

    def close(self, timeout: float | None = None) -> None:
        pass

    def partitions_for(self, topic: str) -> set[int] | None:
        parts = self.topics.get(topic)
        return None if parts is None else set(range(len(parts)))


class _Feed:
    def __init__(self, run: MemoryRun, stage: str) -> None:
        self.run = run
        self.stage = stage
        self.polled_at = 0.0

    def caught_up(self, tp: TopicPartition) -> bool:
        return self.run.positions[self.stage][tp] >= len(
            self.run.log.topics[tp.topic][tp.partition]
        )


STAGES = ("tables", "keyed", "escalation")


@dataclass
class Cut:
    """What a crash leaves: each task's last snapshot (with the offsets it covers) and its last
    commit (positions and lanes' progress), taken at different moments."""

    snapshots: dict[tuple[str, int], tuple[bytes, dict[TopicPartition, int]]] = field(
        default_factory=dict
    )
    commits: dict[tuple[str, int], tuple[dict[TopicPartition, int], dict[str, Any]]] = field(
        default_factory=dict
    )


class MemoryRun:
    """One deployment over `events` (contract dicts in file order), `partitions` per topic."""

    def __init__(self, events: list[dict[str, Any]], partitions: int = 4, keyed: int = 3) -> None:
        self.settings = KafkaSettings(
            group_id="mem",
            merge_hold_ms=0,
            mark_hold_ms=0,
            max_merge_wait_ms=10**9,  # never gives up waiting: a chunk can arrive any time later
            mark_interval_ms=1,
        )
        self.topology = Topology.of(build_detectors(), partitions, keyed)
        self.log = MemoryLog()
        s = self.settings
        for topic in (*s.input_topics, s.hands_topic, s.offences_topic_name):
            self.log.create(topic, partitions)
        for topic in (s.flags_topic, s.actions_topic, s.dlq_topic(s.chat_topic)):
            self.log.create(topic, partitions)
        for topic in (s.dlq_topic(s.table_topic), s.dlq_topic(s.hand_topic)):
            self.log.create(topic, partitions)
        self.log.create(s.keyed_topic, keyed)
        for seq, event in enumerate(events):
            topic = s.topic_for_type(event["type"])
            assert topic is not None
            self.log.send(topic, orjson.dumps(event), event_key(event), seq_header(seq))
        self.positions: dict[str, dict[TopicPartition, int]] = {}
        self.stages: dict[str, Stage] = {}
        self.clock = 0.0
        for name in STAGES:
            self._start(name, None)

    def tps(self, name: str, task: int) -> list[TopicPartition]:
        s = self.settings
        topics = {
            "tables": [*s.input_topics, s.hands_topic],
            "keyed": [s.keyed_topic],
            "escalation": [s.offences_topic_name],
        }[name]
        return [TopicPartition(t, task) for t in topics]

    def tasks(self, name: str) -> range:
        return range(self.topology.keyed if name == "keyed" else self.topology.inputs)

    def _make(self, name: str) -> Stage:
        s, topology, log = self.settings, self.topology, self.log
        if name == "tables":
            return TableStage(s, topology, log, None, topology.inputs)
        if name == "keyed":
            return KeyedStage(s, topology, log, None, topology.inputs)
        sources = topology.escalation_sources()
        return EscalationStage(s, sources, log, None, PolicyWatch(None))

    def _start(self, name: str, cut: Cut | None) -> None:
        stage = self._make(name)
        feed = _Feed(self, name)
        stage.attach(feed)
        self.stages[name] = stage
        self.positions[name] = {}
        for task in self.tasks(name):
            tps = self.tps(name, task)
            if cut is None:
                start = dict.fromkeys(tps, 0)
                resume = Resume(None, start, dict(start))
            else:
                state, covered = cut.snapshots[(name, task)]
                committed, lanes = cut.commits[(name, task)]
                resume = Resume(state, dict(covered), dict(committed), dict(lanes))
            stage.open(task, tps, resume)
            self.positions[name].update(resume.start)

    def step(self, rng: random.Random, most: int) -> bool:
        """Every stage polls a random chunk of each partition (up to `most` records); True if
        any record was handed over."""
        moved = False
        self.clock += 1.0
        for name in STAGES:
            stage = self.stages[name]
            feed = _Feed(self, name)
            feed.polled_at = self.clock
            polled: dict[TopicPartition, list[MemRecord]] = {}
            for tp, at in self.positions[name].items():
                records = self.log.topics[tp.topic][tp.partition]
                take = records[at : at + rng.randint(0, most)]
                if take:
                    polled[tp] = take
                    self.positions[name][tp] = at + len(take)
            stage.attach(feed)
            stage.process(polled)
            moved = moved or bool(polled)
        inputs = set(self.settings.input_topics)
        if all(
            self.positions["tables"][tp] >= len(self.log.topics[tp.topic][tp.partition])
            for tp in self.positions["tables"]
            if tp.topic in inputs
        ):
            self.stages["tables"].end_input()  # what the runtime does once the input is idle
        return moved

    def run(self, rng: random.Random, most: int, steps: int | None = None) -> None:
        """Step until every stage is done (or `steps` steps)."""
        done = 0
        while steps is None or done < steps:
            moved = self.step(rng, most)
            done += 1
            if (
                not moved
                and all(self.stages[n].finished() for n in STAGES)
                and all(self._drained(n) for n in STAGES)
            ):
                return
            assert done < 100_000, "the deployment never finished"

    def _drained(self, name: str) -> bool:
        return all(
            at >= len(self.log.topics[tp.topic][tp.partition])
            for tp, at in self.positions[name].items()
        )

    # ---- snapshots, commits, crashes ---------------------------------------------------------

    def take_snapshots(self, cut: Cut) -> None:
        for name in STAGES:
            for task in self.tasks(name):
                taken = self.stages[name].snapshot(task)
                if taken is not None:
                    cut.snapshots[(name, task)] = taken

    def take_commits(self, cut: Cut) -> None:
        """Commits name snapshots: a task whose snapshot is not taken yet cannot commit."""
        for name in STAGES:
            for task in self.tasks(name):
                if (name, task) in cut.snapshots:
                    positions, lanes, _complete = self.stages[name].commit_note(task)
                    cut.commits[(name, task)] = (positions, lanes)

    def crash(self, cut: Cut) -> None:
        """Every stage dies; new ones restore each task's snapshot, read again from what it
        covers and treat what precedes the commit as replayed."""
        for name in STAGES:
            for task in self.tasks(name):
                if (name, task) not in cut.commits:  # nothing committed yet: from the start
                    state, covered = self._initial(name, task)
                    cut.snapshots[(name, task)] = (state, covered)
                    cut.commits[(name, task)] = (dict(covered), {})
            self._start(name, cut)

    def _initial(self, name: str, task: int) -> tuple[bytes, dict[TopicPartition, int]]:
        fresh = self._make(name)
        fresh.attach(_Feed(self, name))
        tps = self.tps(name, task)
        start = dict.fromkeys(tps, 0)
        fresh.open(task, tps, Resume(None, start, dict(start)))
        taken = fresh.snapshot(task)
        assert taken is not None
        return taken

    # ---- what came out ---------------------------------------------------------------------

    def outputs(self, topic: str, id_field: str) -> dict[str, dict[str, Any]]:
        """Each id's last record on `topic`."""
        found: dict[str, dict[str, Any]] = {}
        for partition in self.log.topics[topic]:
            for record in partition:
                value = orjson.loads(record.value or b"")
                found[value[id_field]] = value
        return found
