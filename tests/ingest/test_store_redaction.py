"""The chat log keeps no disclosed personal data: detectors see it, the store does not."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from railbird.store import schema
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
