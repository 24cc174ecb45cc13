from __future__ import annotations

import pytest

from railbird.detectors.chat.emoji_spam import EmojiSpam
from railbird.detectors.events import ChatEvent, event_from_dict
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from railbird.detectors.text.loud_text import count_emoji, shout_level
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate
from tests.builders import chat
from tests.detectors import test_chat_state_equivalence as equivalence


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
    ("text", "kind"),
    [
        ("👍", "emoji"),
        ("🔥🔥", "emoji"),
        ("nh 👏👏👏", "text"),
        ("gg 😂", "text"),
        ("gg 😂😂😂😂😂", "text"),
        ("❤️ ❤️ ❤️ ❤️ ❤️❤️❤️❤️", "text"),  # eight hearts: a lot, not a wall
        ("🤑" * 9, "emoji"),  # the most one line may hold
        ("Party tonight 👐👐👐👐👐👐", "text"),
    ],
)
def test_reactions_pass(text: str, kind: str) -> None:
    assert run([chat(text, kind=kind)]) == []


@pytest.mark.parametrize(
    ("text", "kind", "summary"),
    [
        ("🤑" * 10, "emoji", "10 emoji in one message (limit 9)"),
        ("best song " + "😍" * 12, "text", "12 emoji in one message (limit 9)"),
        ("🔥" * 14, "emoji", "14 emoji in one message (limit 9)"),
    ],
)
def test_an_emoji_wall_in_one_message_flags(text: str, kind: str, summary: str) -> None:
    found = run([chat(text, kind=kind, message_id="m-e")])
    assert len(found) == 1
    assert found[0].evidence.summary == summary
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


@pytest.mark.parametrize(
    "text",
    [
        "NICE HAND!!!!",
        "WHAT A RIVER",
        "WAKE UP TABLE COME ON!!!",  # all caps with !!!: loud, still one line
        "WHY DOES EVERYONE CALL WITH TRASH ON THIS TABLE",  # a long caps line
        "HI BABE IM AT HOME NOW WANNA DO SOMETHING? XX",  # a personal message typed in caps
        "THIS IS THE BEST TOURNAMENT EVER!!!!!!!!!!!!!!!!",
        "!!!!!!!!!!!!!!!!!!!!!!!!",
        "soooooooooooooooooooooooo sick",
        "lolololololololololololololololololol",
        "gg gg gg gg gg gg gg gg gg gg gg gg gg gg",
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "Good morning all........... gl",
    ],
)
def test_a_single_loud_line_is_not_spam(text: str) -> None:
    """Spam is volume or repetition: one line, however loud, is a reaction (issue 16)."""
    assert shout_level(text, 10, 0.8)[0] >= 1
    assert run([chat(text)]) == []


def test_two_loud_lines_pass_and_the_third_flags() -> None:
    lines = ["WAKE UP TABLE COME ON!!!", "!!!!!!!!!!!!!!!!!!!!!!!!", "SO RIGGED TODAY"]
    events = [chat(t, t=10 * i, message_id=f"l-{i}") for i, t in enumerate(lines)]
    assert run(events[:2]) == []
    found = run(events)
    assert len(found) == 1
    assert found[0].message_ids == ("l-0", "l-1", "l-2")
    assert found[0].evidence.summary == (
        "3 shouted messages (caps or !!!!) in 60 s (limit 2), latest: caps"
    )


def test_loud_lines_spread_beyond_the_window_pass() -> None:
    lines = ["WAKE UP TABLE COME ON!!!", "WHAT A RIVER CARD", "SO RIGGED TODAY"]
    assert run([chat(t, t=61 * i) for i, t in enumerate(lines)]) == []


def test_the_fast_paths_equal_the_plain_ones_on_a_day_with_shouting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`test_chat_state_equivalence` compares fast and plain detectors on a simulated day; with
    single loud lines no longer spam, that day (seed 1) holds no shouting flag, so this day,
    with the simulator's violations doubled, keeps shouting in the comparison."""
    config = SimConfig(
        seed=1,
        tournaments=1,
        cash_tables=3,
        hours=1.5,
        players_per_tournament=45,
        violation_scale=2.0,
    )
    events = [event_from_dict(e) for kind, e in simulate(config) if kind == "event"]
    kinds = equivalence._compare(events, monkeypatch)
    assert {"chat_flood", "repeated_message", "bot_wave", "emoji_spam", "shouting"} <= set(kinds)
