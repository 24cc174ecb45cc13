"""Cash hard negatives: each kind is seated all day, labelled in the truth, and plays the way
that makes it look like collusion while being honest."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from railbird.sim.cash_negatives import KINDS
from railbird.sim.config import SimConfig
from tests.sim.days import Records, events_and_truth

DAY = SimConfig(
    seed=41,
    tournaments=0,
    cash_tables=8,
    hours=2.0,
    chip_dump_pairs=2,
    soft_play_pairs=2,
    cash_hard_negatives=True,
)
BIG_BLIND = DAY.cash_big_blind


@pytest.fixture(scope="module")
def day() -> tuple[Records, dict[str, Records]]:
    events, truth = events_and_truth(DAY)
    negatives: dict[str, Records] = {}
    for record in truth:
        if record.get("hard_negative") in KINDS:
            negatives.setdefault(record["hard_negative"], []).append(record)
    return events, negatives


def hands_with(events: Records, *players: str) -> list[dict[str, Any]]:
    wanted = set(players)
    return [
        e for e in events if e["type"] == "hand" and wanted <= {s["player_id"] for s in e["seats"]}
    ]


def test_each_kind_sits_at_two_tables_all_day_and_is_labelled(
    day: tuple[Records, dict[str, Records]],
) -> None:
    events, negatives = day
    assert sorted(negatives) == sorted(KINDS)
    tables: set[str] = set()
    for kind, records in negatives.items():
        assert len(records) == 2, kind
        for record in records:
            pids = record["player_ids"]
            assert len(pids) == 2 and pids == sorted(pids)
            tables.add(record["table_id"])
            joins = [
                e
                for e in events
                if e["type"] == "table"
                and e.get("player_id") in pids
                and e["action"] in ("join", "leave")
            ]
            assert {e["table_id"] for e in joins} == {record["table_id"]}
            if kind == "short_stack_shoving":  # once doubled up, he sits back down short
                deep = [e["action"] for e in joins if e["player_id"] == record["deep_stack"]]
                assert deep == ["join"] and len(joins) > 3
            else:
                assert [e["action"] for e in joins] == ["join", "join"]
            shared = hands_with(events, *pids)
            assert len(shared) == record["shared_hands"] > 100
            assert {h["table_id"] for h in shared} == {record["table_id"]}
            assert shared[-1]["ended_at"] > "2026-11-29T19:45"  # still there at the end
    assert len(tables) == 8  # one kind per table


def test_no_cash_negative_without_the_option() -> None:
    _, truth = events_and_truth(replace(DAY, cash_hard_negatives=False, hours=0.5))
    assert not [t for t in truth if t.get("hard_negative") in KINDS]


def test_a_table_without_two_free_seats_gets_none() -> None:
    crowded = replace(
        DAY, cash_tables=1, cash_table_size=4, hours=0.3, chip_dump_pairs=1, soft_play_pairs=1
    )
    _, truth = events_and_truth(crowded)
    assert not [t for t in truth if t.get("hard_negative") in KINDS]


def preflop_responses(hand: dict[str, Any], responder: str) -> tuple[str | None, bool] | None:
    """Whose lone open `responder` faced before the flop, and whether he re-raised it."""
    opener = None
    for action in hand["actions"]:
        if action["street"] != "preflop":
            break
        kind, pid = action["action"], action["player_id"]
        if pid == responder and opener is not None:
            return opener, kind in ("raise", "all_in") and action.get("to", 0) > 0
        if kind in ("raise", "all_in", "bet"):
            if opener is not None:
                return None  # someone else re-raised first
            opener = pid
    return None


def test_the_left_regular_re_raises_the_right_ones_opens_often(
    day: tuple[Records, dict[str, Records]],
) -> None:
    events, negatives = day
    for record in negatives["regulars_side_by_side"]:
        opener, re_raiser = record["opener"], record["re_raiser"]
        seats = {
            e["player_id"]: e["seat"]
            for e in events
            if e["type"] == "table"
            and e["action"] == "join"
            and e["player_id"] in (opener, re_raiser)
        }
        assert seats[re_raiser] == seats[opener] + 1  # on his left: acts after him
        against: dict[bool, Counter[bool]] = {True: Counter(), False: Counter()}
        for hand in hands_with(events, re_raiser):
            response = preflop_responses(hand, re_raiser)
            if response is not None:
                faced, re_raised = response
                against[faced == opener][re_raised] += 1
        rate = {k: c[True] / max(1, sum(c.values())) for k, c in against.items()}
        assert sum(against[True].values()) >= 10
        assert rate[True] > 0.25 and rate[True] > 2 * rate[False]


def test_the_short_stack_shoves_into_the_deep_one_who_calls(
    day: tuple[Records, dict[str, Records]],
) -> None:
    events, negatives = day
    for record in negatives["short_stack_shoving"]:
        short, deep = record["short_stack"], record["deep_stack"]
        shoves = calls = 0
        for hand in hands_with(events, short, deep):
            stacks = {s["player_id"]: s["stack"] for s in hand["seats"]}
            assert stacks[deep] >= 150 * BIG_BLIND
            preflop = [a for a in hand["actions"] if a["street"] == "preflop"]
            shoved = any(a["player_id"] == short and a["action"] == "all_in" for a in preflop)
            shoves += shoved
            calls += shoved and any(
                a["player_id"] == deep and a["action"] in ("call", "raise") for a in preflop
            )
        buy_ins = [
            s["stack"]
            for h in hands_with(events, short)
            for s in h["seats"]
            if s["player_id"] == short
        ]
        assert min(buy_ins) > 0 and buy_ins[0] <= 25 * BIG_BLIND
        assert shoves >= 15 and calls >= 3


def vpip(events: Records, player: str) -> float:
    hands = hands_with(events, player)
    played = sum(
        any(
            a["player_id"] == player and a["action"] in ("call", "raise", "all_in")
            for a in h["actions"]
            if a["street"] == "preflop"
        )
        for h in hands
    )
    return played / len(hands)


def test_bad_luck_the_loose_player_loses_to_the_strong_one_on_his_left(
    day: tuple[Records, dict[str, Records]],
) -> None:
    events, negatives = day
    for record in negatives["bad_luck_against_winner"]:
        loser, winner = record["loser"], record["winner"]
        assert vpip(events, loser) > 0.45 > 0.3 > vpip(events, winner)
    assert sum(r["lost_to_winner"] for r in negatives["bad_luck_against_winner"]) > 0


def test_friends_chat_in_private_all_day(
    day: tuple[Records, dict[str, Records]],
) -> None:
    events, negatives = day
    chat = {e["message_id"]: e for e in events if e["type"] == "chat"}
    for record in negatives["friends"]:
        pair = set(record["player_ids"])
        messages = [chat[m] for m in record["message_ids"]]
        assert len(messages) >= 20
        for message in messages:
            assert message["channel"] == "private"
            assert {message["player_id"], message["recipient_id"]} == pair
