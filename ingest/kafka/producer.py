"""`railbird produce`: replays a file of contract events into the input topics, fast.

Each event goes to its type's topic under the contract's key, so a table's chat, events and hands
share a partition number. Every record carries its line's sequence number in a header: the
worker's event-time merge uses it to break ties across topics exactly as the file ordered them.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

import orjson

from railbird.ingest.decode import RawRecord
from railbird.ingest.kafka.client_types import Producer
from railbird.ingest.kafka.codec import event_key, seq_header
from railbird.ingest.kafka.settings import KafkaSettings

log = logging.getLogger(__name__)


@dataclass
class ProduceReport:
    sent: Counter[str] = field(default_factory=Counter)
    skipped: list[str] = field(default_factory=list)
    failed: int = 0
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.sent.values())

    @property
    def per_second(self) -> float:
        return self.total / self.seconds if self.seconds > 0 else 0.0

    def summary(self) -> str:
        topics = ", ".join(f"{t}={n}" for t, n in sorted(self.sent.items())) or "none"
        return (
            f"{self.total} records in {self.seconds:.2f} s = {self.per_second:,.0f} msgs/s "
            f"({topics}); {len(self.skipped)} lines skipped; {self.failed} failed"
        )


def route(settings: KafkaSettings, data: object) -> tuple[str, bytes | None] | str:
    """(topic, key) for an event, or the reason it cannot be routed."""
    if not isinstance(data, dict):
        return "not a JSON object"
    topic = settings.topic_for_type(data.get("type"))
    if topic is None:
        return f"unknown event type {data.get('type')!r}"
    return topic, event_key(data)


def produce_records(
    records: Iterable[RawRecord],
    settings: KafkaSettings,
    producer: Producer,
    *,
    rate: float | None = None,
) -> ProduceReport:
    """Send every routable record; `rate` (records/s) paces the replay, None = full speed."""
    report = ProduceReport()

    def failed(exc: BaseException) -> None:
        report.failed += 1
        log.error("produce failed: %s", exc)

    started = time.perf_counter()
    for seq, record in enumerate(records):
        try:
            data = orjson.loads(record.data)
        except orjson.JSONDecodeError as exc:
            report.skipped.append(f"{record.source} {record.position}: invalid JSON ({exc})")
            continue
        routed = route(settings, data)
        if isinstance(routed, str):
            report.skipped.append(f"{record.source} {record.position}: {routed}")
            continue
        topic, key = routed
        if rate is not None:
            due = started + report.total / rate
            delay = due - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
        future = producer.send(topic, key=key, value=record.data.rstrip(), headers=seq_header(seq))
        future.add_errback(failed)
        report.sent[topic] += 1
    producer.flush()
    report.seconds = time.perf_counter() - started
    return report
