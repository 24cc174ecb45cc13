"""Flags and actions go to the partition kafka-python's own partitioner would have picked."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from kafka.partitioner import DefaultPartitioner, StickyPartitioner

from railbird.ingest.kafka.codec import flag_record
from railbird.ingest.kafka.outputs import send_outputs
from railbird.ingest.kafka.partitions import KeyPartitions
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.rules.actions import Action
from tests.ingest.test_output_records import random_flag


class Cluster:
    """The slice of kafka-python's ClusterMetadata that partitioners and `KeyPartitions` read."""

    def __init__(self, layout: dict[str, set[int]]) -> None:
        self.layout = layout

    def topics(self) -> set[str]:
        return set(self.layout)

    def partitions_for_topic(self, topic: str) -> set[int] | None:
        return set(self.layout[topic]) if topic in self.layout else None

    def available_partitions_for_topic(self, topic: str) -> set[int] | None:
        return self.partitions_for_topic(topic)


class Producer:
    """What `KeyPartitions` reads of a KafkaProducer. The real `partitions_for` waits for the
    topic's metadata and raises after `max_block_ms`, as `send` would; here an unknown topic
    answers None at once, so the fallback to the producer's own choice can be seen."""

    def __init__(self, cluster: Cluster, partitioner: Any) -> None:
        self.cluster = cluster
        self.config = {"partitioner": partitioner}

    def partitions_for(self, topic: str) -> set[int] | None:
        return self.cluster.partitions_for_topic(topic)


def keys(rng: random.Random, count: int) -> list[bytes]:
    lengths = [rng.randrange(0, 40) for _ in range(count)]
    out = [rng.randbytes(n) for n in lengths]
    out += [f"p-{i}-r{i % 7}".encode() for i in range(count)]  # player-id shaped
    out += ["p-é😀".encode(), b"", b"\xff\xff\xff\xff", b"\x00"]
    return out


def test_partitions_match_the_default_partitioner() -> None:
    layouts = {
        "one": {0},
        "six": set(range(6)),
        "seven": set(range(7)),
        "gappy": {0, 2, 5, 11},  # ids as metadata lists them, not 0..n-1
        "many": set(range(64)),
    }
    cluster = Cluster(layouts)
    default = DefaultPartitioner()
    rng = random.Random(5)
    sample = keys(rng, 5000)
    for partitioner in (DefaultPartitioner(), StickyPartitioner()):
        partitions = KeyPartitions(Producer(cluster, partitioner))
        for topic in layouts:
            choose = partitions.chooser(topic)
            for key in sample + sample[:100]:  # the second time from the table
                expected = default.partition(topic, key, key, b"v", b"v", cluster)
                assert choose(key) == expected, (topic, key)


def test_the_producer_chooses_when_it_cannot_be_matched() -> None:
    cluster = Cluster({"flags": set(range(6))})
    ours = KeyPartitions(Producer(cluster, DefaultPartitioner()))
    assert ours.chooser("flags")(None) is None  # unkeyed: random or sticky, the producer's
    assert ours.chooser("flags")(b"p-1") is not None
    assert ours.chooser("unknown-topic")(b"p-1") is None  # no partitions known

    class Custom(DefaultPartitioner):  # type: ignore[misc]
        def partition(self, *args: Any) -> int:
            return 0

    assert KeyPartitions(Producer(cluster, Custom())).chooser("flags")(b"p-1") is None
    assert KeyPartitions(object()).chooser("flags")(b"p-1") is None  # not kafka-python's


def test_a_topic_that_grows_is_recomputed() -> None:
    cluster = Cluster({"flags": set(range(3))})
    ours = KeyPartitions(Producer(cluster, DefaultPartitioner()))
    sample = keys(random.Random(9), 300)
    before = [ours.chooser("flags")(key) for key in sample]
    cluster.layout["flags"] = set(range(12))
    after = [ours.chooser("flags")(key) for key in sample]
    default = DefaultPartitioner()
    assert after == [default.partition("flags", k, k, None, None, cluster) for k in sample]
    assert before != after
    assert max(p for p in after if p is not None) > 2


def test_the_key_table_is_bounded() -> None:
    cluster = Cluster({"flags": set(range(6))})
    ours = KeyPartitions(Producer(cluster, DefaultPartitioner()), max_keys=50)
    choose = ours.chooser("flags")
    default = DefaultPartitioner()
    for i in range(500):
        key = f"p-{i}".encode()
        assert choose(key) == default.partition("flags", key, key, None, None, cluster)
    assert all(len(table) <= 50 for table in ours._tables.values())


def test_send_outputs_passes_the_partition_the_producer_would_pick() -> None:
    class Recording:
        __slots__ = ("cluster", "config", "sent")  # no weak reference: no table kept

        def __init__(self, cluster: Cluster) -> None:
            self.cluster = cluster
            self.config = {"partitioner": DefaultPartitioner()}
            self.sent: list[tuple[str, bytes | None, int | None]] = []

        def partitions_for(self, topic: str) -> set[int] | None:
            return self.cluster.partitions_for_topic(topic)

        def send(
            self, topic: str, *, key: bytes | None, value: bytes, partition: int | None
        ) -> None:
            self.sent.append((topic, key, partition))

    settings = KafkaSettings()
    cluster = Cluster({settings.actions_topic: set(range(6))})  # no flags metadata yet
    producer = Recording(cluster)
    at = datetime(2026, 11, 29, tzinfo=UTC)
    flags = [random_flag(random.Random(i)) for i in range(5)]
    actions = [Action(f"a-{i}", "warn", f"p-{i}", at, "why", ()) for i in range(50)]
    send_outputs(settings, producer, flags, actions)
    default = DefaultPartitioner()
    topic = settings.actions_topic
    assert producer.sent == [
        *((settings.flags_topic, flag_record(f)[0], None) for f in flags),
        *(
            (topic, k, default.partition(topic, k, k, None, None, cluster))
            for k in (f"p-{i}".encode() for i in range(50))
        ),
    ]
