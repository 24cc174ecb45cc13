"""What a stage sends out: flags, actions and offences to their topics, bad records to the DLQ,
re-keyed records to the internal topics.

Sent as soon as they are produced (latency); the producer is flushed, like the store write,
before the offsets they derive from are committed (`kafka.checkpoint`).
"""

from __future__ import annotations

import logging
import weakref
from collections import Counter
from collections.abc import Iterable

from railbird.detectors.events import AnyEvent
from railbird.detectors.text.redaction import redact
from railbird.ingest.decode import Rejected
from railbird.ingest.kafka.client_types import Producer
from railbird.ingest.kafka.codec import (
    Headers,
    action_record,
    dead_letter_key,
    dead_letter_value,
    dlq_headers,
    flag_record,
    offence_record,
)
from railbird.ingest.kafka.merge import Pending
from railbird.ingest.kafka.partitions import KeyPartitions
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.sink import Sink
from railbird.rules.actions import Action
from railbird.rules.escalation import Raised, place_of
from railbird.rules.flags import Flag
from railbird.rules.pipeline import medium_of
from railbird.rules.policy import Offence

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


def send_routed(
    producer: Producer,
    topic: str,
    partition: int,
    key: bytes,
    value: bytes,
    headers: Headers,
) -> None:
    """A re-keyed record to the partition its key chose (`kafka.topology.partition_for`)."""
    producer.send(topic, key=key, value=value, headers=headers, partition=partition)


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


def offences_of(event: AnyEvent, flags: Iterable[Flag]) -> list[Raised]:
    """Each flag's offence per player, with the event that raised it and its place among that
    event's flags (`rules.escalation`), for the escalation stage."""
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
