from __future__ import annotations

import pytest

from railbird.detectors.chat.emoji_spam import EmojiSpam
from railbird.detectors.events import ChatEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from railbird.detectors.text.loud_text import count_emoji, shout_level
from tests.builders import chat


def run(events: list[ChatEvent]) -> list[Finding]:
    detector, state, found = EmojiSpam(), TtlState(), []
    for event in events:
        state.advance(event.ts)
        found.extend(detector.detect(event, state))
    return found


def test_count_emoji_ignores_skin_tones() -> None:
    assert count_emoji("nice 👍🏽👍") == 2
    assert count_emoji("plain text") == 0


@pytest.mark.parametrize(
    ("text", "kind"), [("👍", "emoji"), ("🔥🔥", "emoji"), ("nh 👏👏👏", "text"), ("gg 😂", "text")]
)
def test_reactions_pass(text: str, kind: str) -> None:
    assert run([chat(text, kind=kind)]) == []


def test_many_emoji_in_one_message() -> None:
    found = run([chat("🤑" * 9, kind="emoji", message_id="m-e")])
    assert len(found) == 1
    assert found[0].evidence.summary == "9 emoji in one message (limit 6)"
    assert found[0].message_ids == ("m-e",)


def test_emoji_burst_over_window() -> None:
    events = [chat("🔥🔥🔥🔥", t=i, kind="emoji", message_id=f"b-{i}") for i in range(5)]
    found = run(events)
    assert found
    assert found[0].message_ids == ("b-0", "b-1", "b-2", "b-3")
    assert "16 emoji in 4 messages within 10 s" in found[0].evidence.summary


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("nice hand", 0),
        ("NICE HAND!!", 0),
        ("FUCKING RIVER", 1),
        ("nice hand!!!!", 1),
        ("SHIP IT BABY LETS GO", 1),
        ("WAKE UP TABLE COME ON!!!", 2),
        ("WHY DOES EVERYONE CALL WITH TRASH ON THIS TABLE", 2),
        ("lolololololololololol", 2),
        ("gg gg gg gg gg gg gg", 2),
        ("!!!!!!!!!!!!", 2),
        ("AKs vs QQ, 3bet pot", 0),
    ],
)
def test_shout_levels(text: str, level: int) -> None:
    assert shout_level(text, 10, 0.8)[0] == level


def test_one_caps_line_passes_but_repeated_shouting_flags() -> None:
    assert run([chat("FUCKING RIVER AGAIN")]) == []
    lines = ["WHAT A CALL SIR", "UNREAL RIVER CARD", "SO RIGGED TODAY"]
    events = [chat(t, t=5 * i) for i, t in enumerate(lines)]
    found = run(events)
    assert len(found) == 1
    assert found[0].evidence.kind == "shouting"
    assert found[0].evidence.summary.startswith("3 shouted messages")


def test_shouting_match_names_the_other_player() -> None:
    lines = [
        ("p-1", "YOU ARE CLUELESS"),
        ("p-2", "SHUT UP ALREADY"),
        ("p-1", "MAKE ME THEN"),
        ("p-2", "LEARN TO PLAY"),
        ("p-1", "STOP CRYING NOW"),
    ]
    events = [chat(t, t=i, player=p) for i, (p, t) in enumerate(lines)]
    found = run(events)
    assert found[0].player_ids == ("p-1",)
    assert "shouting match with p-2" in found[0].evidence.summary
    assert found[0].severity == "medium"


def test_single_strong_shout_flags() -> None:
    found = run([chat("WAKE UP TABLE COME ON!!!")])
    assert found[0].evidence.summary == "shouting: all caps with !!! in one message"
