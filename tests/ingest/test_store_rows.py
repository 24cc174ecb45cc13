"""The store process's pydantic-free chat row is exactly the row of the validated event."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from railbird.detectors.events import ChatEvent, parse_event
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate
from railbird.store.chat_rows import chat_row, chat_row_from_json

BASE: dict[str, Any] = {
    "type": "chat",
    "message_id": "m-1",
    "ts": "2026-11-29T20:15:03.120Z",
    "player_id": "p-1",
    "channel": "table",
    "table_id": "t-1",
    "text": "gg",
}


def _via_pydantic(raw: bytes) -> dict[str, Any]:
    event = parse_event(raw)
    assert isinstance(event, ChatEvent)
    return chat_row(event)


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"ts": "2026-11-29T20:15:03Z"},  # no fraction
        {"ts": "2026-11-29T22:15:03.5+02:00"},  # an offset: stored in UTC
        {"ts": "2026-11-29T20:15:03.1234567Z"},  # 7 digits: pydantic's own reading
        {"ts": "2026-11-29 20:15:03Z"},  # not the plain shape: pydantic's own reading
        {"text": "call me on +44 7700 900123 or mail a.b@example.com"},  # redacted
        {"kind": "emoji", "text": "call me on +44 7700 900123"},  # not text: kept as is
        {"kind": "snapcam", "text": ""},
        {"table_id": None, "channel": "private", "recipient_id": "p-9"},
        {"screen_name": "Ünïcødé ♠", "tournament_id": "trn-1"},
        {"client": {"app": "ios", "v": [1, 2]}, "lang": "de"},  # extra fields kept
        {"text": "   spaced   "},  # whitespace kept
    ],
)
def test_the_fast_chat_row_equals_the_validated_one(changes: dict[str, Any]) -> None:
    data = {**BASE, **changes}
    raw = orjson.dumps(data)
    assert chat_row_from_json(raw) == _via_pydantic(raw)


def test_missing_optional_fields_take_the_contract_defaults() -> None:
    data = {k: v for k, v in BASE.items() if k not in ("text", "table_id")}
    raw = orjson.dumps(data)
    row = chat_row_from_json(raw)
    assert row == _via_pydantic(raw)
    assert (row["kind"], row["text"], row["table_id"], row["extra"]) == ("text", "", None, None)


def test_simulated_chat_gives_the_same_rows() -> None:
    config = SimConfig(seed=4, tournaments=1, cash_tables=2, hours=0.5, players_per_tournament=45)
    raws = [
        orjson.dumps(e) for kind, e in simulate(config) if kind == "event" and e["type"] == "chat"
    ]
    assert len(raws) > 200
    assert [chat_row_from_json(r) for r in raws] == [_via_pydantic(r) for r in raws]
