"""What a Kafka worker sends out: flags and actions to their topics, bad records to the DLQ.

Sent as soon as they are produced (latency); the producer is flushed, like the store write,
before the offsets they derive from are committed (`kafka.commits`).
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Iterable
from datetime import datetime

from railbird.detectors.text.redaction import redact
from railbird.ingest.decode import Rejected
from railbird.ingest.kafka.client_types import Producer
from railbird.ingest.kafka.codec import (
    MARK_KEY,
    action_record,
    dead_letter_key,
    dead_letter_value,
    dlq_headers,
    flag_record,
    mark_record,
    offence_record,
)
from railbird.ingest.kafka.merge import Pending
from railbird.ingest.kafka.partitions import KeyPartitions
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.sink import Sink
from railbird.rules.actions import Action
from railbird.rules.escalation import Raised
from railbird.rules.flags import Flag

log = logging.getLogger(__name__)

# One key -> partition table per producer (see `kafka.partitions`).
_partitions: weakref.WeakKeyDictionary[Producer, KeyPartitions] = weakref.WeakKeyDictionary()


def send_outputs(
    settings: KafkaSettings,
    producer: Producer,
    flags: Iterable[Flag],
    actions: Iterable[Action],
    offences: Iterable[Raised] = (),
) -> None:
    """Flags and actions to their topics; offences (one per flag and player) to the
    escalation stage's topic, keyed by player."""
    partitions = _key_partitions(producer)
    send = producer.send
    topic = settings.flags_topic
    choose = partitions.chooser(topic)
    for flag in flags:
        key, value = flag_record(flag)
        send(topic, key=key, value=value, partition=choose(key))
    topic = settings.actions_topic
    choose = partitions.chooser(topic)
    for action in actions:
        key, value = action_record(action)
        send(topic, key=key, value=value, partition=choose(key))
    topic = settings.offences_topic_name
    choose = partitions.chooser(topic)
    for raised in offences:
        key, value = offence_record(raised)
        send(topic, key=key, value=value, partition=choose(key))


def send_marks(
    settings: KafkaSettings, producer: Producer, marks: dict[str, datetime], partitions: int
) -> None:
    """Each source's mark to every partition of the offences topic (`rules.escalation`)."""
    topic = settings.offences_topic_name
    for source, until in marks.items():
        value = mark_record(source, until)
        for partition in range(partitions):
            producer.send(topic, key=MARK_KEY, value=value, partition=partition)


def _key_partitions(producer: Producer) -> KeyPartitions:
    try:
        partitions = _partitions.get(producer)
        if partitions is None:
            partitions = _partitions[producer] = KeyPartitions(producer)
    except TypeError:  # a producer that takes no weak reference: no table kept
        return KeyPartitions(producer)
    return partitions


def send_dead_letter(
    settings: KafkaSettings,
    producer: Producer,
    store: Sink[tuple[str, bytes]] | None,
    entry: Pending,
    rejected: Rejected,
) -> None:
    """The record as it came (cut to `DLQ_MAX_VALUE_BYTES`, its size in a header), to
    `<topic>.dlq` with the reason and its origin in headers (and, with disclosed personal data
    redacted, to the store's dead-letter table)."""
    tp = entry.tp
    log.warning("dead letter %s", rejected.describe())
    data = dead_letter_value(rejected.record.data)
    producer.send(
        settings.dlq_topic(tp.topic),
        key=dead_letter_key(entry.key),
        value=data,
        headers=dlq_headers(
            rejected.reason,
            tp.topic,
            tp.partition,
            entry.offset,
            original_size=len(rejected.record.data),
        ),
    )
    if store is not None:  # redacted there, as in the chat log; the topic keeps the bytes
        raw = redact(data.decode("utf-8", "replace"))
        store.add_dead_letter(tp.topic, rejected.record.position, rejected.reason, raw)
