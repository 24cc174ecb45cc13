"""Every kafka-python workaround railbird needs, here and nowhere else.

Three read the library's private internals (`warm_up`, `has_joined`, `restore_parked`); one
uses public calls against a bug (`force_rejoin`); the fourth is a choice the runtime makes
(`kafka.runtime`: no rebalance listener, because of a bug). Each says why it is needed and when
it can go; those that read internals degrade to doing nothing (or to "no") when the internal is
missing, so a kafka-python release that renames one cannot crash a worker, only lose the
workaround; `tests/ingest/test_kafka_internals.py` fails as soon as an installed release no
longer has one.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from kafka.errors import KafkaError

from railbird.ingest.kafka.client_types import Consumer, Producer

log = logging.getLogger(__name__)


def warm_up(producer: Producer, topics: Iterable[str], timeout_ms: int = 5000) -> None:
    """Fetch the output topics' metadata before the first flag, not on it.

    A producer's first send to a topic blocks on that topic's metadata: the first flags of a
    freshly started worker were the latency benchmark's slowest.
    kafka-python's public `partitions_for` would wait up to `max_block_ms` (60 s) for a topic
    that does not exist; this waits `timeout_ms` and lets the first send try again. It can go
    once kafka-python's public calls take a timeout of their own.
    """
    wait = getattr(producer, "_wait_on_metadata", None)
    if wait is None:
        return
    for topic in topics:
        try:
            wait(topic, timeout_ms)
        except KafkaError as exc:
            log.warning("no metadata for topic %s yet: %s", topic, exc)


def has_joined(consumer: Consumer) -> bool:
    """Whether the consumer is a settled member of its group (joined and synced).

    kafka-python has no public call for it; a member with no partitions (the site stage's
    standby) is idle only once it knows it has none, not while it is still joining. It can go
    once kafka-python exposes the group's state (the Java client's `groupMetadata()`).
    """
    coordinator = getattr(consumer, "_coordinator", None)
    stable = getattr(coordinator, "generation_if_stable", None)
    return stable is not None and stable() is not None


def restore_parked(consumer: Consumer) -> None:
    """Work around a kafka-python 3.0.12 bug that stops a resumed partition for good.

    Records of a partition paused while they were next in line are parked and, by design,
    restored once it is resumed, one partition per poll, but only when the fetcher's in-line
    slot is `None`; a drained slot holds an empty (falsy) object instead, so the records stay
    parked and the partition, which is never fetched while it has parked records, stalls.
    Emptying a drained slot (before every poll while anything is parked) is what the fetcher
    itself would do; without it a worker far behind stops for good (docs/benchmarks-kafka.md).
    Parking came with kafka-python's port of KAFKA-7548 (dpkp/kafka-python#2981); this can go
    once a release restores a drained slot itself (`docs/benchmarks-kafka.md` says which
    release was checked last).
    """
    fetcher = getattr(consumer, "_fetcher", None)
    if not getattr(fetcher, "_paused_partition_records", None):
        return
    slot = getattr(fetcher, "_next_partition_records", None)
    if slot is not None and not slot:
        fetcher._next_partition_records = None  # type: ignore[union-attr]


def force_rejoin(consumer: Consumer, topics: Iterable[str]) -> None:
    """Leave and re-join the group, for a member whose commits have failed a whole session.

    kafka-python 3.0.12 can leave a member in "rebalancing" without ever sending JoinGroup
    (seen with two workers under load): it goes on processing partitions the group gave to
    someone else and can never commit. Re-subscribing forces a fresh join (public calls only,
    but here because it works around the library, and can go with the bug). The runtime drops
    its tasks first and rebuilds what the new assignment gives it.
    """
    consumer.unsubscribe()
    consumer.subscribe(list(topics))
