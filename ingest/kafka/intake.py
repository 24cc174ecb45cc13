"""The worker's intake: polled records -> decoded, buffered in the event-time merge, per partition.

It also keeps what the worker knows of each owned partition (`PartitionProgress`: fetched,
processed, replay marks), pauses fetching from a partition whose buffer is full, and answers
"is this partition caught up" and "how far behind is it" from the consumer's high watermarks.
"""

from __future__ import annotations

from collections.abc import Mapping

from railbird.detectors.events import AnyEvent, EventError, parse_event_as
from railbird.ingest.decode import Rejected
from railbird.ingest.kafka.client_types import ConsumedRecord, Consumer, TopicPartition
from railbird.ingest.kafka.codec import raw_record, read_seq
from railbird.ingest.kafka.internals import restore_parked
from railbird.ingest.kafka.merge import EventTimeMerge, pending
from railbird.ingest.kafka.progress import PartitionProgress
from railbird.ingest.kafka.settings import KafkaSettings

_TYPE_OF_TOPIC = ("chat", "table", "hand")  # in `KafkaSettings.input_topics` order


class Intake:
    def __init__(self, settings: KafkaSettings, consumer: Consumer, merge: EventTimeMerge) -> None:
        self.settings = settings
        self.consumer = consumer
        self.merge = merge
        self.progress: dict[TopicPartition, PartitionProgress] = {}
        self._rank = {t: i for i, t in enumerate(settings.input_topics)}

    def buffer(
        self,
        polled: Mapping[TopicPartition, list[ConsumedRecord]],
        skip: set[TopicPartition],
    ) -> None:
        """Decode and buffer what a poll returned, except for partitions in `skip` (their
        records are void: the partition was just (re)assigned and is re-positioned)."""
        rank = self._rank
        add = self.merge.add
        arrived = self.merge.now() if polled else 0.0
        for tp, records in polled.items():
            progress = self.progress.get(tp)
            if tp in skip or progress is None or not records:
                continue
            topic_rank = rank.get(tp.topic, len(rank))
            expected = _TYPE_OF_TOPIC[topic_rank] if topic_rank < len(_TYPE_OF_TOPIC) else None
            for record in records:
                value = record.value
                add(
                    pending(
                        tp,
                        record.offset,
                        _decode(tp, record, expected),
                        record.key,
                        seq=read_seq(record.headers) if record.headers else None,
                        topic_rank=topic_rank,
                        value=value if value is not None else b"",
                        arrived=arrived,
                    )
                )
            progress.fetched = records[-1].offset + 1

    def pause_full(self) -> None:
        limit = self.settings.max_buffered_per_partition
        buffered = self.merge.buffered
        paused = set(self.consumer.paused())
        to_pause = [tp for tp in self.progress if tp not in paused and buffered(tp) >= limit]
        to_resume = [tp for tp in paused if buffered(tp) < limit // 2]
        if to_pause:
            self.consumer.pause(*to_pause)
        if to_resume:
            self.consumer.resume(*to_resume)
        restore_parked(self.consumer)

    def caught_up(self, tp: TopicPartition) -> bool:
        progress = self.progress.get(tp)
        if progress is None or progress.fetched is None:
            return False
        highwater = self.consumer.highwater(tp)
        return highwater is not None and progress.fetched >= highwater

    def lag(self, tp: TopicPartition) -> int | None:
        """Records behind the high watermark; None until a fetch has told us where that is."""
        progress = self.progress.get(tp)
        highwater: int | None = self.consumer.highwater(tp)
        if progress is None or progress.processed is None or highwater is None:
            return None
        return max(0, highwater - progress.processed)

    def lags(self) -> dict[tuple[str, int], int | None]:
        return {(tp.topic, tp.partition): self.lag(tp) for tp in self.progress}


def _decode(
    tp: TopicPartition, record: ConsumedRecord, expected: str | None
) -> AnyEvent | Rejected:
    # The position string and raw record are only built for a rejection: the common case
    # pays for pydantic's validation alone.
    value = record.value
    try:
        if value is None:
            raise EventError("", "empty record (no value)")
        return parse_event_as(value, expected)
    except EventError as exc:
        return Rejected(raw_record(tp.topic, tp.partition, record.offset, value), exc.reason)
