"""The seam between the hold'em engine and the players who decide at it.

The engine (`sim.holdem`) owns the rules: blinds, antes, legal actions, side pots, showdown.
Players (`sim.players`) own the decisions. Keeping the seam this narrow is what lets a colluding
team play differently against its target while the engine stays honest and testable against
pokerkit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

Street = Literal["preflop", "flop", "turn", "river"]
Move = Literal["fold", "check", "call", "raise"]


@dataclass(slots=True)
class SeatState:
    """A player sitting at a table when a hand starts."""

    seat: int
    player_id: str
    stack: int
    bounty: int | None = None
    sitting_out: bool = False  # still posts blinds and antes, then folds (house rule)


@dataclass(frozen=True, slots=True)
class OpponentView:
    player_id: str
    seat: int
    stack: int  # chips behind, after what is already in front of them
    committed_street: int  # chips put in on this street
    committed_hand: int  # chips put in this hand (including antes and blinds)
    folded: bool
    all_in: bool
    bounty: int | None


@dataclass(frozen=True, slots=True)
class DecisionView:
    """Everything a player may legally know when it is their turn (plus their own cards)."""

    hand_id: str
    table_id: str
    tournament_id: str | None
    player_id: str
    seat: int
    button_seat: int
    hole_cards: tuple[str, str]
    board: tuple[str, ...]
    street: Street
    stack: int  # chips behind
    to_call: int  # chips needed to call (capped at stack)
    min_raise_to: int  # smallest legal raise-to total for the street (capped at stack + committed)
    max_raise_to: int  # all-in total for the street
    pot: int  # everything in the middle including this street's bets
    big_blind: int
    opponents: tuple[OpponentView, ...]  # everyone else dealt in, in seat order
    actions_this_street: tuple[tuple[str, str, int], ...]  # (player_id, action, amount)
    preflop_aggressor: str | None


class Policy(Protocol):
    """How one player decides. Return (move, raise_to); raise_to is used only for "raise"."""

    def decide(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]: ...


@dataclass(slots=True)
class HandResult:
    """What the engine returns: the contract `hand` event plus what the table needs next."""

    hand: dict[str, Any]  # a contract `hand` event, ready to serialise
    started_at: datetime
    ended_at: datetime
    final_stacks: dict[str, int]  # player_id -> stack after the hand
    eliminated: list[str]  # player ids who hit zero (tournament)
    fold_times: dict[str, datetime] = field(default_factory=dict)  # when each folder folded
    street_times: dict[str, datetime] = field(default_factory=dict)  # street -> first action time
