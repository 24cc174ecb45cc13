"""The three kafka-python internals railbird reads: each still exists in the installed release
(an upgrade that renames one fails here, not silently in production), and each workaround does
what it says on in-process stand-ins (the internals' state is the point, not a broker)."""

from __future__ import annotations

import inspect

import kafka
from kafka.consumer.fetcher import Fetcher
from kafka.coordinator.consumer import ConsumerCoordinator
from kafka.errors import KafkaTimeoutError

from railbird.ingest.kafka.internals import restore_parked, warm_up


def test_the_internals_read_still_exist_in_the_installed_kafka_python() -> None:
    fetcher = inspect.getsource(Fetcher)
    assert "_next_partition_records" in fetcher and "_paused_partition_records" in fetcher
    assert "self._fetcher" in inspect.getsource(kafka.KafkaConsumer)
    assert "self._coordinator" in inspect.getsource(kafka.KafkaConsumer)
    assert callable(ConsumerCoordinator.generation_if_stable)
    assert callable(kafka.KafkaProducer._wait_on_metadata)


class _Drained:
    def __bool__(self) -> bool:
        return False


class _Fetcher:
    def __init__(self, parked: dict[str, list[int]], slot: object) -> None:
        self._paused_partition_records = parked
        self._next_partition_records = slot


class _Consumer:
    def __init__(self, fetcher: object) -> None:
        self._fetcher = fetcher


def test_a_drained_slot_is_emptied_while_records_are_parked() -> None:
    fetcher = _Fetcher({"tp": [1]}, _Drained())
    restore_parked(_Consumer(fetcher))  # type: ignore[arg-type]
    assert fetcher._next_partition_records is None


def test_a_live_slot_or_nothing_parked_is_left_alone() -> None:
    live = ["records"]
    busy = _Fetcher({"tp": [1]}, live)
    restore_parked(_Consumer(busy))  # type: ignore[arg-type]
    assert busy._next_partition_records is live
    idle = _Fetcher({}, drained := _Drained())
    restore_parked(_Consumer(idle))  # type: ignore[arg-type]
    assert idle._next_partition_records is drained
    restore_parked(object())  # type: ignore[arg-type]  # no fetcher at all: nothing to do


def test_warm_up_asks_each_topic_once_and_survives_a_missing_topic() -> None:
    asked: list[tuple[str, int]] = []

    class Producer:
        def _wait_on_metadata(self, topic: str, timeout_ms: int) -> None:
            asked.append((topic, timeout_ms))
            if topic == "missing":
                raise KafkaTimeoutError("no metadata")

    warm_up(Producer(), ["moderation.flags", "missing"], timeout_ms=50)  # type: ignore[arg-type]
    assert asked == [("moderation.flags", 50), ("missing", 50)]
    warm_up(object(), ["moderation.flags"])  # type: ignore[arg-type]  # no internal: a no-op
