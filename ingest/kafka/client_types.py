"""The parts of kafka-python's clients railbird uses, as typed Protocols.

kafka-python ships no type information, so without these every consumer, producer, record and
partition in this edge would be `Any` and mypy would check none of the calls. The clients are
made in `clients` and pass through these types unchanged: kafka-python's own `TopicPartition`
and `OffsetAndMetadata` are named tuples, equal to (and hashed like) the ones below.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import NamedTuple, Protocol


class TopicPartition(NamedTuple):
    topic: str
    partition: int


class CommittedOffset(NamedTuple):
    """What a consumer commits for a partition: the next offset to read, and our metadata."""

    offset: int
    metadata: str
    leader_epoch: int


Header = tuple[str, bytes]


class ConsumedRecord(Protocol):
    @property
    def offset(self) -> int: ...
    @property
    def key(self) -> bytes | None: ...
    @property
    def value(self) -> bytes | None: ...
    @property
    def headers(self) -> Sequence[Header]: ...


class SendResult(Protocol):
    def get(self, timeout: float | None = None) -> object: ...
    def add_errback(self, errback: Callable[[Exception], object]) -> SendResult: ...


class Producer(Protocol):
    def send(
        self,
        topic: str,
        value: bytes | None = None,
        key: bytes | None = None,
        headers: Sequence[Header] | None = None,
        partition: int | None = None,
    ) -> SendResult: ...
    def flush(self, timeout: float | None = None) -> None: ...
    def close(self, timeout: float | None = None) -> None: ...
    def partitions_for(self, topic: str) -> set[int] | None: ...


class Consumer(Protocol):
    def subscribe(self, topics: Sequence[str]) -> None: ...
    def unsubscribe(self) -> None: ...
    def poll(
        self, timeout_ms: int = 0, max_records: int | None = None
    ) -> Mapping[TopicPartition, list[ConsumedRecord]]: ...
    def assignment(self) -> set[TopicPartition]: ...
    def pause(self, *partitions: TopicPartition) -> None: ...
    def resume(self, *partitions: TopicPartition) -> None: ...
    def paused(self) -> set[TopicPartition]: ...
    def highwater(self, partition: TopicPartition) -> int | None: ...
    def committed(
        self, partition: TopicPartition, metadata: bool = False
    ) -> CommittedOffset | None: ...
    def beginning_offsets(
        self, partitions: Collection[TopicPartition]
    ) -> Mapping[TopicPartition, int]: ...
    def end_offsets(
        self, partitions: Collection[TopicPartition]
    ) -> Mapping[TopicPartition, int]: ...
    def seek(self, partition: TopicPartition, offset: int) -> None: ...
    def commit(self, offsets: Mapping[TopicPartition, CommittedOffset]) -> None: ...
    def partitions_for_topic(self, topic: str) -> set[int] | None: ...
    def close(self, autocommit: bool = True) -> None: ...
