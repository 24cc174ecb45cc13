"""The development broker behaves as the pipeline needs: explicit topics, consumer groups that
commit and resume, and no topic created by a typo."""

from __future__ import annotations

import time
import uuid

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import ConfigResource, ConfigResourceType
from kafka.errors import KafkaTimeoutError

from tests.integration.kafka_broker import contract_topics, create_topics
from tests.integration.kafka_broker import main as kafka_broker_main

pytestmark = pytest.mark.kafka

MESSAGES = 60
# A member that could not say goodbye (a LeaveGroup lost on a loaded machine) holds the next
# rebalance until its session expires: keep that short (the broker's minimum is 6 s).
GROUP_TIMEOUTS = {"session_timeout_ms": 6000, "heartbeat_interval_ms": 1500}


def _consume(consumer: KafkaConsumer, expected: int, seconds: float) -> list[tuple[int, bytes]]:
    """Poll until ``expected`` records arrived or ``seconds`` passed (a bound, not a check)."""
    got: list[tuple[int, bytes]] = []
    deadline = time.monotonic() + seconds
    while len(got) < expected and time.monotonic() < deadline:
        for records in consumer.poll(timeout_ms=500).values():
            got.extend((r.partition, r.value) for r in records)
    return got


def _consume_until_assigned(
    consumer: KafkaConsumer, partitions: int, seconds: float
) -> list[bytes]:
    """Poll until the group has handed ``partitions`` partitions to this consumer."""
    got: list[bytes] = []
    deadline = time.monotonic() + seconds
    while len(consumer.assignment()) < partitions and time.monotonic() < deadline:
        for records in consumer.poll(timeout_ms=200).values():
            got.extend(r.value for r in records)
    for records in consumer.poll(timeout_ms=200).values():
        got.extend(r.value for r in records)
    return got


def test_produce_and_consume_through_a_committing_group(kafka_bootstrap: str) -> None:
    topic = f"it.roundtrip.{uuid.uuid4().hex[:8]}"
    assert create_topics(kafka_bootstrap, [topic], partitions=3) == [topic]

    producer = KafkaProducer(bootstrap_servers=kafka_bootstrap, linger_ms=5)
    try:
        for i in range(MESSAGES):
            producer.send(topic, key=f"t-{i % 7}".encode(), value=f"m-{i}".encode())
        producer.flush(timeout=60)
    finally:
        producer.close(timeout=10)

    group = f"it-group-{uuid.uuid4().hex[:8]}"
    consumer = KafkaConsumer(
        topic,
        bootstrap_servers=kafka_bootstrap,
        group_id=group,
        auto_offset_reset="earliest",
        enable_auto_commit=False,
        **GROUP_TIMEOUTS,
    )
    try:
        got = _consume(consumer, MESSAGES, seconds=90)
        consumer.commit()
        partitions = [TopicPartition(topic, p) for p in range(3)]
        committed = {tp.partition: consumer.committed(tp) for tp in partitions}
        ends = {tp.partition: off for tp, off in consumer.end_offsets(partitions).items()}
    finally:
        consumer.close()

    assert sorted(v for _, v in got) == sorted(f"m-{i}".encode() for i in range(MESSAGES))
    assert {p for p, _ in got} == {0, 1, 2}, "keys should spread over all three partitions"
    assert committed == ends
    assert sum(ends.values()) == MESSAGES

    # The same group resumes after its commit: once it owns every partition, each position is
    # the committed end offset and nothing is delivered twice.
    again = KafkaConsumer(
        topic,
        bootstrap_servers=kafka_bootstrap,
        group_id=group,
        auto_offset_reset="earliest",
        enable_auto_commit=False,
        **GROUP_TIMEOUTS,
    )
    try:
        redelivered = _consume_until_assigned(again, partitions=3, seconds=90)
        positions = {tp.partition: again.position(tp) for tp in again.assignment()}
    finally:
        again.close()
    assert redelivered == []
    assert positions == ends


def test_contract_topics_are_created_once(kafka_bootstrap: str) -> None:
    first = create_topics(kafka_bootstrap, contract_topics(), partitions=2)
    second = create_topics(kafka_bootstrap, contract_topics(), partitions=2)

    assert sorted(first) == sorted(contract_topics())
    assert "chat.messages.dlq" in first
    assert "moderation.flags.dlq" not in first, "only the three input topics get a DLQ"
    assert second == []


def test_a_misspelt_topic_is_not_auto_created(kafka_bootstrap: str) -> None:
    producer = KafkaProducer(bootstrap_servers=kafka_bootstrap, max_block_ms=2000)
    try:
        with pytest.raises(KafkaTimeoutError):
            producer.send("chat.mesages", value=b"typo").get(timeout=5)
    finally:
        producer.close(timeout=5)


def test_kafka_sh_topics_honours_the_topic_settings_and_makes_the_internal_topics(
    kafka_bootstrap: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAILBIRD_KAFKA_CHAT_TOPIC", "site9.chat")
    monkeypatch.setenv("RAILBIRD_KAFKA_FLAGS_TOPIC", "site9.flags")
    monkeypatch.setenv("RAILBIRD_KAFKA_GROUP_ID", "site9")
    assert kafka_broker_main(["topics", "--bootstrap", kafka_bootstrap, "--partitions", "3"]) == 0
    admin = KafkaAdminClient(bootstrap_servers=kafka_bootstrap)
    try:
        topics = {t["name"]: t for t in admin.describe_topics()}
        assert {"site9.chat", "site9.chat.dlq", "site9.flags", "site9-offences"} <= set(topics)
        for name in ("site9-offences", "site9-keyed", "site9-hands"):
            assert len(topics[name]["partitions"]) == 3, name
        assert len(topics["site9-escalation-state"]["partitions"]) == 1
        configs = admin.describe_configs(
            [
                ConfigResource(ConfigResourceType.TOPIC, "site9-offences"),
                ConfigResource(ConfigResourceType.TOPIC, "site9-keyed-state"),
            ]
        )
        offences, state = (configs["topic"][n] for n in ("site9-offences", "site9-keyed-state"))
        assert offences["retention.ms"]["value"] == str(7 * 86400 * 1000)
        assert state["cleanup.policy"]["value"] == "compact"
    finally:
        admin.close()
