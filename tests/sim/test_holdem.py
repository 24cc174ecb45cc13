"""Hold'em engine: hand-built deals with exact pots, then chip conservation over random hands."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from railbird.sim.hand_clock import rfc3339
from railbird.sim.holdem import play_hand, position_order
from railbird.sim.table_view import DecisionView, HandResult, Move, SeatState
from tests.sim import RandomPolicy, random_table

STARTED = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)
TS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


@dataclass
class Script:
    """Plays the given moves in order, then checks (which folds when facing a bet)."""

    moves: list[tuple[Move, int]] = field(default_factory=list)
    views: list[DecisionView] = field(default_factory=list)

    def decide(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        self.views.append(view)
        return self.moves.pop(0) if self.moves else ("check", 0)


def deal(
    seats: list[SeatState],
    button: int,
    holes: dict[str, str],
    board: str,
    scripts: dict[str, list[tuple[Move, int]]],
    *,
    blinds: tuple[int, int] = (50, 100),
    ante: int = 0,
    tournament: str | None = "trn-1",
) -> tuple[HandResult, dict[str, Script]]:
    """Plays a hand with fixed cards: `holes` maps player to e.g. "AsKd", board is 5 cards."""
    order = [p.player_id for p in position_order(seats, button)]
    first = [holes[pid][:2] for pid in order]
    second = [holes[pid][2:] for pid in order]
    deck = [*first, *second, *(board[i : i + 2] for i in range(0, 10, 2))]
    policies = {s.player_id: Script(list(scripts.get(s.player_id, []))) for s in seats}
    result = play_hand(
        hand_id="h-1",
        table_id="t-1",
        tournament_id=tournament,
        started_at=STARTED,
        button_seat=button,
        seats=seats,
        small_blind=blinds[0],
        big_blind=blinds[1],
        ante=ante,
        policies=policies,
        rng=random.Random(7),
        deck=deck,
    )
    return result, policies


def moves(result: HandResult) -> list[tuple[str, str, str, int]]:
    return [(a["street"], a["player_id"], a["action"], a["amount"]) for a in result.hand["actions"]]


def test_three_way_all_in_builds_main_and_two_side_pots() -> None:
    seats = [
        SeatState(1, "a", 100, bounty=50),
        SeatState(2, "b", 300, bounty=50),
        SeatState(3, "c", 600, bounty=50),
        SeatState(4, "d", 1000, bounty=50),
    ]
    result, _ = deal(
        seats,
        4,
        {"a": "AsAh", "b": "KsKh", "c": "QsQh", "d": "7c2d"},
        "3c8d9sJd4h",
        {"c": [("raise", 600)], "d": [("call", 0)], "a": [("call", 0)], "b": [("raise", 10**6)]},
        blinds=(5, 10),
    )
    assert result.hand["winners"] == [
        {"player_id": "a", "amount": 400, "pot": "main"},
        {"player_id": "b", "amount": 600, "pot": "side-1"},
        {"player_id": "c", "amount": 600, "pot": "side-2"},
    ]
    assert result.final_stacks == {"a": 400, "b": 600, "c": 600, "d": 400}
    assert moves(result)[2:] == [
        ("preflop", "c", "all_in", 600),
        ("preflop", "d", "call", 600),
        ("preflop", "a", "all_in", 95),
        ("preflop", "b", "all_in", 290),  # a raise beyond the stack is an all-in call
    ]
    assert len(result.hand["board"]) == 5  # run out with nobody left to bet
    assert [s["player_id"] for s in result.hand["showdown"]] == ["a", "b", "c", "d"]
    assert result.hand["eliminated"] == []


def test_split_pot_odd_chip_goes_to_first_winner_left_of_button() -> None:
    seats = [SeatState(1, "sb", 1000), SeatState(2, "bb", 1000), SeatState(3, "btn", 1000)]
    result, _ = deal(
        seats,
        3,
        {"sb": "2c3d", "bb": "2h3s", "btn": "KcKd"},
        "5c6d7h8s9c",
        {"btn": [("fold", 0)], "sb": [("call", 0)]},
        blinds=(5, 10),
        ante=1,
    )
    assert result.hand["winners"] == [
        {"player_id": "sb", "amount": 12, "pot": "main"},
        {"player_id": "bb", "amount": 11, "pot": "main"},
    ]
    assert result.final_stacks == {"sb": 1001, "bb": 1000, "btn": 999}


def test_ante_and_blind_all_in_for_less() -> None:
    seats = [
        SeatState(1, "sb", 1000),
        SeatState(2, "bb", 60, bounty=500),
        SeatState(3, "btn", 1000),
    ]
    result, scripts = deal(
        seats,
        3,
        {"sb": "7c2d", "bb": "AsAh", "btn": "KcKd"},
        "3c8d9sJd4h",
        {"btn": [("raise", 300)], "sb": [("fold", 0)]},
        ante=10,
    )
    assert moves(result)[3:6] == [
        ("preflop", "sb", "post_sb", 50),
        ("preflop", "bb", "post_bb", 50),
        ("preflop", "btn", "raise", 300),
    ]
    view = scripts["btn"].views[0]
    assert (view.to_call, view.min_raise_to, view.max_raise_to) == (50, 150, 990)
    # bb can win only 60 from each player; the button's unmatched 250 comes back
    assert result.hand["winners"] == [{"player_id": "bb", "amount": 180, "pot": "main"}]
    assert result.final_stacks == {"sb": 940, "bb": 180, "btn": 940}


def test_short_ante_wins_only_its_share() -> None:
    """Per-player antes are contributions: 5 chips can win 5 from each (pokerkit differs)."""
    seats = [SeatState(1, "sb", 1000), SeatState(2, "bb", 1000), SeatState(3, "btn", 5)]
    result, _ = deal(
        seats,
        3,
        {"sb": "7c2d", "bb": "8c2h", "btn": "AsAh"},
        "3c8d9sJd4h",
        {"sb": [("call", 0)]},
        ante=10,
    )
    assert result.hand["winners"] == [
        {"player_id": "btn", "amount": 15, "pot": "main"},
        {"player_id": "bb", "amount": 210, "pot": "side-1"},
    ]


def test_heads_up_button_posts_small_blind_and_acts_first_preflop_only() -> None:
    seats = [SeatState(3, "x", 1000), SeatState(7, "y", 1000)]
    for button in (7, 5):  # seat 5 is empty: the next occupied seat (7) deals
        result, _ = deal(
            seats,
            button,
            {"x": "7c2d", "y": "AsAh"},
            "3c8d9sJd4h",
            {"y": [("call", 0), ("check", 0)], "x": [("check", 0), ("check", 0)]},
        )
        assert [(s, p, a) for s, p, a, _ in moves(result)][:6] == [
            ("preflop", "y", "post_sb"),
            ("preflop", "x", "post_bb"),
            ("preflop", "y", "call"),
            ("preflop", "x", "check"),
            ("flop", "x", "check"),
            ("flop", "y", "check"),
        ]


def test_uncalled_bet_is_returned_not_won() -> None:
    seats = [SeatState(3, "x", 1000), SeatState(7, "y", 1000)]
    result, _ = deal(
        seats,
        7,
        {"x": "7c2d", "y": "AsAh"},
        "3c8d9sJd4h",
        {"y": [("raise", 300)], "x": [("fold", 0)]},
    )
    assert result.hand["winners"] == [{"player_id": "y", "amount": 200, "pot": "main"}]
    assert result.final_stacks == {"x": 900, "y": 1100}
    assert result.hand["board"] == [] and result.hand["showdown"] == []
    assert set(result.fold_times) == {"x"}


@pytest.mark.parametrize(
    ("shove", "reopened"),
    [(400, False), (500, True)],  # +100 over a 200 raise is short; +200 is a full raise
)
def test_short_all_in_does_not_reopen_betting(shove: int, reopened: bool) -> None:
    seats = [
        SeatState(1, "c", 2000),
        SeatState(2, "d", 2000),
        SeatState(3, "a", 2000),
        SeatState(4, "b", shove),
    ]
    result, scripts = deal(
        seats,
        4,
        {"a": "AsAh", "b": "KsKh", "c": "QsQh", "d": "7c2d"},
        "3c8d9sJd4h",
        {
            "a": [("raise", 300), ("raise", 2000)],
            "b": [("raise", shove)],
            "c": [("call", 0)],
            "d": [("call", 0)],
        },
    )
    view = scripts["a"].views[1]
    assert view.to_call == shove - 300
    if reopened:
        assert view.min_raise_to == shove + 200 and view.max_raise_to == 2000
        assert ("preflop", "a", "all_in", 1700) in moves(result)
    else:
        assert view.min_raise_to == view.max_raise_to == shove  # raising is closed: call only
        assert ("preflop", "a", "call", 100) in moves(result)


def test_split_pot_bust_credits_both_winners_with_the_bounty() -> None:
    seats = [SeatState(1, "y", 1000), SeatState(2, "z", 1000), SeatState(3, "x", 200, bounty=500)]
    result, _ = deal(
        seats,
        3,
        {"y": "9c2d", "z": "9h3s", "x": "AdQd"},
        "5c6d7h8sKc",
        {"x": [("raise", 200)], "y": [("call", 0)], "z": [("call", 0)]},
    )
    assert result.hand["eliminated"] == [
        {"player_id": "x", "by": ["y", "z"], "bounty_awarded": 500}
    ]
    assert result.eliminated == ["x"]
    assert result.final_stacks == {"y": 1100, "z": 1100, "x": 0}


def test_cash_table_reports_no_eliminations() -> None:
    seats = [SeatState(1, "y", 1000), SeatState(2, "z", 1000), SeatState(3, "x", 200)]
    result, _ = deal(
        seats,
        3,
        {"y": "9c2d", "z": "9h3s", "x": "AdQd"},
        "5c6d7h8sKc",
        {"x": [("raise", 200)], "y": [("call", 0)], "z": [("call", 0)]},
        tournament=None,
    )
    assert result.final_stacks["x"] == 0
    assert result.hand["eliminated"] == [] and result.eliminated == []


def test_sitting_out_player_checks_when_free_and_folds_to_a_bet() -> None:
    seats = [
        SeatState(1, "sb", 1000),
        SeatState(2, "bb", 1000, sitting_out=True),
        SeatState(3, "btn", 1000),
    ]
    limped, _ = deal(
        seats,
        3,
        {"sb": "7c2d", "bb": "AsAh", "btn": "KcKd"},
        "3c8d9sJd4h",
        {"btn": [("call", 0)], "sb": [("call", 0)]},
    )
    assert ("preflop", "bb", "check", 0) in moves(limped)
    raised, _ = deal(
        seats,
        3,
        {"sb": "7c2d", "bb": "AsAh", "btn": "KcKd"},
        "3c8d9sJd4h",
        {"btn": [("raise", 300)]},
    )
    assert ("preflop", "bb", "fold", 0) in moves(raised)
    assert raised.final_stacks["bb"] == 900


def _check_hand(result: HandResult, seats: list[SeatState]) -> None:
    hand: dict[str, Any] = result.hand
    start = {s.player_id: s.stack for s in seats}
    assert sum(result.final_stacks.values()) == sum(start.values())
    assert min(result.final_stacks.values()) >= 0
    put_in = dict.fromkeys(start, 0)
    for action in hand["actions"]:
        put_in[action["player_id"]] += action["amount"]
        assert TS.match(action["ts"])
    won = dict.fromkeys(start, 0)
    for entry in hand["winners"]:
        won[entry["player_id"]] += entry["amount"]
    assert hand["started_at"] == rfc3339(result.started_at)
    assert hand["ended_at"] == rfc3339(result.ended_at)
    folds = {a["player_id"]: a["ts"] for a in hand["actions"] if a["action"] == "fold"}
    assert {pid: rfc3339(ts) for pid, ts in result.fold_times.items()} == folds
    assert (
        list(result.street_times)
        == ["preflop", "flop", "turn", "river"][: len(result.street_times)]
    )
    stamps = [a["ts"] for a in hand["actions"]]
    assert stamps == sorted(stamps) and hand["ended_at"] >= stamps[-1]
    assert result.ended_at - result.started_at < timedelta(minutes=30)
    for pid, stack in start.items():  # what is not won back was lost or returned uncalled
        assert result.final_stacks[pid] - stack - won[pid] + put_in[pid] >= 0
    busted = {pid for pid, stack in result.final_stacks.items() if stack == 0}
    assert set(result.eliminated) == busted
    assert len(hand["board"]) in ((0, 3, 4, 5) if not hand["showdown"] else (5,))


def test_chips_are_conserved_over_thousands_of_random_hands() -> None:
    rng = random.Random(2026)
    for number in range(2000):
        ante, small_blind, big_blind = rng.choice(((0, 50, 100), (10, 50, 100), (1, 1, 2)))
        seats, button = random_table(rng, 0, big_blind)  # stacks may be below the ante
        policy = RandomPolicy(rng.choice((0.1, 0.3, 0.6)))
        result = play_hand(
            hand_id=f"h-{number}",
            table_id="t-1",
            tournament_id="trn-1",
            started_at=STARTED + timedelta(seconds=number * 61.2345),
            button_seat=button,
            seats=seats,
            small_blind=small_blind,
            big_blind=big_blind,
            ante=ante,
            policies={s.player_id: policy for s in seats},
            rng=rng,
        )
        _check_hand(result, seats)


def test_forced_deck_must_hold_distinct_cards() -> None:
    with pytest.raises(ValueError, match="distinct"):
        deal(
            [SeatState(1, "x", 100), SeatState(2, "y", 100)],
            1,
            {"x": "AsAs", "y": "KdKc"},
            "2c3c4c5c6c",
            {},
        )
