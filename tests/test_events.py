"""The contract's events are validated at the edge with errors that say what and where."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from railbird.detectors.events import ChatEvent, EventError, HandEvent, TableEvent, parse_event
from tests.paths import EXAMPLES

CHAT = (
    '{"type": "chat", "message_id": "m-1", "ts": "2026-11-29T20:15:03.120Z", "player_id": "p-42",'
    ' "screen_name": "AceHunter", "channel": "table", "table_id": "t-7", "tournament_id": "trn-3",'
    ' "recipient_id": null, "kind": "text", "text": "nh, sick river"}'
)


def test_chat_event_parses_with_utc_time() -> None:
    event = parse_event(CHAT)
    assert isinstance(event, ChatEvent)
    assert event.ts == datetime(2026, 11, 29, 20, 15, 3, 120000, tzinfo=UTC)
    assert event.time == event.ts and event.event_id == "m-1"


def test_offset_times_are_converted_to_utc() -> None:
    event = parse_event(CHAT.replace("2026-11-29T20:15:03.120Z", "2026-11-29T21:15:03.120+01:00"))
    assert event.time == datetime(2026, 11, 29, 20, 15, 3, 120000, tzinfo=UTC)


def test_unknown_extra_fields_are_kept() -> None:
    event = parse_event(CHAT[:-1] + ', "client": "ios-5.2", "locale": "de"}')
    assert event.model_extra == {"client": "ios-5.2", "locale": "de"}


def test_example_stream_parses() -> None:
    kinds = {"chat": ChatEvent, "table": TableEvent, "hand": HandEvent}
    with (EXAMPLES / "events.jsonl").open("rb") as fh:
        for number, line in enumerate(fh, 1):
            event = parse_event(line, where=f"line {number}")
            assert isinstance(event, kinds[event.type])


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("{not json", "Invalid JSON"),
        (CHAT.replace('"ts": "2026-11-29T20:15:03.120Z"', '"ts": 12'), "field 'chat.ts'"),
        (CHAT.replace('"channel": "table"', '"channel": "radio"'), "field 'chat.channel'"),
        (CHAT.replace('"type": "chat"', '"type": "poll"'), "does not match any of the expected"),
        (
            CHAT.replace('"ts": "2026-11-29T20:15:03.120Z"', '"ts": "2026-11-29T20:15:03"'),
            "timezone",
        ),
        (CHAT.replace('"message_id": "m-1", ', ""), "field 'chat.message_id': Field required"),
    ],
)
def test_bad_records_name_field_and_place(raw: str, expected: str) -> None:
    with pytest.raises(EventError) as caught:
        parse_event(raw, where="line 7")
    assert str(caught.value).startswith("line 7: ")
    assert expected in str(caught.value)


def test_hand_cards_are_validated() -> None:
    hand = (
        '{"type": "hand", "hand_id": "h-1", "table_id": "t-1",'
        ' "started_at": "2026-11-29T20:00:00Z", "ended_at": "2026-11-29T20:01:00Z",'
        ' "seats": [{"seat": 1, "player_id": "p-1", "stack": 100, "hole_cards": ["As", "1d"]}]}'
    )
    with pytest.raises(EventError, match=r"seats\.0\.hole_cards\.1"):
        parse_event(hand)
