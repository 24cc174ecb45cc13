"""Kafka records <-> the contract: raw records in; keyed event, flag, action, DLQ records out.

Keys follow CONTRACT.md: events by `table_id` (table-less chat by `player_id`) so that a table's
chat, table events and hands land on the same partition number of their three topics; flags by
their first player id and actions by `player_id`, so one player's moderation history is ordered.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from datetime import datetime

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


def mark_record(source: str, until: datetime) -> bytes:
    return orjson.dumps({"mark": source, "until": until.isoformat()})


class OffenceRecordError(ValueError):
    """A record of the offences topic that is neither an offence nor a mark."""


def read_offence_record(value: bytes | None) -> Raised | tuple[str, datetime]:
    """An offence, or a mark as (source, until)."""
    try:
        data = orjson.loads(value or b"")
        if "mark" in data:
            return str(data["mark"]), _aware(data["until"])
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
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError, OverflowError) as exc:
        raise OffenceRecordError(f"not an offence or a mark: {exc}") from exc


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
