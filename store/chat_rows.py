"""Chat events as `chat_messages` rows, and for SQLite straight as the insert's driver tuples.

Why the tuples: the store process receives every chat line the worker validated, as raw bytes.
Making a row dict of it and then the driver's tuple of the dict (`bulk_upsert`'s processor
loop) cost about half as much again as SQLite's own insert. `chat_params_builder` reads the JSON
once and emits, for the plain shape of record (a `...Z` time), exactly the tuple `bulk_upsert`
binds for `chat_row_from_json`'s row; anything else goes through that row, so it is the same.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import Dialect

from railbird.detectors.events import ChatEvent, parse_event
from railbird.detectors.text.bidi import visible_controls
from railbird.detectors.text.redaction import redact
from railbird.store import schema
from railbird.store.bulk_upsert import CompiledUpsert, compiled_upsert, driver_params

# The keys of `chat_row`, in its order: the column order of the compiled chat insert.
CHAT_COLUMNS = (
    "message_id",
    "ts",
    "player_id",
    "screen_name",
    "channel",
    "table_id",
    "tournament_id",
    "recipient_id",
    "kind",
    "text",
    "redacted",
    "extra",
)
CHAT_KEYS = ("message_id",)


def chat_row(e: ChatEvent) -> dict[str, Any]:
    # Disclosed personal data (phones, emails, card numbers, addresses) is not kept, in any
    # field that can hold it (the text of every kind, the screen name, unknown extra fields):
    # the detectors saw the raw record, the chat log keeps the redacted one. Bidi controls are
    # kept as visible marks ("⟨RLO⟩"): what analysts read is what was sent, in sent order.
    text = redact_text(e.text) if e.text else e.text
    return {
        "message_id": e.message_id,
        "ts": e.ts,
        "player_id": e.player_id,
        "screen_name": redact_name(e.screen_name),
        "channel": e.channel,
        "table_id": e.table_id,
        "tournament_id": e.tournament_id,
        "recipient_id": e.recipient_id,
        "kind": e.kind,
        "text": text,
        "redacted": text != e.text,
        "extra": redact_extra(e.model_extra) if e.model_extra else None,
    }


# An unknown extra field holding a number this long may be a phone or card number: not kept.
LONG_NUMBER_DIGITS = 9


def redact_name(name: str | None) -> str | None:
    """A screen name with disclosed personal data redacted (an email as a name, say)."""
    return None if not name else redact_text(name)


def redact_extra(extra: dict[str, Any]) -> dict[str, Any]:
    """Unknown extra fields with personal data redacted in every string, and every number of
    `LONG_NUMBER_DIGITS` digits or more replaced, however deeply nested."""
    return {redact_text(str(k)): _redact_value(v) for k, v in extra.items()}


def _redact_value(value: Any) -> Any:
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        text = str(value)
        if sum(c.isdigit() for c in text) >= LONG_NUMBER_DIGITS:
            return "[number]"  # a phone or card number sent as digits, unlabelled
        return value
    if isinstance(value, dict):
        return redact_extra(value)
    if isinstance(value, list):
        return [_redact_value(v) for v in value]
    return value


_CHAT_FIELDS = frozenset(ChatEvent.model_fields)
# The plain RFC 3339 shape, which `datetime.fromisoformat` reads exactly as pydantic does.
_RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?(?:Z|[+-]\d\d:\d\d)")


def chat_row_from_json(raw: bytes) -> dict[str, Any]:
    """`chat_row` of the chat event in `raw`, which was already validated as one.

    Why: the Kafka worker's store process re-reads every chat record it stores; pydantic's
    validation there (already done once by the worker) was a quarter of that process's time.
    Anything but the plain time shape goes through pydantic, so the row is always the same.
    """
    data = orjson.loads(raw)
    ts = data["ts"]
    if type(ts) is not str or not _RFC3339.fullmatch(ts):
        event = parse_event(raw)
        assert isinstance(event, ChatEvent)
        return chat_row(event)
    raw_text = data.get("text", "")
    kind = data.get("kind", "text")
    text = redact_text(raw_text) if raw_text else raw_text
    extra = {k: v for k, v in data.items() if k not in _CHAT_FIELDS}
    return {
        "message_id": data["message_id"],
        "ts": datetime.fromisoformat(ts).astimezone(UTC),
        "player_id": data["player_id"],
        "screen_name": redact_name(data.get("screen_name")),
        "channel": data["channel"],
        "table_id": data.get("table_id"),
        "tournament_id": data.get("tournament_id"),
        "recipient_id": data.get("recipient_id"),
        "kind": kind,
        "text": text,
        "redacted": text != raw_text,
        "extra": redact_extra(extra) if extra else None,
    }


# `redact` of recent short texts. Table chat repeats itself ("gg", "nh", "ty") and `redact` is
# a pure function of the text; emptied when full (a plain dict: a miss costs less than an LRU's).
_REDACTED: dict[str, str] = {}
_MEMO_SIZE = 8192
_MEMO_MAX_CHARS = 256


def kept_for_analysts(text: str) -> str:
    """What the chat log keeps of `text`: personal data redacted, then bidi controls shown
    as marks (`bidi.visible_controls`), so no stored line can turn the analyst's screen round."""
    return visible_controls(redact(text))


def redact_text(text: str) -> str:
    """`kept_for_analysts`, memoised per exact short text. (`params` below inlines this.)"""
    if len(text) > _MEMO_MAX_CHARS:
        return kept_for_analysts(text)
    redacted = _REDACTED.get(text)
    if redacted is None:
        if len(_REDACTED) >= _MEMO_SIZE:
            _REDACTED.clear()
        redacted = _REDACTED[text] = kept_for_analysts(text)
    return redacted


# A UTC time in ASCII digits: with `fromisoformat` accepting it (a real date and time), its
# stored form is its own characters, the fraction padded to microseconds.
_PLAIN_UTC = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})?Z")


ChatParams = Callable[[bytes], tuple[Any, ...]]


def chat_params_builder(dialect: Dialect) -> tuple[CompiledUpsert, ChatParams] | None:
    """The compiled chat upsert and a function from a validated raw chat record to its driver
    parameters, or None if this dialect binds a chat row other than as SQLite does."""
    compiled = compiled_upsert(dialect, schema.chat_messages, CHAT_COLUMNS, CHAT_KEYS)
    if compiled is None or not _binds_as_expected(compiled):
        return None
    flag = compiled.processors[10]
    to_json = compiled.processors[11]
    assert flag is not None and to_json is not None
    flags = (flag(False), flag(True))
    no_extra = compiled.none_values[11]
    loads, plain, fromiso, fields = (
        orjson.loads,
        _PLAIN_UTC.fullmatch,
        datetime.fromisoformat,
        _CHAT_FIELDS,
    )
    memo_get = _REDACTED.get

    def params(raw: bytes) -> tuple[Any, ...]:
        data = loads(raw)
        ts = data["ts"]
        if type(ts) is not str or not plain(ts):
            return tuple(driver_params(compiled, [chat_row_from_json(raw)])[0])
        fromiso(ts)  # an impossible date or time fails here as it does in `chat_row_from_json`
        size = len(ts)
        if size == 24:  # milliseconds, the usual: one "T" and one "Z" in it
            stamp = ts.replace("T", " ").replace("Z", "000")
        elif size == 20:
            stamp = f"{ts[:10]} {ts[11:19]}.000000"
        else:
            stamp = f"{ts[:10]} {ts[11 : size - 1]:0<15}"
        raw_text = data.get("text", "")
        kind = data.get("kind", "text")
        text = memo_get(raw_text)
        if text is None:
            text = redact_text(raw_text)
        name = data.get("screen_name")
        if name:
            shown = memo_get(name)
            name = shown if shown is not None else redact_text(name)
        return (
            data["message_id"],
            stamp,
            data["player_id"],
            name,
            data["channel"],
            data.get("table_id"),
            data.get("tournament_id"),
            data.get("recipient_id"),
            kind,
            text,
            flags[text != raw_text],
            no_extra
            if data.keys() <= fields
            else to_json(redact_extra({k: v for k, v in data.items() if k not in fields})),
        )

    return compiled, params


def _binds_as_expected(compiled: CompiledUpsert) -> bool:
    """Positional, in `chat_row`'s order, `ts` written by `isoformat`, every other column but
    `redacted` and `extra` bound as is (None too)."""
    plain = [i for i in range(len(CHAT_COLUMNS)) if i not in (1, 10, 11)]
    return (
        compiled.positional
        and compiled.names == CHAT_COLUMNS
        and compiled.iso_datetimes == frozenset({1})
        and compiled.processors[10] is not None
        and compiled.processors[11] is not None
        and compiled.none_values[1] is None
        and compiled.none_values[10] is None
        and all(compiled.processors[i] is None and compiled.none_values[i] is None for i in plain)
    )
