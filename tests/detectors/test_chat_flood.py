from __future__ import annotations

import pytest

from railbird.detectors.chat.chat_flood import ChatFlood
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from tests.builders import at, chat


def run(detector: ChatFlood, events: list) -> list[Finding]:  # type: ignore[type-arg]
    state = TtlState()
    found: list[Finding] = []
    for event in events:
        state.advance(event.ts)
        found.extend(detector.detect(event, state))
    return found


def test_seven_messages_in_ten_seconds_flags_once_with_all_ids() -> None:
    events = [chat(f"msg {i}", t=i, message_id=f"f-{i}") for i in range(7)]
    found = run(ChatFlood(), events)
    assert len(found) == 1
    flag = found[0]
    assert flag.category == "spam"
    assert flag.message_ids == tuple(f"f-{i}" for i in range(7))
    assert flag.evidence.summary == "7 messages in 6 s in table chat (limit 6)"
    assert flag.evidence.measures["limit"] == 6
    assert flag.severity == "low"


def test_six_messages_is_within_limit() -> None:
    assert run(ChatFlood(), [chat(f"msg {i}", t=i) for i in range(6)]) == []


def test_slow_typing_never_floods() -> None:
    assert run(ChatFlood(), [chat(f"msg {i}", t=3 * i) for i in range(40)]) == []


def test_other_players_do_not_count() -> None:
    events = [chat("hi", t=i, player=f"p-{i % 3}") for i in range(12)]
    assert run(ChatFlood(), events) == []


def test_long_flood_reports_chunks_not_one_flag_per_message() -> None:
    events = [chat("spam", t=i * 0.5, message_id=f"x-{i}") for i in range(30)]
    found = run(ChatFlood(), events)
    assert 1 < len(found) < 10
    reported = {m for f in found for m in f.message_ids}
    assert {f"x-{i}" for i in range(25)} <= reported
    assert len({f.dedupe_key for f in found}) == len(found)
    assert found[-1].severity in {"medium", "high"}


@pytest.mark.parametrize(("channel", "limit"), [("lobby", 5), ("private", 10)])
def test_limits_are_per_channel(channel: str, limit: int) -> None:
    recipient = "p-9" if channel == "private" else None
    events = [chat("x", t=i * 0.5, channel=channel, recipient=recipient) for i in range(limit + 1)]
    found = run(ChatFlood(), events)
    assert len(found) == 1
    assert found[0].evidence.measures["limit"] == limit
    assert run(ChatFlood(), events[:-1]) == []


def test_configurable_limit() -> None:
    events = [chat("x", t=i) for i in range(4)]
    found = run(ChatFlood(max_messages={"table": 3}), events)
    assert len(found) == 1


def test_same_input_same_dedupe_key() -> None:
    events = [chat("x", t=i, message_id=f"d-{i}") for i in range(8)]
    assert [f.dedupe_key for f in run(ChatFlood(), events)] == [
        f.dedupe_key for f in run(ChatFlood(), events)
    ]
    assert at(0) == events[0].ts
