"""kafka-python clients configured the one way railbird needs them, and the internal topics.

The consumer uses the *range* assignor only: it gives partition N of every subscribed topic to the
same member, which is what co-partitioning needs (a table's chat, events, hands and joined
private messages share a key, hence a partition number: one task). Round-robin, kafka-python's
fallback, would split them.
"""

from __future__ import annotations

import importlib.util
import logging

from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer
from kafka.admin import NewTopic
from kafka.coordinator.assignors.range import (
    RangePartitionAssignor,
)
from kafka.errors import KafkaError, TopicAlreadyExistsError

from railbird.ingest.kafka.client_types import Consumer, Producer
from railbird.ingest.kafka.settings import KafkaSettings

log = logging.getLogger(__name__)


class TopicLayoutError(RuntimeError):
    """Input topics missing, or not co-partitioned."""


class BrokerUnreachable(RuntimeError):
    """No broker answered at start; the message is the one line a command prints."""


def compression(settings: KafkaSettings) -> str | None:
    if settings.compression == "auto":
        return "lz4" if importlib.util.find_spec("lz4") is not None else None
    return None if settings.compression in ("", "none") else settings.compression


def make_producer(settings: KafkaSettings, **overrides: object) -> Producer:
    config: dict[str, object] = {
        "bootstrap_servers": settings.bootstrap_list(),
        "client_id": settings.client_id,
        "bootstrap_timeout_ms": settings.bootstrap_timeout_ms,
        "linger_ms": settings.linger_ms,
        "batch_size": settings.batch_bytes,
        "compression_type": compression(settings),
        "acks": "all",
    }
    config.update(overrides)
    producer: Producer = KafkaProducer(**config)
    return producer


def connect_producer(settings: KafkaSettings) -> Producer:
    """`make_producer`, with a broker that does not answer raised as `BrokerUnreachable`, so the
    command line above this edge never sees kafka-python's exception types."""
    try:
        return make_producer(settings)
    except KafkaError as exc:
        raise BrokerUnreachable(unreachable(settings, exc)) from exc


def unreachable(settings: KafkaSettings, exc: KafkaError) -> str:
    """What a command prints when no broker answered at start, instead of a traceback."""
    return (
        f"cannot reach Kafka at {settings.bootstrap_servers} within "
        f"{settings.bootstrap_timeout_ms / 1000:g} s ({exc}); is the broker "
        f"up? (`make kafka-up` starts a local one; RAILBIRD_KAFKA_BOOTSTRAP_SERVERS names it)"
    )


def make_consumer(settings: KafkaSettings, **overrides: object) -> Consumer:
    config: dict[str, object] = {
        "bootstrap_servers": settings.bootstrap_list(),
        "client_id": settings.client_id,
        "bootstrap_timeout_ms": settings.bootstrap_timeout_ms,
        "group_id": settings.group_id,
        "enable_auto_commit": False,
        "auto_offset_reset": "earliest",
        "partition_assignment_strategy": (RangePartitionAssignor,),
        "max_poll_records": settings.max_poll_records,
        "session_timeout_ms": settings.session_timeout_ms,
        "heartbeat_interval_ms": settings.heartbeat_interval_ms,
    }
    config.update(overrides)
    consumer: Consumer = KafkaConsumer(**config)
    return consumer


def check_copartitioned(consumer: Consumer, topics: tuple[str, ...]) -> int:
    """The shared partition count of `topics`; raises if one is missing or differs."""
    counts: dict[str, int] = {}
    for topic in topics:
        partitions = consumer.partitions_for_topic(topic)
        if not partitions:
            raise TopicLayoutError(f"topic {topic!r} does not exist (create it first)")
        counts[topic] = len(partitions)
    if len(set(counts.values())) != 1:
        raise TopicLayoutError(
            f"input topics must have the same partition count so a table's chat, events and "
            f"hands meet in one worker; got {counts}"
        )
    return next(iter(counts.values()))


def ensure_topic(
    settings: KafkaSettings, name: str, partitions: int, config: dict[str, str]
) -> None:
    """Create an internal topic if it is missing (a racing worker's creation is fine)."""
    admin = KafkaAdminClient(
        bootstrap_servers=settings.bootstrap_list(), client_id=f"{settings.client_id}-admin"
    )
    try:
        admin.create_topics(
            [NewTopic(name, partitions, settings.state_replication, topic_configs=config)]
        )
        log.info("created topic %s (%d partitions)", name, partitions)
    except TopicAlreadyExistsError:
        pass
    finally:
        admin.close()


def partition_count(consumer: Consumer, topic: str) -> int:
    """How many partitions `topic` has (0: it does not exist)."""
    return len(consumer.partitions_for_topic(topic) or ())
