"""A private set of railbird's topics on a shared broker: each Kafka test lane and benchmark run
gets its own (prefixed) inputs, dead-letter topics, flags and actions, and its own group."""

from __future__ import annotations

from typing import Any

from railbird.ingest.kafka.settings import KafkaSettings

from .kafka_broker import create_topics


def prefixed_settings(
    bootstrap: str, prefix: str, partitions: int, **overrides: Any
) -> KafkaSettings:
    """Settings naming `prefix`-ed topics and group, with those topics created."""
    settings = KafkaSettings(
        bootstrap_servers=bootstrap,
        group_id=f"{prefix}-railbird",
        chat_topic=f"{prefix}.chat.messages",
        table_topic=f"{prefix}.poker.table-events",
        hand_topic=f"{prefix}.poker.hands",
        flags_topic=f"{prefix}.moderation.flags",
        actions_topic=f"{prefix}.moderation.actions",
        **overrides,
    )
    inputs = list(settings.input_topics)
    dead_letters = [settings.dlq_topic(t) for t in inputs]
    topics = [*inputs, *dead_letters, settings.flags_topic, settings.actions_topic]
    create_topics(bootstrap, topics, partitions=partitions)
    return settings
