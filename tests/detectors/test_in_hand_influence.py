"""in_hand_influence: live flags during a hand in play, retrospective upgrades from the history."""

from __future__ import annotations

from typing import Any

import pytest

from railbird.detectors.detector import keying
from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.in_hand.before_delivery import judge_before_delivery
from railbird.detectors.in_hand.in_hand_influence import InHandInfluence
from railbird.rules.flags import Flag
from railbird.rules.pipeline import Pipeline
from tests.builders import chat, hand, table

PLAYERS = ["p-ann", "p-bob", "p-cat", "p-dan"]
HOLE = {"p-ann": ["Ah", "Qd"], "p-bob": ["Js", "Jc"], "p-cat": ["7h", "7c"], "p-dan": ["9d", "4s"]}
FOLDS = {"p-cat": 15.0, "p-dan": 17.0}  # seconds after hand start


def hand_events(hand_id: str = "h-1", start: float = 0.0, end: float = 60.0) -> dict[str, Any]:
    seats = [
        {"seat": i + 1, "player_id": p, "stack": 5000, "hole_cards": HOLE[p]}
        for i, p in enumerate(PLAYERS)
    ]
    blinds = {"p-ann": ("post_sb", 50), "p-bob": ("post_bb", 100)}
    actions = [
        {"t": start + 1, "street": "preflop", "player_id": p, "action": kind, "amount": amount}
        for p, (kind, amount) in blinds.items()
    ]
    actions += [
        {"t": start + t, "street": "preflop", "player_id": p, "action": "fold", "amount": 0}
        for p, t in FOLDS.items()
    ]
    actions.append(
        {"t": start + 20, "street": "preflop", "player_id": "p-ann", "action": "call", "amount": 50}
    )
    return {
        "start": table("hand_start", t=start, hand_id=hand_id, players=PLAYERS),
        "end": table("hand_end", t=end, hand_id=hand_id),
        "hand": hand(hand_id, start=start, end=end, seats=seats, actions=actions),
    }


def cat_tells_bob_anns_cards(message_id: str) -> ChatEvent:
    """A private message, 30 s into the hand, from a folded player to one still in it."""
    return chat(
        "careful, ann has AQ",
        t=30,
        player="p-cat",
        table=None,
        tournament=None,
        channel="private",
        recipient="p-bob",
        message_id=message_id,
    )


def run(*messages: ChatEvent, before_start: tuple[ChatEvent, ...] = ()) -> list[Flag]:
    """One hand from t=0 to t=60 with `messages` placed by their own timestamps."""
    h = hand_events()
    events: list[AnyEvent] = [*before_start, h["start"], *messages, h["end"], h["hand"]]
    events.sort(key=lambda e: e.time)  # stable: hand_end before the hand history
    pipeline = Pipeline([InHandInfluence()])
    return [flag for e in events for flag in pipeline.process(e).flags]


def last(flags: list[Flag], message_id: str) -> Flag:
    return [f for f in flags if message_id in f.finding.message_ids][-1]


CASES = [
    # (case, message, severity after the hand history, evidence kind, live severity or None)
    (
        "folded player gives advice",
        chat("call, he's bluffing", t=25, player="p-dan", message_id="m-adv"),
        "high",
        "advice_during_hand",
        "high",
    ),
    (
        "railbird gives advice",
        chat("bob he has nothing, raise", t=22, player="p-rail", message_id="m-rail"),
        "high",
        "advice_during_hand",
        "high",
    ),
    (
        "private message to a player in the hand",
        cat_tells_bob_anns_cards("m-priv"),
        "critical",
        "live_cards_named",
        "high",
    ),
    (
        "emoji from a folded player",
        chat("👀", t=30, player="p-cat", kind="emoji", message_id="m-emo"),
        "medium",
        "emoji_during_hand",
        None,
    ),
    (
        "snapcam from a railbird",
        chat("", t=30, player="p-rail", kind="snapcam", message_id="m-snap"),
        "medium",
        "snapcam_during_hand",
        "medium",
    ),
    (
        "snapcam from a folded player",
        chat("", t=30, player="p-dan", kind="snapcam", message_id="m-snap2"),
        "medium",
        "snapcam_during_hand",
        None,
    ),
    (
        "folded player names own hole cards",
        chat("folded 77 lol", t=25, player="p-cat", message_id="m-leak"),
        "critical",
        "hole_card_leak",
        "high",
    ),
    (
        "folded player names own cards with suits",
        chat("threw 7h 7c away ugh", t=25, player="p-cat", message_id="m-leak2"),
        "critical",
        "hole_card_leak",
        "high",
    ),
    (
        "folded player names own ranks as bare digits",
        chat("i let 94 go", t=25, player="p-dan", message_id="m-digits"),
        "critical",
        "hole_card_leak",
        None,  # "94" alone could be anything: only the history shows it was the folded hand
    ),
    (
        "folded player names own ranks as digits with offsuit",
        chat("94o lol", t=25, player="p-dan", message_id="m-digits2"),
        "critical",
        "hole_card_leak",
        None,
    ),
    (
        "folded player names own ranks as digits in a sentence",
        chat("my 94 would have made two pair", t=25, player="p-dan", message_id="m-digits3"),
        "critical",
        "hole_card_leak",
        None,
    ),
    (
        "folded player names cards not held",
        chat("folded KQ lol", t=25, player="p-cat", message_id="m-notheld"),
        "high",
        "card_talk_during_hand",
        "high",
    ),
]


@pytest.mark.parametrize(
    ("message", "severity", "kind", "live"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_influence_during_a_hand_in_play_is_flagged(
    message: ChatEvent, severity: str, kind: str, live: str | None
) -> None:
    flags = run(message)
    assert flags, "expected a flag"
    ids = {f.flag_id for f in flags}
    assert len(ids) == 1, "live and retrospective findings share one flag id"
    first, final = flags[0], flags[-1]
    assert final.severity == severity
    assert final.finding.evidence.kind == kind
    assert final.finding.hand_id == "h-1"
    assert final.finding.player_ids == (message.player_id,)
    assert final.finding.message_ids == (message.message_id,)
    assert "h-1" in final.finding.evidence.summary
    if live is None:
        assert first.finding.ts == hand_events()["hand"].ended_at  # only the history shows it
    else:
        assert first.finding.ts == message.ts and first.severity == live


def test_hole_card_leak_evidence_names_hand_cards_and_fold() -> None:
    message = chat("folded 77 lol, bob you are ahead, just call", t=25, player="p-cat")
    final = run(message)[-1]
    summary = final.finding.evidence.summary
    assert final.severity == "critical"
    assert "7h 7c" in summary and "h-1" in summary and "folded" in summary
    assert final.finding.evidence.measures["hole_cards"] == ["7h", "7c"]
    assert final.finding.evidence.measures["folded_at"] == "2026-11-29T20:00:15Z"


NOT_FLAGGED = [
    ("post-hand card talk", chat("i had 77 lol", t=62, player="p-cat")),
    ("post-hand nice river", chat("nice river", t=61, player="p-dan")),
    ("social gl during the hand", chat("gl", t=25, player="p-cat")),
    ("social nh during the hand", chat("nh", t=25, player="p-dan")),
    ("social ty during the hand", chat("ty", t=25, player="p-dan")),
    ("small talk during the hand", chat("how many players left", t=30, player="p-dan")),
    ("card talk at another table", chat("folded 77 lol", t=25, player="p-x", table="t-2")),
    ("before the hand starts", chat("i had AQ, he's bluffing", t=-3, player="p-ann")),
    (
        "previous hand's cards named as the next is dealt",
        chat("had 77 there", t=2, player="p-cat"),
    ),
    ("emoji wall (left to the spam detector)", chat("🤑" * 8, t=30, player="p-rail", kind="emoji")),
    ("emoji by a player still in the hand", chat("👍", t=30, player="p-bob", kind="emoji")),
    (
        "private message to someone not in a hand",
        chat("he's bluffing", t=30, channel="private", table=None, recipient="p-zed"),
    ),
    ("lobby chat during a hand", chat("he's bluffing lol", t=30, channel="lobby", table=None)),
    ("bare digits that are not the folded hand", chat("i let 72 go", t=25, player="p-dan")),
    ("a count of players", chat("94 players left", t=25, player="p-dan")),
    ("an amount, not king-four", chat("only 4k behind", t=25, player="p-dan")),
    ("an amount in big blinds", chat("94bb deep", t=25, player="p-dan")),
]


@pytest.mark.parametrize("message", [c[1] for c in NOT_FLAGGED], ids=[c[0] for c in NOT_FLAGGED])
def test_near_misses_do_not_flag(message: ChatEvent) -> None:
    assert run(message) == []


def test_between_hands_talk_does_not_flag() -> None:
    pipeline = Pipeline([InHandInfluence()])
    h = hand_events()
    events: list[AnyEvent] = [
        h["start"],
        h["end"],
        h["hand"],
        chat("call he's bluffing", t=61, player="p-rail"),
        chat("folded 77", t=62, player="p-cat"),
    ]
    assert [f for e in events for f in pipeline.process(e).flags] == []


def test_post_hand_talk_about_previous_hand_in_next_hand_grace_is_not_flagged() -> None:
    pipeline = Pipeline([InHandInfluence()])
    first, second = hand_events("h-1", 0, 60), hand_events("h-2", 63, 120)
    events: list[AnyEvent] = [
        first["start"],
        first["end"],
        first["hand"],
        second["start"],
        chat("mucked 77 ugh", t=64, player="p-cat"),  # 1 s into h-2: about h-1
        second["end"],
        second["hand"],
    ]
    assert [f for e in events for f in pipeline.process(e).flags] == []


def test_table_chat_and_private_messages_are_one_detectors_flags_under_one_id_scheme() -> None:
    """One detector reads both channels (keyed by hand: a stream joins each private message to
    its recipient's table), so the same words get the same verdicts wherever they were said."""
    h = hand_events()
    table_talk = chat("folded 77 lol", t=25, player="p-cat", message_id="m-t")
    private = cat_tells_bob_anns_cards("m-p")
    events: list[AnyEvent] = [h["start"], table_talk, private, h["end"], h["hand"]]
    pipeline = Pipeline([InHandInfluence()])
    flags = [f for e in events for f in pipeline.process(e).flags]
    assert {(f.finding.detector, f.finding.message_ids, f.finding.severity) for f in flags} == {
        ("in_hand_influence", ("m-t",), "high"),
        ("in_hand_influence", ("m-t",), "critical"),
        ("in_hand_influence", ("m-p",), "high"),
        ("in_hand_influence", ("m-p",), "critical"),
    }
    assert keying(InHandInfluence()) == "hand"


def test_only_table_chat_and_private_messages_to_a_dealt_in_player_reach_the_hand() -> None:
    pipeline = Pipeline([InHandInfluence()])
    state = pipeline.states["in_hand_influence"]
    pipeline.process(table("hand_start", t=0, hand_id="h-1", players=["p-2", "p-3"]))
    for channel in ("tournament", "lobby"):  # near misses: same words, not the table's
        pipeline.process(
            chat("fold now, he has AK", t=30, player="p-1", channel=channel, table=None)
        )
    to_a_railbird = chat(
        "fold now, he has AK", t=30, player="p-1", channel="private", table=None, recipient="p-9"
    )
    pipeline.process(to_a_railbird)
    assert state.get(("t-1", "hand")).messages == []
    private_chat = chat(
        "fold now, he has AK", t=31, player="p-1", channel="private", table=None, recipient="p-2"
    )
    pipeline.process(private_chat)
    assert [m.message_id for m in state.get(("t-1", "hand")).messages] == [private_chat.message_id]


def test_a_message_sent_after_the_hand_ended_is_never_upgraded_even_if_read_before_its_end() -> (
    None
):
    """Live, a table's chat and its hand_end travel on different topics (so partitions): "nh,
    had 77" sent just after the end can be read before it. The hand history says when the hand
    ended, so the retrospective never calls that a leak; the same words inside the hand are."""
    h = hand_events()
    after = chat("nh, had 77", t=61, player="p-cat", message_id="m-after")
    during = chat("had 77 ugh", t=30, player="p-cat", message_id="m-during")
    pipeline = Pipeline([InHandInfluence()])
    # hand_end arrives late: after the message that followed it
    events: list[AnyEvent] = [h["start"], during, after, h["end"], h["hand"]]
    flags = [f for e in events for f in pipeline.process(e).flags]
    critical = {m for f in flags if f.finding.severity == "critical" for m in f.finding.message_ids}
    assert critical == {"m-during"}


BEFORE_DELIVERY = [
    # (text, kind, sender status, evidence kind or None)
    ("94 i folded", "text", "folded", "card_talk_during_hand"),
    ("let 10 4 go", "text", "folded", "card_talk_during_hand"),
    ("folded 77 lol", "text", "playing", "card_talk_during_hand"),
    ("call, he's bluffing", "text", "playing", "advice_during_hand"),
    ("i have two pair", "text", "playing", "strength_talk_during_hand"),
    ("just shove", "text", "not_dealt", "action_talk_during_hand"),
    ("just shove", "text", "playing", None),  # a player's own table talk, no read
    ("nice bet", "text", "playing", None),
    ("gl", "text", "folded", None),
    ("94 players left", "text", "folded", None),
    ("👀", "emoji", "not_dealt", "emoji_during_hand"),
    ("👀", "emoji", "folded", "emoji_during_hand"),
    ("👀", "emoji", "playing", None),
    ("", "snapcam", "not_dealt", "snapcam_during_hand"),
    ("", "snapcam", "all_in", None),
    ("bob has AK", "text", "not_dealt", "live_cards_named"),
    ("bob has AK", "text", "playing", "card_talk_during_hand"),  # a guess, not a leak
    ("i got AK", "text", "not_dealt", "card_talk_during_hand"),
]


@pytest.mark.parametrize(("text", "kind", "status", "expected"), BEFORE_DELIVERY)
def test_before_delivery_the_senders_part_in_the_hand_decides_with_the_streams_reading(
    text: str, kind: str, status: str, expected: str | None
) -> None:
    message = chat(text, t=25, player="p-x", kind=kind, message_id="m-now")
    finding = judge_before_delivery(message, "h-9", status)  # type: ignore[arg-type]
    if expected is None:
        assert finding is None
        return
    assert finding is not None
    assert finding.category == "in_hand_influence"
    assert finding.evidence.kind == expected
    assert finding.severity == ("critical" if expected == "live_cards_named" else
                                "medium" if kind != "text" else "high")  # fmt: skip
    assert finding.hand_id == "h-9" and finding.message_ids == ("m-now",)
    assert finding.evidence.measures["sender_status"] == status
