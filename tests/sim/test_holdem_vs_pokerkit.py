"""Replays engine hands in pokerkit 0.7.7 (the reference) and demands identical final stacks.

pokerkit is driven through its state API with the engine's cards and actions, so turn order,
legality (pokerkit raises on an illegal action) and pot arithmetic are all checked. Stacks always
cover the ante here: pokerkit puts every ante in the main pot (dead money), the engine treats
antes as contributions; the two agree unless a player cannot cover the ante.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest
from pokerkit import Automation, Mode, NoLimitTexasHoldem

from railbird.sim.holdem import play_hand, position_order
from railbird.sim.table_view import HandResult, SeatState
from tests.sim import RandomPolicy, random_table

STARTED = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
STRUCTURES = ((0, 50, 100), (10, 50, 100), (25, 100, 200), (1, 1, 2), (0, 1, 2))
DECISIONS = {"fold", "check", "call", "bet", "raise", "all_in"}


def replay(result: HandResult, ante: int, small_blind: int, big_blind: int) -> list[int]:
    """Final stacks, in position order, of the same hand played by pokerkit."""
    hand = result.hand
    by_id = {s["player_id"]: s for s in hand["seats"]}
    order = [p.player_id for p in position_order(_seat_states(hand), hand["button_seat"])]
    index = {pid: i for i, pid in enumerate(order)}
    state = NoLimitTexasHoldem.create_state(
        AUTOMATIONS,
        False,  # ante_trimming_status: keep every ante (see notes/collusion.md)
        ante,
        (small_blind, big_blind),
        big_blind,
        [by_id[pid]["stack"] for pid in order],
        len(order),
        mode=Mode.TOURNAMENT,
    )
    for card in range(2):
        for pid in order:
            state.deal_hole(by_id[pid]["hole_cards"][card])
    board = list(hand["board"])
    actions = [a for a in hand["actions"] if a["action"] in DECISIONS]
    while state.status:
        if state.can_burn_card():
            state.burn_card("??")
        elif state.can_deal_board():
            count = 3 if not state.board_cards else 1
            state.deal_board("".join(board[:count]))
            del board[:count]
        elif state.actor_index is not None:
            action = actions.pop(0)
            assert state.actor_index == index[action["player_id"]], action
            _apply(state, action)
        else:
            raise AssertionError(f"pokerkit is stuck in {hand['hand_id']}")
    assert not actions, "the engine recorded actions pokerkit never asked for"
    assert not board, "the engine dealt board cards pokerkit never needed"
    return list(state.stacks)


def _apply(state: Any, action: dict[str, Any]) -> None:
    kind = action["action"]
    if kind == "fold":
        state.fold()
    elif kind in ("check", "call") or (kind == "all_in" and action["to"] <= max(state.bets)):
        state.check_or_call()
    else:
        state.complete_bet_or_raise_to(action["to"])


def _seat_states(hand: dict[str, Any]) -> list[SeatState]:
    return [
        SeatState(seat=s["seat"], player_id=s["player_id"], stack=s["stack"]) for s in hand["seats"]
    ]


def _play(seed: int) -> tuple[HandResult, int, int, int]:
    rng = random.Random(seed)
    ante, small_blind, big_blind = rng.choice(STRUCTURES)
    seats, button = random_table(rng, ante, big_blind)
    aggression = rng.choice((0.1, 0.3, 0.6))
    result = play_hand(
        hand_id=f"h-{seed}",
        table_id="t-1",
        tournament_id="trn-1",
        started_at=STARTED,
        button_seat=button,
        seats=seats,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        policies={s.player_id: RandomPolicy(aggression) for s in seats},
        rng=rng,
    )
    return result, ante, small_blind, big_blind


@pytest.mark.parametrize("block", range(8))
def test_engine_hands_replay_identically_in_pokerkit(block: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(block * 60, block * 60 + 60):
        result, ante, small_blind, big_blind = _play(seed)
        hand = result.hand
        order = [p.player_id for p in position_order(_seat_states(hand), hand["button_seat"])]
        expected = [result.final_stacks[pid] for pid in order]
        assert replay(result, ante, small_blind, big_blind) == expected, hand["hand_id"]
        pots = {w["pot"] for w in hand["winners"]}
        seen["side pot"] += any(p.startswith("side") for p in pots)
        seen["split"] += len(hand["winners"]) > len(pots)
        seen["all in"] += any(a["action"] == "all_in" for a in hand["actions"])
        seen["heads-up"] += len(order) == 2
        seen["ante"] += ante > 0
    # the sample must exercise the hard cases, not only folds to the big blind
    assert all(seen[k] > 0 for k in ("side pot", "split", "all in", "heads-up", "ante")), seen
