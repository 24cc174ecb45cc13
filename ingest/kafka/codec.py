"""Kafka records <-> the contract and the internal topics: raw records in; keyed event, flag,
action, offence, DLQ records out; re-keyed records and marks between the stages.

Keys follow CONTRACT.md: events by `table_id` (table-less chat by `player_id`) so that a table's
chat, table events and hands land on the same partition number of their three topics; flags by
their first player id and actions by `player_id`, so one player's moderation history is ordered.

A re-keyed record (`kafka.topology`) carries its event's bytes as they came, its lane, the
source that sent it and its *sort key*: where its event stands in the stream (event time, the
file's line, the input topic, partition and offset, and which copy), so every stage downstream
orders its records exactly as the one merged stream `scan` reads, and drops a copy re-sent
after a crash. A mark says how far a source has got ("nothing more before T").
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import orjson

from railbird.detectors.findings import CATEGORIES, SEVERITY_RANK
from railbird.ingest.decode import RawRecord
from railbird.rules.actions import Action
from railbird.rules.escalation import Raised
from railbird.rules.flags import Flag
from railbird.rules.policy import Offence

# File-replay order: the producer stamps each record with its line's sequence number so the
# worker's event-time merge can break ties between topics exactly as the file ordered them.
SEQ_HEADER = "railbird-seq"
_SEQ = struct.Struct(">Q")

Headers = list[tuple[str, bytes]]


def position(partition: int, offset: int) -> str:
    return f"partition {partition} offset {offset}"


def raw_record(topic: str, partition: int, offset: int, value: bytes | None) -> RawRecord:
    return RawRecord(source=topic, position=position(partition, offset), data=value or b"")


def event_key(data: Mapping[str, object]) -> bytes | None:
    """The contract's partition key of an event: its table, else (chat) its player."""
    key = data.get("table_id") or (data.get("player_id") if data.get("type") == "chat" else None)
    return key.encode() if isinstance(key, str) and key else None


def seq_header(seq: int) -> Headers:
    return [(SEQ_HEADER, _SEQ.pack(seq))]


def read_seq(headers: Sequence[tuple[str, bytes | None]] | None) -> int | None:
    for name, value in headers or ():
        if name == SEQ_HEADER and value is not None and len(value) == _SEQ.size:
            seq: int = _SEQ.unpack(value)[0]
            return seq
    return None


def flag_record(flag: Flag) -> tuple[bytes | None, bytes]:
    key = flag.player_ids[0].encode() if flag.player_ids else None
    return key, orjson.dumps(flag.to_dict())


def action_record(action: Action) -> tuple[bytes, bytes]:
    """An action the rules just took: `status` "applied" (the outbox relay sends its later
    "lifted" and "expired" states, `store.outbox`)."""
    return action.player_id.encode(), orjson.dumps({**action.to_dict(), "status": "applied"})


MARK_KEY = b"~mark"


def offence_record(raised: Raised) -> tuple[bytes, bytes]:
    """An offence for the escalation stage, keyed by its player; times in full precision
    (the ladder's windows compare them)."""
    o = raised.offence
    value = {
        "flag_id": o.flag_id,
        "category": o.category,
        "severity": o.severity,
        "ts": o.ts.isoformat(),
        "player_id": o.player_id,
        "medium": o.medium,
        "level": o.level,
        "at": raised.at.isoformat(),
        "place": list(raised.place),
    }
    return o.player_id.encode(), orjson.dumps(value)


def offence_marks_record(marks: Mapping[str, datetime]) -> bytes:
    """Several sources' marks for the escalation stage, in one record."""
    return orjson.dumps({"marks": {source: until.isoformat() for source, until in marks.items()}})


class OffenceRecordError(ValueError):
    """A record of the offences topic that is neither an offence nor a mark."""


def read_offence_record(value: bytes | None) -> Raised | dict[str, datetime]:
    """An offence, or marks as {source: until}."""
    try:
        data = orjson.loads(value or b"")
        if "marks" in data:
            return {str(source): _aware(until) for source, until in data["marks"].items()}
        kind, event_id, index = data["place"]
        offence = Offence(
            str(data["flag_id"]),
            str(data["category"]),
            str(data["severity"]),
            _aware(data["ts"]),
            str(data["player_id"]),
            str(data.get("medium", "text")),
            None if data.get("level") is None else str(data["level"]),
        )
        if offence.severity not in SEVERITY_RANK or offence.category not in CATEGORIES:
            raise ValueError(f"unknown severity or category in {offence}")
        return Raised(offence, _aware(data["at"]), (str(kind), str(event_id), int(index)))
    except (
        orjson.JSONDecodeError,
        AttributeError,
        KeyError,
        TypeError,
        ValueError,
        OverflowError,
    ) as exc:
        raise OffenceRecordError(f"not an offence or marks: {exc}") from exc


def _aware(text: object) -> datetime:
    when = datetime.fromisoformat(str(text))
    if when.tzinfo is None:
        raise ValueError(f"time without a zone: {text!r}")
    return when


# A dead letter must always fit: kafka-python refuses a request over its 1 MB
# `max_request_size` and brokers default to a 1 MB `message.max.bytes`, while a topic may
# accept bigger records. A bigger bad record goes to the DLQ cut to this size, its real size in
# the `original_size` header, so the partition can never stall on it.
DLQ_MAX_VALUE_BYTES = 256 * 1024
DLQ_MAX_KEY_BYTES = 1024
_MAX_REASON_BYTES = 1024


def dead_letter_value(data: bytes) -> bytes:
    return data[:DLQ_MAX_VALUE_BYTES]


def dead_letter_key(key: bytes | None) -> bytes | None:
    return None if key is None else key[:DLQ_MAX_KEY_BYTES]


def dlq_headers(
    reason: str, topic: str, partition: int, offset: int, original_size: int | None = None
) -> Headers:
    headers = [
        ("reason", reason.encode("utf-8", "replace")[:_MAX_REASON_BYTES]),
        ("source_topic", topic.encode()),
        ("source_partition", str(partition).encode()),
        ("source_offset", str(offset).encode()),
    ]
    if original_size is not None:
        headers.append(("original_size", str(original_size).encode()))
        headers.append(("truncated", b"1" if original_size > DLQ_MAX_VALUE_BYTES else b"0"))
    return headers


def header_dict(headers: Sequence[tuple[str, bytes | None]] | None) -> dict[str, str]:
    return {name: (value or b"").decode("utf-8", "replace") for name, value in headers or ()}


# ---- re-keyed records and marks between the stages ------------------------------------------

# (event time in µs since 1970, the file's line or -1, input topic rank, input partition,
# input offset, copy): unique per record, and the order of `scan`'s stream (time, then line).
SortKey = tuple[int, int, int, int, int, int]
_SORT_KEY = struct.Struct(">qqqqqq")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
# A source's mark before it has said anything since (re)starting, and once it has ended.
HOLD = -(2**62)
END = 2**62

# A re-keyed record carries one header, `rb`: its lane, role, source and sort key, packed.
LANE_HEADER = "rb"
MARKS_HEADER = "rb-marks"
_LANE = struct.Struct(">ccci" + "q" * 6)  # lane, role, source kind, source number, sort key
_SOURCE_KINDS = {"tables": b"t", "players": b"p"}
_KIND_NAMES = {code: name for name, code in _SOURCE_KINDS.items()}
_ROLES = {"": b"-", "dealt": b"d", "joined": b"j", "sender": b"s", "recipient": b"r"}
_ROLE_NAMES = {code: name for name, code in _ROLES.items()}
_source_names: dict[tuple[bytes, int], str] = {}


def micros(when: datetime) -> int:
    """`when` as whole microseconds since 1970 (exact, unlike a float timestamp)."""
    return (when - _EPOCH) // _MICROSECOND


def from_micros(value: int) -> datetime:
    return _EPOCH + timedelta(microseconds=value)


def pack_key(key: SortKey) -> bytes:
    return _SORT_KEY.pack(*key)


def unpack_key(data: bytes) -> SortKey:
    time, seq, rank, partition, offset, copy = _SORT_KEY.unpack(data)
    return (time, seq, rank, partition, offset, copy)


def lane_headers(lane: str, source: str, key: SortKey, role: str = "") -> Headers:
    """The header of a re-keyed record (`source`: "tables:<n>" or "players:<n>")."""
    kind, _, number = source.partition(":")
    packed = _LANE.pack(lane.encode(), _ROLES[role], _SOURCE_KINDS[kind], int(number), *key)
    return [(LANE_HEADER, packed)]


@dataclass(frozen=True, slots=True)
class LaneRecord:
    """A re-keyed record as a stage downstream reads it."""

    lane: str
    source: str
    key: SortKey
    role: str
    value: bytes
    routing_key: bytes  # the record's key: the tournament, text or player it is about


class LaneRecordError(ValueError):
    """A record of an internal topic that is neither a re-keyed record nor marks."""


def marks_record(marks: Mapping[str, int]) -> tuple[bytes, Headers]:
    """(value, headers) of one record carrying several sources' marks (µs, or HOLD / END)."""
    return orjson.dumps(dict(marks)), [(MARKS_HEADER, b"1")]


def read_lane_record(
    headers: Sequence[tuple[str, bytes | None]] | None, value: bytes | None, key: bytes | None
) -> LaneRecord | dict[str, int]:
    """A re-keyed record, or marks as {source: µs}."""
    try:
        for name, data in headers or ():
            if name == LANE_HEADER and data is not None:
                lane, role, kind, number, *sort = _LANE.unpack(data)
                source = _source_names.get((kind, number))
                if source is None:
                    source = _source_names[(kind, number)] = f"{_KIND_NAMES[kind]}:{number}"
                return LaneRecord(
                    lane.decode(),
                    source,
                    (sort[0], sort[1], sort[2], sort[3], sort[4], sort[5]),
                    _ROLE_NAMES[role],
                    value or b"",
                    key or b"",
                )
            if name == MARKS_HEADER:
                marks = orjson.loads(value or b"")
                return {str(source): int(until) for source, until in marks.items()}
        raise ValueError("no railbird header")
    except (
        orjson.JSONDecodeError,
        AttributeError,
        KeyError,
        TypeError,
        ValueError,
        UnicodeDecodeError,
        struct.error,
    ) as exc:
        raise LaneRecordError(f"not a re-keyed record or marks: {exc!r}") from exc
