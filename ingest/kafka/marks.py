"""Marks: what a stage tells the stages downstream about how far its sources have got.

A source (an input partition's table-stage task, a keyed partition's players task, ...) sends
its records in sort-key order, and every `mark_interval_ms` a mark: "nothing more from me
before T" (`kafka.lane_merge` and `rules.escalation` say what a reader does with it). One record
per downstream partition carries the marks of every source this process owns that moved, so
the cost is per process and partition, not per source. A source whose input has ended sends
`END`. A source taken over sends nothing until it has more to say: its previous owner's marks
still hold (everything before them was sent; what the new owner sends again is dropped
downstream as seen), and marks never move back.

Records and the marks after them go to a partition through one idempotent producer, which
keeps their order, so a reader has a source's records before its mark.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping
from datetime import datetime

from kafka.errors import KafkaError

from railbird.ingest.kafka.client_types import Producer
from railbird.ingest.kafka.codec import (
    END,
    HOLD,
    MARK_KEY,
    from_micros,
    marks_record,
    offence_marks_record,
)
from railbird.rules import escalation

log = logging.getLogger(__name__)


class MarkSender:
    """Marks of this process's sources to every partition of one topic."""

    def __init__(
        self,
        producer: Producer,
        topic: str,
        partitions: int,
        interval_seconds: float,
        *,
        offences: bool = False,
    ) -> None:
        self.producer = producer
        self.topic = topic
        self.partitions = partitions
        self.interval = interval_seconds
        self.offences = offences  # the escalation stage reads times, not µs
        self._sent: dict[str, int] = {}
        self._next = 0.0

    def send(self, marks: Mapping[str, int], force: bool = False) -> None:
        """The marks that moved since last sent, at most every interval (or now)."""
        now = time.monotonic()
        if not force and now < self._next:
            return
        moved = {s: m for s, m in marks.items() if self._sent.get(s) != m}
        if not moved:
            return
        self._next = now + self.interval
        self._send(moved)

    def end(self, sources: Iterable[str]) -> None:
        self._send(dict.fromkeys(sources, END))

    def forget(self, sources: Iterable[str]) -> None:
        """Sources given up: their new owner speaks for them now."""
        for source in sources:
            self._sent.pop(source, None)

    def _send(self, marks: dict[str, int]) -> None:
        if not marks or self.partitions <= 0:
            return
        if self.offences:
            value = offence_marks_record({s: _time(m) for s, m in marks.items()})
            headers = None
        else:
            value, headers = marks_record(marks)
        try:
            for partition in range(self.partitions):
                self.producer.send(
                    self.topic, key=MARK_KEY, value=value, headers=headers, partition=partition
                )
        except KafkaError as exc:  # the broker away: said again at the next interval
            log.warning("marks to %s not sent (%s): the stages downstream wait", self.topic, exc)
            return
        self._sent.update(marks)


def _time(mark: int) -> datetime:
    if mark == HOLD:
        return escalation.HOLD
    if mark == END:
        return escalation.END
    return from_micros(mark)
