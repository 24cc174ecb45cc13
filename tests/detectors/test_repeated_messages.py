from __future__ import annotations

from railbird.detectors.chat.repeated_messages import RepeatedMessages
from railbird.detectors.events import ChatEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from railbird.detectors.text.fingerprint import fingerprint
from tests.builders import chat


def run(events: list[ChatEvent], detector: RepeatedMessages | None = None) -> list[Finding]:
    detector = detector or RepeatedMessages()
    state = TtlState()
    found: list[Finding] = []
    for event in events:
        state.advance(event.ts)
        found.extend(detector.detect(event, state))
    return found


def test_fingerprint_ignores_case_punctuation_and_stretching() -> None:
    assert fingerprint("BUY CHIPS!!! cheaaaap")[0] == fingerprint("buy chips cheaap")[0]


def test_same_line_three_times_in_a_minute() -> None:
    events = [chat("visit my stream tonight", t=10 * i, message_id=f"r-{i}") for i in range(3)]
    found = run(events)
    assert len(found) == 1
    assert found[0].message_ids == ("r-0", "r-1", "r-2")
    assert found[0].evidence.kind == "repeated_message"
    assert found[0].evidence.summary == "same message 3 times in 60 s (limit 2)"


def test_near_duplicates_count() -> None:
    texts = ["cheap chips here guys", "cheap chips here guys!!", "CHEAP chips here, guys :)"]
    assert len(run([chat(t, t=i) for i, t in enumerate(texts)])) == 1


def test_short_lines_and_spread_out_repeats_pass() -> None:
    assert run([chat("gg", t=i) for i in range(10)]) == []
    assert run([chat("nice hand sir", t=40 * i) for i in range(5)]) == []


def test_different_messages_pass() -> None:
    texts = ["nice hand", "what a river", "ship it", "gl everyone", "brb coffee"]
    assert run([chat(t, t=i) for i, t in enumerate(texts)]) == []


def test_bot_wave_same_text_from_three_players() -> None:
    text = "best rakeback deals at chipdealz biz 50 percent"
    events = [chat(text, t=5 * i, player=f"bot-{i}", message_id=f"w-{i}") for i in range(3)]
    found = [f for f in run(events) if f.evidence.kind == "bot_wave"]
    assert len(found) == 1
    assert found[0].player_ids == ("bot-0", "bot-1", "bot-2")
    assert found[0].message_ids == ("w-0", "w-1", "w-2")
    assert found[0].evidence.summary == "same text from 3 players within 60 s: bot wave"
    assert found[0].severity == "medium"


def test_short_common_line_from_many_players_is_not_a_wave() -> None:
    events = [chat("nice hand", t=i, player=f"p-{i}") for i in range(6)]
    assert run(events) == []


def test_emoji_repeats_flag() -> None:
    events = [chat("🤑" * 8, t=i * 0.5, kind="emoji", message_id=f"e-{i}") for i in range(6)]
    found = run(events)
    reported = {m for f in found for m in f.message_ids}
    assert reported == {f"e-{i}" for i in range(6)}
    assert found[-1].severity == "medium"
