"""Disguised personal data ("jo at example dot com", a full-width at sign, digits in words,
an address reversed behind a right-to-left override) is in no stored row and no answer: the
messages go through the pipeline into the store as `scan --store` puts them, then every table
is read and every route that can show chat is asked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from railbird.api.app import create_app
from railbird.ingest.decode import RawRecord
from railbird.store import schema
from railbird.store.database import make_engine, migrate
from tests.api.conftest import KEYS, auth, store_as_scan_does

RLO = "\u202e"
# What was disclosed, and pieces of it no stored or answered text may hold.
MESSAGES = {
    "m-pii-1": ("mail me: jo.bloggs at example dot com", ["jo.bloggs", "example dot com"]),
    "m-pii-2": ("jo.bloggs\uff20example\uff0ecom is me", ["jo.bloggs", "example\uff0ecom"]),
    "m-pii-3": (
        "text me five five five one two three four five six seven",
        ["five five five one two three"],
    ),
    "m-pii-4": ("pisz: jan małpa przyklad kropka pl", ["jan małpa", "przyklad kropka"]),
    "m-pii-5": (f"{RLO}moc.elpmaxe@sggolb.oj", ["sggolb", "elpmaxe"]),
    "m-pii-6": ("my number is +44 7700 900123 you idiot", ["7700 900123"]),
}
PLAYER = "p-pii"


def _record(message_id: str, text: str, n: int) -> dict[str, Any]:
    return {
        "type": "chat",
        "message_id": message_id,
        "ts": f"2026-11-29T20:15:{n:02d}.000Z",
        "player_id": PLAYER,
        "screen_name": "jo at example dot com",
        "channel": "table",
        "table_id": "t-pii",
        "kind": "text",
        "text": text,
        "contact": {"backup": "five five five one two three four five six seven"},
    }


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path: Path = tmp_path_factory.mktemp("pii") / "pii.db"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    records = [
        RawRecord("pii.jsonl", f"line {n}", orjson.dumps(_record(m, text, n)))
        for n, (m, (text, _)) in enumerate(MESSAGES.items(), start=1)
    ]
    # A record the pipeline refuses (a bad time) with a disguised address: a dead letter.
    bad = {**_record("m-pii-bad", "jo.bloggs at example dot com", 0), "ts": "yesterday"}
    records.append(RawRecord("pii.jsonl", "line 99", orjson.dumps(bad)))
    store_as_scan_does(engine, records)
    with TestClient(create_app(engine, KEYS)) as test_client:
        yield test_client
    engine.dispose()


def _leaks(text: str) -> list[str]:
    pieces = [p for _text, found in MESSAGES.values() for p in found]
    return [p for p in pieces if p in text]


def test_no_stored_row_holds_the_disguised_data(client: TestClient) -> None:
    engine = client.app.state.engine  # type: ignore[attr-defined]
    dumped = []
    with engine.connect() as conn:
        for table in schema.metadata.sorted_tables:
            dumped += [str(tuple(row)) for row in conn.execute(select(table))]
        stored = conn.execute(
            select(schema.chat_messages.c.message_id, schema.chat_messages.c.text)
        ).all()
    assert {m for m, _t in stored} == set(MESSAGES), "every message was stored"
    everything = "\n".join(dumped)
    assert not _leaks(everything)
    assert "jo at example dot com" not in everything  # the screen name
    assert "five five five" not in everything  # the extra field
    texts = dict(stored)
    assert texts["m-pii-1"] == "mail me: [email]"
    assert texts["m-pii-3"] == "text me [phone]"
    assert texts["m-pii-5"] == "\u27e8RLO\u27e9[email]"


def test_no_answer_holds_the_disguised_data(client: TestClient) -> None:
    admin = auth("admin")
    answers = []
    flags = client.get("/v1/flags", params={"player_id": PLAYER}, headers=admin).json()["items"]
    assert flags, "the insult and the plain phone number are flagged"
    answers.append(str(flags))
    for flag in flags:
        answers.append(client.get(f"/v1/flags/{flag['flag_id']}/context", headers=admin).text)
    answers.append(client.get(f"/v1/players/{PLAYER}/history", headers=admin).text)
    answers.append(client.get("/v1/queue", params={"player_id": PLAYER}, headers=admin).text)
    dead = client.get("/v1/dead-letters", headers=admin)
    assert dead.json()["items"], "the bad record was set aside"
    answers.append(dead.text)
    for text, _pieces in MESSAGES.values():
        check = client.post(
            "/v1/chat/check",
            json={"player_id": "p-check", "text": text},
            headers=auth("chat_service"),
        )
        answers.append(check.text)
    leaked = [(n, _leaks(a)) for n, a in enumerate(answers) if _leaks(a)]
    assert not leaked, leaked
