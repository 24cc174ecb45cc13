"""The chat log keeps no disclosed personal data: detectors see it, the store does not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import select

from railbird.detectors.events import parse_event
from railbird.store import schema
from railbird.store.chat_rows import chat_row_from_json
from railbird.store.database import make_engine, migrate
from railbird.store.writer import StoreWriter
from tests.builders import chat


def test_disclosed_phone_and_email_are_redacted_in_the_chat_log(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'r.db'}")
    migrate(engine)
    secret = chat("call me on +44 7700 900123 or mail jo.bloggs@example.com", message_id="m-pii")
    plain = chat("nice hand, 455 chips left", message_id="m-plain")
    StoreWriter(engine).write([secret, plain])
    with engine.connect() as conn:
        rows = {r.message_id: r for r in conn.execute(select(schema.chat_messages))}
    assert "7700 900123" not in rows["m-pii"].text
    assert "jo.bloggs@example.com" not in rows["m-pii"].text
    assert rows["m-pii"].redacted is True
    assert rows["m-plain"].text == "nice hand, 455 chips left" and rows["m-plain"].redacted is False
    engine.dispose()


PII = ("jo.bloggs@example.com", "7700 900123", "4111 1111 1111 1111", "07700900123")
RECORD = {
    "type": "chat",
    "message_id": "m-all",
    "ts": "2026-11-29T18:00:00.000Z",
    "player_id": "p-1",
    "screen_name": "jo.bloggs@example.com",
    "channel": "table",
    "table_id": "t-1",
    "kind": "emoji",
    "text": "📞 +44 7700 900123",
    "phone": "+44 7700 900123",
    "contact": {"email": "jo.bloggs@example.com", "cards": ["4111 1111 1111 1111"]},
    "digits": 447700900123,
}


def _stored_text(engine: Any) -> str:
    with engine.connect() as conn:
        rows = conn.execute(select(schema.chat_messages)).mappings().all()
    return " ".join(str(dict(r)) for r in rows)


@pytest.mark.parametrize("path", ["event", "raw record (the store process)", "sqlite fast path"])
def test_no_stored_field_keeps_personal_data(tmp_path: Path, path: str) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'all.db'}")
    migrate(engine)
    raw = orjson.dumps(RECORD)
    writer = StoreWriter(engine)
    if path == "event":
        writer.write([parse_event(raw)])
    elif path == "raw record (the store process)":
        with engine.begin() as conn:
            conn.execute(schema.chat_messages.insert(), [chat_row_from_json(raw)])
    else:
        writer.write(chat_records=[raw])
    stored = _stored_text(engine)
    engine.dispose()
    assert "m-all" in stored
    leaked = [p for p in PII if p in stored or p.replace(" ", "") in stored.replace(" ", "")]
    assert not leaked, f"{path}: {leaked} in {stored}"
