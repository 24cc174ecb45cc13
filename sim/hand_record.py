"""A finished hand written down: the contract's `hand` event and the simulator's `HandResult`.

Kept apart from the engine (`sim.holdem`): the engine decides what happened; this only puts it
in the contract's shape (field names, seats in seat order, timestamps), the same shape the
site's own hand histories arrive in, so the detectors and the store cannot tell them apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from railbird.sim.hand_clock import rfc3339
from railbird.sim.table_view import HandResult

if TYPE_CHECKING:
    from railbird.sim.holdem import HandInPlay


def hand_result(
    hand: HandInPlay,
    live: Sequence[int],
    winners: list[dict[str, Any]],
    eliminated: list[dict[str, Any]],
) -> HandResult:
    """`hand` after `settle`: `live` are the players who did not fold (a showdown when two or
    more), `winners` and `eliminated` are the contract's lists."""
    showdown = len(live) > 1
    event: dict[str, Any] = {
        "type": "hand",
        "hand_id": hand.hand_id,
        "table_id": hand.table_id,
        "tournament_id": hand.tournament_id,
        "game": "NLHE",
        "started_at": rfc3339(hand.started_at),
        "ended_at": hand.time.stamp(hand.clock),
        "button_seat": hand.button_seat,
        "small_blind": hand.small_blind,
        "big_blind": hand.big_blind,
        "ante": hand.ante,
        "seats": [
            {
                "seat": hand.players[i].seat,
                "player_id": hand.ids[i],
                "stack": hand.start[i],
                "bounty": hand.players[i].bounty,
                "hole_cards": list(hand.holes[i]),
            }
            for i in hand.seat_order
        ],
        "actions": hand.actions,
        "board": list(hand.board),
        "showdown": [{"player_id": hand.ids[i], "cards": list(hand.holes[i])} for i in live]
        if showdown
        else [],
        "winners": winners,
        "eliminated": eliminated,
    }
    at = hand.time.at
    return HandResult(
        hand=event,
        started_at=hand.started_at,
        ended_at=at(hand.clock),
        final_stacks=dict(zip(hand.ids, hand.stack, strict=True)),
        eliminated=[e["player_id"] for e in eliminated],
        fold_times={pid: at(ms) for pid, ms in hand.fold_ms.items()},
        street_times={street: at(ms) for street, ms in hand.street_ms.items()},
    )
