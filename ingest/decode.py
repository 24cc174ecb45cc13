"""Raw record -> contract event, or a rejection that says what was wrong and where."""

from __future__ import annotations

from dataclasses import dataclass

from railbird.detectors.events import (
    AnyEvent,
    EventError,
    parse_event,
)


@dataclass(frozen=True, slots=True)
class RawRecord:
    """One undecoded record and where it came from, so a rejection can name the place."""

    source: str  # file name or topic
    position: str  # "line 12" or "partition 3 offset 1200"
    data: bytes


@dataclass(frozen=True, slots=True)
class Rejected:
    record: RawRecord
    reason: str

    def describe(self) -> str:
        return f"{self.record.source} {self.record.position}: {self.reason}"


def decode(record: RawRecord) -> AnyEvent | Rejected:
    try:
        return parse_event(record.data, where=record.position)
    except EventError as exc:
        return Rejected(record, exc.reason)
