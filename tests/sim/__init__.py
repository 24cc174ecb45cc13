"""Shared builders for the hold'em engine tests: random tables and a random legal player.

(Reconstructed by the simulator helper after it accidentally truncated the original; the engine
helper should check it against their version.)
"""

from __future__ import annotations

import random

from railbird.sim.table_view import DecisionView, Move, SeatState


class RandomPolicy:
    """Random but legal play; `aggression` is the chance of raising when a raise is legal."""

    def __init__(self, aggression: float) -> None:
        self.aggression = aggression

    def decide(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        can_raise = view.stack > view.to_call and view.max_raise_to >= view.min_raise_to
        if can_raise and rng.random() < self.aggression:
            if rng.random() < 0.2:
                return "raise", view.max_raise_to
            return "raise", rng.randint(view.min_raise_to, view.max_raise_to)
        if view.to_call == 0:
            return "check", 0
        return ("fold", 0) if rng.random() < 0.35 else ("call", 0)


def random_table(rng: random.Random, ante: int, big_blind: int) -> tuple[list[SeatState], int]:
    """2-9 players on random seats of a 9-max table with short, medium and deep stacks."""
    n = rng.randint(2, 9)
    seats = sorted(rng.sample(range(1, 10), n))
    low = ante + 1 if ante else 1
    states = []
    for k, seat in enumerate(seats):
        depth = rng.random()
        if depth < 0.25:
            stack = rng.randint(low, max(low, 3 * big_blind))
        elif depth < 0.7:
            stack = rng.randint(5 * big_blind, 40 * big_blind)
        else:
            stack = rng.randint(50 * big_blind, 200 * big_blind)
        states.append(SeatState(seat=seat, player_id=f"p-{k + 1}", stack=stack))
    return states, rng.choice(seats)
