"""The site stage's consumer group on a real broker: one member owns every partition, a standby
owns none, and takes everything over when the owner leaves."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

import pytest
from kafka import KafkaConsumer, TopicPartition

from railbird.ingest.kafka.assignor import SingleOwnerAssignor
from tests.integration.kafka_broker import create_topics

pytestmark = pytest.mark.kafka

PARTITIONS = 4
GROUP_TIMEOUTS = {"session_timeout_ms": 6000, "heartbeat_interval_ms": 1000}


def _consumer(bootstrap: str, group: str, client_id: str) -> KafkaConsumer:
    # The broker makes the member id "<client_id>-<uuid>": the client id orders the members.
    return KafkaConsumer(
        bootstrap_servers=bootstrap,
        client_id=client_id,
        group_id=group,
        enable_auto_commit=False,
        partition_assignment_strategy=(SingleOwnerAssignor(),),
        **GROUP_TIMEOUTS,
    )


def _poll_until(
    consumers: list[KafkaConsumer], condition: Callable[[], bool], timeout: float, what: str
) -> None:
    """Drive every member's poll loop (one thread, turn by turn) until `condition` holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out after {timeout:.0f} s waiting for {what}"
        for consumer in consumers:
            consumer.poll(timeout_ms=50)


def _generation(consumer: KafkaConsumer) -> int | None:
    """The member's group generation once it has joined and synced, else None."""
    stable = consumer._coordinator.generation_if_stable()
    return None if stable is None else int(stable.generation_id)


def test_one_member_owns_every_partition_and_a_standby_takes_over(kafka_bootstrap: str) -> None:
    prefix = f"site-{uuid.uuid4().hex[:8]}"
    topics = [f"{prefix}.chat", f"{prefix}.table"]
    create_topics(kafka_bootstrap, topics, partitions=PARTITIONS)
    everything = {TopicPartition(t, p) for t in topics for p in range(PARTITIONS)}
    group = f"{prefix}-railbird-site"

    first = _consumer(kafka_bootstrap, group, "rb-z")
    first.subscribe(topics)
    _poll_until([first], lambda: first.assignment() == everything, 60, "the first member")

    second = _consumer(kafka_bootstrap, group, "rb-a")
    second.subscribe(topics)
    try:
        # The second member joins (a rebalance both take part in) and stays on standby: the
        # owner keeps everything although the newcomer's member id is the lower one.
        _poll_until(
            [first, second],
            lambda: _generation(second) is not None and _generation(first) == _generation(second),
            60,
            "the second member to join",
        )
        _poll_until([first, second], lambda: first.assignment() == everything, 30, "a stable owner")
        assert second.assignment() == set()

        first.close(autocommit=False)  # the owner leaves: the standby takes every partition
        _poll_until([second], lambda: second.assignment() == everything, 60, "the takeover")
    finally:
        second.close(autocommit=False)
