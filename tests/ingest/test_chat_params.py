"""The store process's raw-record chat insert stores exactly what the reference path stores.

Reference: `store.upsert.upsert` of `chat_row(parse_event(raw))` (pydantic, SQLAlchemy's own
binding). New: `StoreWriter.write(chat_records=...)`, which builds the SQLite driver tuples
straight from the JSON. Compared: every column of every row, its SQLite storage class, and its
rowid (the insertion order investigators see without an ORDER BY).
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import Engine, select
from sqlalchemy.dialects import sqlite

from bench.kafka_runs import chat_messages, with_distinct_texts
from railbird.detectors.events import ChatEvent, parse_event
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate
from railbird.store import schema
from railbird.store.bulk_upsert import driver_params
from railbird.store.chat_rows import chat_params_builder, chat_row, chat_row_from_json
from railbird.store.database import make_engine, migrate
from railbird.store.upsert import upsert
from railbird.store.writer import StoreWriter
from tests.integration.postgres_server import postgres_url

BASE: dict[str, Any] = {
    "type": "chat",
    "message_id": "m-1",
    "ts": "2026-11-29T20:15:03.120Z",
    "player_id": "p-1",
    "screen_name": "Ace",
    "channel": "table",
    "table_id": "t-1",
    "tournament_id": None,
    "recipient_id": None,
    "kind": "text",
    "text": "gg",
}
PII = [
    "call me on +44 7700 900123 or mail a.b@example.com",
    "my card 4111 1111 1111 1111 exp 12/29",
    "i live at 221 baker street, come by",
    "jo dot bloggs at gmail dot com",
    "hand #1234567890123 was sick",  # a hand id: near-miss, kept
    "455 chips left, 1200 at the 9th",  # numbers but no phone: kept
    "ring 0207 946 0018 📞",
]
CHANGES: list[dict[str, Any]] = [
    {},
    {"ts": "2026-11-29T20:15:03Z"},  # no fraction
    {"ts": "2026-11-29T20:15:03.1Z"},
    {"ts": "2026-11-29T20:15:03.12Z"},
    {"ts": "2026-11-29T20:15:03.1234Z"},
    {"ts": "2026-11-29T20:15:03.12345Z"},
    {"ts": "2026-11-29T20:15:03.123456Z"},
    {"ts": "2026-11-29T20:15:03.000Z"},
    {"ts": "2026-12-31T23:59:59.999Z"},
    {"ts": "1990-01-01T00:00:00.000Z"},  # the earliest time the contract accepts
    {"ts": "2026-11-29T20:15:03.1234567Z"},  # 7 digits: pydantic's reading
    {"ts": "2026-11-29T22:15:03.5+02:00"},  # offsets: stored in UTC
    {"ts": "2026-11-29T01:15:03.120-05:30"},  # the day before in UTC
    {"ts": "2026-11-29T20:15:03.120+00:00"},
    {"ts": "2026-11-29T20:15:03.120z"},  # lower-case z
    {"ts": "2026-11-29 20:15:03.120Z"},  # space separator
    {"ts": "2026-11-29t20:15:03.120Z"},
    *({"text": text} for text in PII),
    *({"kind": kind, "text": text} for kind in ("emoji", "snapcam") for text in PII[:2]),
    {"kind": "emoji", "text": "😀🂡"},
    {"kind": "snapcam", "text": ""},
    {"table_id": None, "channel": "private", "recipient_id": "p-9"},
    {"screen_name": "Ünïcødé ♠", "tournament_id": "trn-1", "channel": "tournament"},
    {"client": {"app": "ios", "v": [1, 2.5, None, True]}, "lang": "de"},  # extra fields kept
    {"zz": None},  # an extra field that is null
    {"note": "é\u2028\x00"},
    {"text": "   spaced   "},
    {"text": ""},
]


def _drop(*keys: str) -> dict[str, Any]:
    return {k: v for k, v in BASE.items() if k not in keys}


def _edge_records() -> list[bytes]:
    out = [orjson.dumps({**BASE, **c, "message_id": f"m-e{i}"}) for i, c in enumerate(CHANGES)]
    # Missing optional fields take the contract's defaults.
    for i, missing in enumerate(
        [("text",), ("kind",), ("kind", "text"), ("screen_name", "table_id", "tournament_id")]
    ):
        out.append(orjson.dumps({**_drop(*missing), "message_id": f"m-miss{i}"}))
    # Extra fields before the contract's, and the contract's in another order.
    data = {"extra_first": 1, **dict(reversed(list(BASE.items()))), "message_id": "m-order"}
    out.append(orjson.dumps(data))
    return out


def _random_records(seed: int, count: int) -> list[bytes]:
    rng = random.Random(seed)
    times = [
        "2026-11-29T20:15:03.120Z",
        "2026-01-01T00:00:00Z",
        "2026-06-15T12:30:45.6Z",
        "2026-06-15T12:30:45.654321Z",
        "2026-06-15T14:30:45.654+02:00",
        "2026-06-14T23:30:45-00:30",
    ]
    texts = [*PII, "gg", "nh", "ty", "😀", "", "call me", "555-123-4567"]
    out = []
    for i in range(count):
        data: dict[str, Any] = {"type": "chat", "message_id": f"m-r{i % (count - 7)}"}
        data["ts"] = rng.choice(times)
        data["player_id"] = f"p-{rng.randrange(20)}"
        data["channel"] = rng.choice(["table", "tournament", "lobby", "private"])
        for key in ("screen_name", "table_id", "tournament_id", "recipient_id"):
            if rng.random() < 0.6:
                data[key] = rng.choice([None, f"{key[:2]}-{rng.randrange(9)}"])
        if rng.random() < 0.8:
            data["kind"] = rng.choice(["text", "text", "emoji", "snapcam"])
        if rng.random() < 0.9:
            data["text"] = rng.choice(texts)
        if rng.random() < 0.2:
            data[rng.choice(["lang", "client", "seq"])] = rng.choice(["de", {"a": [1]}, 7, None])
        items = list(data.items())
        rng.shuffle(items)
        out.append(orjson.dumps(dict(items)))
    return out


def _engine(path: Path) -> Engine:
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    return engine


def _write_reference(engine: Engine, records: Sequence[bytes]) -> None:
    rows = []
    for raw in records:
        event = parse_event(raw)
        assert isinstance(event, ChatEvent)
        rows.append(chat_row(event))
    with engine.begin() as conn:
        upsert(conn, schema.chat_messages, rows, ["message_id"])


def _stored(path: Path) -> list[tuple[Any, ...]]:
    columns = list(schema.chat_messages.c.keys())
    kinds = ", ".join(f"typeof({c})" for c in columns)
    with sqlite3.connect(path) as conn:
        return conn.execute(
            f"SELECT rowid, {', '.join(columns)}, {kinds} FROM chat_messages ORDER BY rowid"
        ).fetchall()


def _assert_same_store(tmp_path: Path, batches: Sequence[Sequence[bytes]]) -> None:
    reference, fast = tmp_path / "reference.db", tmp_path / "fast.db"
    engines = _engine(reference), _engine(fast)
    writer = StoreWriter(engines[1])
    for batch in batches:
        _write_reference(engines[0], batch)
        writer.write(chat_records=batch)
    for engine in engines:
        engine.dispose()
    expected = _stored(reference)
    assert len(expected) == len({orjson.loads(r)["message_id"] for b in batches for r in b})
    assert _stored(fast) == expected


@pytest.fixture(scope="module")
def sqlite_params() -> Any:
    built = chat_params_builder(make_engine("sqlite://").dialect)
    assert built is not None
    return built


def _reference_params(compiled: Any, raw: bytes) -> tuple[Any, ...]:
    event = parse_event(raw)
    assert isinstance(event, ChatEvent)
    return tuple(driver_params(compiled, [chat_row(event)])[0])


def _typed(values: Sequence[Any]) -> list[tuple[type, Any]]:
    return [(type(v), v) for v in values]


def test_each_edge_record_binds_the_reference_tuple(sqlite_params: Any) -> None:
    compiled, params_of = sqlite_params
    for raw in [*_edge_records(), *_random_records(3, 400)]:
        assert _typed(params_of(raw)) == _typed(_reference_params(compiled, raw)), raw


def test_edge_records_and_their_replay_store_the_same_rows(tmp_path: Path) -> None:
    records = _edge_records()
    # The same batch again (a replay after a crash) must change nothing, in either store.
    _assert_same_store(tmp_path, [records, records[::-1]])


def test_random_records_with_repeated_ids_store_the_same_rows(tmp_path: Path) -> None:
    records = _random_records(11, 600)  # ids repeat inside the batch: the first one wins
    _assert_same_store(tmp_path, [records[:250], records[250:], records[100:300]])


def test_the_bench_stream_stores_the_same_rows(tmp_path: Path) -> None:
    messages = chat_messages(3000, seed=5)
    records = [orjson.dumps(m) for m in [*messages[:1500], *with_distinct_texts(messages, 6)]]
    _assert_same_store(tmp_path, [records[:2000], records[2000:]])


def _simulated_chat(config: SimConfig) -> Iterator[bytes]:
    for kind, event in simulate(config):
        if kind == "event" and event["type"] == "chat":
            yield orjson.dumps(event)


def test_a_simulated_day_stores_the_same_rows(tmp_path: Path) -> None:
    records = list(_simulated_chat(SimConfig(seed=1)))
    assert len(records) > 5000
    _assert_same_store(tmp_path, [records[i : i + 3000] for i in range(0, len(records), 3000)])


def test_event_chat_is_stored_after_the_records_in_one_insert(tmp_path: Path) -> None:
    records = _edge_records()[:5]
    late = parse_event(orjson.dumps({**BASE, "message_id": "m-late", "text": "mail a@b.co"}))
    dup = parse_event(records[0])  # already among the records: the record's row wins
    assert isinstance(late, ChatEvent) and isinstance(dup, ChatEvent)
    reference, fast = tmp_path / "reference.db", tmp_path / "fast.db"
    engines = _engine(reference), _engine(fast)
    with engines[0].begin() as conn:
        rows = [chat_row_from_json(r) for r in records] + [chat_row(late), chat_row(dup)]
        upsert(conn, schema.chat_messages, rows, ["message_id"])
    StoreWriter(engines[1]).write([late, dup], chat_records=records)
    for engine in engines:
        engine.dispose()
    assert _stored(fast) == _stored(reference)
    assert [r[1] for r in _stored(fast)][-1] == "m-late"


@pytest.mark.parametrize(
    "ts",
    ["2026-02-30T10:00:00Z", "2026-11-29T24:00:00Z", "2026-11-29T23:59:60.5Z"],
)
def test_an_impossible_time_fails_as_the_row_path_does(sqlite_params: Any, ts: str) -> None:
    _compiled, params_of = sqlite_params
    raw = orjson.dumps({**BASE, "ts": ts})
    with pytest.raises(ValueError):
        chat_row_from_json(raw)
    with pytest.raises(ValueError):
        params_of(raw)


def test_postgresql_binds_chat_rows_through_sqlalchemy() -> None:
    assert chat_params_builder(make_engine("postgresql://u@localhost/x").dialect) is None
    assert chat_params_builder(sqlite.dialect()) is not None


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    yield from postgres_url()


@pytest.mark.postgres
def test_chat_records_into_postgresql_store_the_reference_rows(pg_url: str) -> None:
    records = [*_edge_records(), *_random_records(5, 200)]
    engine = make_engine(pg_url)
    migrate(engine)
    StoreWriter(engine).write(chat_records=records)
    with engine.connect() as conn:
        fast = conn.execute(select(schema.chat_messages)).all()
        conn.execute(schema.chat_messages.delete())
        conn.commit()
    _write_reference(engine, records)
    with engine.connect() as conn:
        reference = conn.execute(select(schema.chat_messages)).all()
    engine.dispose()
    assert sorted(fast, key=repr) == sorted(reference, key=repr)
    assert len(fast) == len({orjson.loads(r)["message_id"] for r in records})
