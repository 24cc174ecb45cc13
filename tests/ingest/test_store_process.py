"""The store process writes what the worker hands it and acknowledges only durable writes."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from sqlalchemy import select

from railbird.store import schema
from railbird.store.database import make_engine, migrate
from railbird.store.writer_process import StoreFailedError, StoreProcess

CHAT = {
    "type": "chat",
    "message_id": "m-1",
    "ts": "2026-11-29T20:15:03.120Z",
    "player_id": "p-1",
    "channel": "table",
    "table_id": "t-1",
    "text": "call me on +44 7700 900123",
}
TABLE = {
    "type": "table",
    "event_id": "e-1",
    "ts": "2026-11-29T20:15:04Z",
    "table_id": "t-1",
    "action": "join",
    "player_id": "p-2",
    "seat": 2,
}


def test_writes_are_stored_then_acknowledged_in_order(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    engine = make_engine(url)
    migrate(engine)
    store = StoreProcess(url)
    try:
        store.add([("chat", orjson.dumps(CHAT))], [], [])
        first = store.flush()
        store.add_dead_letter("chat.messages", "partition 0 offset 7", "bad", "{")
        second = store.flush()
        store.add([("table", orjson.dumps(TABLE))], [], [])
        third = store.flush()
        assert (first, second, third) == (1, 2, 3)
        store.wait()
        assert store.durable() == 3
    finally:
        store.close()
    with engine.connect() as conn:
        chats = conn.execute(select(schema.chat_messages)).all()
        tables = conn.execute(select(schema.table_events.c.event_id)).scalars().all()
        dead = conn.execute(select(schema.dead_letters.c.position)).scalars().all()
    engine.dispose()
    assert [(c.message_id, c.text, c.redacted) for c in chats] == [
        ("m-1", "call me on [phone]", True)
    ]
    assert tables == ["e-1"]
    assert dead == ["partition 0 offset 7"]


def test_a_failed_write_is_never_acknowledged(tmp_path: Path) -> None:
    store = StoreProcess(f"sqlite:///{tmp_path / 'no-schema.db'}")  # no tables: writes fail
    try:
        store.add([("chat", orjson.dumps(CHAT))], [], [])
        store.flush()
        with pytest.raises(StoreFailedError, match="no such table"):
            store.wait()
        with pytest.raises(StoreFailedError):
            store.durable()
    finally:
        store.close(timeout=10)  # returns although the child is gone
