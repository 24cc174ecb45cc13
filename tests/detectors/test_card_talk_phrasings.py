"""How people say they folded a hand, and what only looks like it: the phrasing table.

Written before the reader was widened (issue 30: every miss on independent days was a folded
player naming the folded hand in bare digits, with a folding phrase in a word order the reader
did not take). The lines are ours, not the simulator's: folding verbs and phrasal verbs with the
hand before, after or inside them, the digit forms a person types for two cards, and the
counts, amounts, times, seats and levels that must stay numbers even beside a folding verb.

The tables are data: the chat check's tests (`tests/api/`) replay them with hand context.
"""

from __future__ import annotations

from typing import Any

import pytest

from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.in_hand.in_hand_influence import InHandInfluence
from railbird.rules.flags import Flag
from railbird.rules.pipeline import Pipeline
from tests.builders import chat, hand, table

# Who held what, and when each folded (seconds into the hand); p-aq and p-kk play on.
HOLE = {
    "p-94": ["9s", "4h"],
    "p-t4": ["Th", "4c"],
    "p-72": ["7d", "2c"],
    "p-55": ["5h", "5d"],
    "p-42": ["4d", "2s"],
    "p-aq": ["Ah", "Qd"],
    "p-kk": ["Ks", "Kc"],
}
FOLDED_AT = {"p-94": 10.0, "p-t4": 11.0, "p-72": 12.0, "p-55": 13.0, "p-42": 14.0}
HAND_END = 60.0
SAID_AT = 25.0  # every line is said here: after every fold, with the hand still in play

# A folded player names the hand they folded. (line, speaker)
FOLDED_HAND_LEAKS: list[tuple[str, str]] = [
    # the hand before the verb
    ("94 i folded", "p-94"),
    ("94? folded obv", "p-94"),
    ("my 94 went in the muck", "p-94"),
    ("94 straight into the bin", "p-94"),
    ("94 mucked, whatever", "p-94"),
    ("94 laid down", "p-94"),
    ("ugh...94 in the muck", "p-94"),
    ("lol,94 into the bin", "p-94"),
    ("the 72 went straight in the muck", "p-72"),
    ("72 i folded", "p-72"),
    ("72 gone", "p-72"),
    ("T4 i folded", "p-t4"),
    ("10 4 in the muck", "p-t4"),
    ("55 folded", "p-55"),
    ("that 94 went in the muck", "p-94"),
    # the hand after the verb
    ("folded that 94 pre", "p-94"),
    ("threw away 94", "p-94"),
    ("tossed 94", "p-94"),
    ("chucked the 94", "p-94"),
    ("pitched 94 preflop", "p-94"),
    ("binned 94 lol", "p-94"),
    ("ditched 94", "p-94"),
    ("dumped my 94", "p-94"),
    ("mucked 9 4", "p-94"),
    ("laid down 94", "p-94"),
    ("passed on 94", "p-94"),
    ("gave up 94", "p-94"),
    ("gave up on 94", "p-94"),
    ("released 94", "p-94"),
    ("got rid of 94", "p-94"),
    ("let go of 94", "p-94"),
    ("let go of my 94 early", "p-94"),
    ("folding 94 every time", "p-94"),
    ("folded again 94 this time", "p-94"),
    ("chucked 72 pre", "p-72"),
    ("just dumped 7 2", "p-72"),
    ("folded 10 4", "p-t4"),
    ("folded 10-4 off", "p-t4"),
    ("binned t4", "p-t4"),
    ("mucked 5 5", "p-55"),
    # the hand inside the phrasal verb
    ("i let 72 go", "p-72"),
    ("let 94 go", "p-94"),
    ("let my 49 go lol", "p-94"),
    ("laid 94 down", "p-94"),
    ("gave 94 up", "p-94"),
    ("threw my 94 away", "p-94"),
    ("let 10-4 go", "p-t4"),
    ("let 4 10 go", "p-t4"),
    ("let 55 go", "p-55"),
    # with offsuit marks
    ("94o binned", "p-94"),
    ("9-4 off, binned it", "p-94"),
    ("94 offsuit, folded", "p-94"),
    ("72o, tossed it", "p-72"),
    # the hand said alone, with nothing around it but a sigh
    ("94 smh", "p-94"),
    ("72 lol", "p-72"),
    # card words in the new word orders
    ("let my fives go", "p-55"),
    ("ten four offsuit into the muck", "p-t4"),
]

# Lines that must not flag: the digits are counts, amounts, times, seats or levels, even beside
# a folding verb and said by the player who folded those very ranks. (line, speaker, at)
NUMBERS: list[tuple[str, str, float]] = [
    ("94 players left", "p-94", SAID_AT),
    ("only 4k behind", "p-94", SAID_AT),
    ("94bb deep", "p-94", SAID_AT),
    ("folded 94 hands in a row", "p-94", SAID_AT),
    ("ive folded 94 times tonight", "p-94", SAID_AT),
    ("folded 94% of my hands today", "p-94", SAID_AT),
    ("gave up 94bb in that pot", "p-94", SAID_AT),
    ("threw away 94k", "p-94", SAID_AT),
    ("room 94 is slow", "p-94", SAID_AT),
    ("top 94 get paid", "p-94", SAID_AT),
    ("table 94 folded to the bb", "p-94", SAID_AT),
    ("#94 lol", "p-94", SAID_AT),
    ("level 10 already", "p-t4", SAID_AT),
    ("level 10, 4 tables left", "p-t4", SAID_AT),
    ("back in 10 4 sure", "p-t4", SAID_AT),
    ("2 4 me", "p-42", SAID_AT),
    ("thats 2 4 1 on drinks", "p-42", SAID_AT),
    ("72 players left", "p-72", SAID_AT),
    ("only 72 of us left", "p-72", SAID_AT),
    ("folded at 7:20 lol", "p-72", SAID_AT),
    ("down to 72k, folded again", "p-72", SAID_AT),
    ("folded 55 times lol", "p-55", SAID_AT),
    ("55 mins to the break", "p-55", SAID_AT),
    ("seat 5 5 hands in a row folding", "p-55", SAID_AT),
]

# Nor these: the hand named is not the one folded, the speaker is still in the hand, or the
# hand is over. (line, speaker, at)
NOT_A_HAND: list[tuple[str, str, float]] = [
    *NUMBERS,
    # bare digits, but not the hand this speaker folded: only that hand confirms them
    ("i let 72 go", "p-94", SAID_AT),
    ("72 smh", "p-94", SAID_AT),
    # the speaker is still in the hand and named no cards the stream can check
    ("94 lol", "p-aq", SAID_AT),
    # the hand is over
    ("let 94 go", "p-94", HAND_END + 3),
    ("94 i folded", "p-94", HAND_END + 3),
]

# Cards named with a card word by a folded player who did not hold them: card talk during the
# hand (high, as the stream has always flagged "folded KQ lol"), never a hole-card leak.
NAMED_NOT_HELD: list[tuple[str, str]] = [
    ("folded 94 lol", "p-72"),
    ("mucked T4 too", "p-55"),
]


def hand_events(hand_id: str = "h-1") -> dict[str, AnyEvent]:
    players = list(HOLE)
    seats = [
        {"seat": n, "player_id": p, "stack": 5000, "hole_cards": HOLE[p]}
        for n, p in enumerate(players, 1)
    ]
    actions: list[dict[str, Any]] = [
        {"t": 1, "street": "preflop", "player_id": "p-aq", "action": "post_sb", "amount": 50},
        {"t": 1, "street": "preflop", "player_id": "p-kk", "action": "post_bb", "amount": 100},
    ]
    actions += [
        {"t": t, "street": "preflop", "player_id": p, "action": "fold", "amount": 0}
        for p, t in FOLDED_AT.items()
    ]
    actions.append(
        {"t": 20, "street": "preflop", "player_id": "p-aq", "action": "call", "amount": 50}
    )
    return {
        "start": table("hand_start", t=0, hand_id=hand_id, players=players),
        "end": table("hand_end", t=HAND_END, hand_id=hand_id),
        "hand": hand(hand_id, start=0, end=HAND_END, seats=seats, actions=actions),
    }


def run(message: ChatEvent) -> list[Flag]:
    h = hand_events()
    events = sorted([h["start"], message, h["end"], h["hand"]], key=lambda e: e.time)
    pipeline = Pipeline([InHandInfluence()])
    return [flag for e in events for flag in pipeline.process(e).flags]


@pytest.mark.parametrize(
    ("text", "speaker"), FOLDED_HAND_LEAKS, ids=[t for t, _ in FOLDED_HAND_LEAKS]
)
def test_a_folded_player_naming_the_folded_hand_is_a_hole_card_leak(
    text: str, speaker: str
) -> None:
    message = chat(text, t=SAID_AT, player=speaker, message_id="m-said")
    flags = run(message)
    assert flags, f"{text!r} by {speaker} was not flagged"
    final = flags[-1]
    assert final.finding.severity == "critical"
    assert final.finding.evidence.kind == "hole_card_leak"
    assert final.finding.evidence.measures["hole_cards"] == HOLE[speaker]
    assert final.finding.message_ids == ("m-said",)
    assert final.finding.player_ids == (speaker,)


@pytest.mark.parametrize(
    ("text", "speaker", "t"), NOT_A_HAND, ids=[f"{t} ({p})" for t, p, _ in NOT_A_HAND]
)
def test_counts_amounts_times_levels_and_other_hands_do_not_flag(
    text: str, speaker: str, t: float
) -> None:
    assert run(chat(text, t=t, player=speaker)) == []


@pytest.mark.parametrize(("text", "speaker"), NAMED_NOT_HELD, ids=[t for t, _ in NAMED_NOT_HELD])
def test_cards_named_that_were_not_held_are_card_talk_not_a_leak(text: str, speaker: str) -> None:
    final = run(chat(text, t=SAID_AT, player=speaker))[-1]
    assert final.finding.severity == "high"
    assert final.finding.evidence.kind == "card_talk_during_hand"
