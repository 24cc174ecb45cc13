"""No-limit hold'em hand engine: deals one hand and returns its contract `hand` event.

One job, start to finish: play the hand and write it down (`hand_result`) in the contract's
shape, the same shape the site's own hand histories arrive in, so the detectors and the store
cannot tell them apart.

Why our own engine and not pokerkit: pokerkit is the reference (tests replay our hands in it and
demand identical stacks) but deals ~150 hands/s; the traffic simulator needs thousands.

Rules, following pokerkit where the two could differ so the cross-check is exact:
- Players are indexed by position: 0 is the first seat clockwise after the dealer, the dealer
  is last. Heads-up the dealer posts the small blind and acts first preflop.
- Every player posts the ante (all they have if short), then the blinds; a short blind is an
  all-in for less and the amount to call is what was actually posted.
- Minimum raise increment: the largest increment of the street (at least the big blind). A raise
  is "full" when its increment reaches that size; only a full raise, or consecutive all-ins for
  less that add up to one, lets players who already acted raise again.
- Antes are ordinary contributions to the pots (correct per-player-ante side pots). pokerkit
  puts all antes in the main pot instead; the two agree unless someone cannot cover the ante.
- Odd chips of a split all go to the first winner clockwise from the button; levels of the pot
  contested by the same surviving hands are pushed as one pot, so a split pays odd chips once.
- A sitting-out player checks when checking is free and folds otherwise.
- A forced `deck` (tests) is dealt like a dealer does: one hole card at a time starting at
  position 0, two rounds, then the next five cards are the board (no burn cards).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from railbird.detectors.play.hand_rank import DECK
from railbird.sim.hand_clock import HandClock, rfc3339, think_ms
from railbird.sim.pots import settle
from railbird.sim.table_view import (
    DecisionView,
    HandResult,
    Move,
    OpponentView,
    Policy,
    SeatState,
    Street,
)

STREETS: tuple[Street, ...] = ("preflop", "flop", "turn", "river")
_BOARD_AFTER: dict[str, int] = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}


def position_order(seats: Sequence[SeatState], button_seat: int) -> list[SeatState]:
    """Players from the first seat clockwise after the dealer to the dealer.

    The dealer is `button_seat`, or the next occupied seat clockwise when that seat is empty.
    """
    by_seat = sorted(seats, key=lambda s: s.seat)
    dealer = next((i for i, s in enumerate(by_seat) if s.seat >= button_seat), 0)
    return by_seat[dealer + 1 :] + by_seat[: dealer + 1]


def play_hand(
    *,
    hand_id: str,
    table_id: str,
    tournament_id: str | None,
    started_at: datetime,
    button_seat: int,
    seats: list[SeatState],
    small_blind: int,
    big_blind: int,
    ante: int,
    policies: Mapping[str, Policy],
    rng: random.Random,
    deck: Sequence[str] | None = None,
) -> HandResult:
    """Play one hand to the end; `deck` forces the cards (see the module docstring)."""
    hand = HandInPlay(hand_id, table_id, tournament_id, started_at, button_seat, seats, rng)
    return hand.play(small_blind, big_blind, ante, policies, deck)


class HandInPlay:
    """Mutable state of one hand; arrays are indexed by position (see module docstring)."""

    def __init__(
        self,
        hand_id: str,
        table_id: str,
        tournament_id: str | None,
        started_at: datetime,
        button_seat: int,
        seats: list[SeatState],
        rng: random.Random,
    ) -> None:
        if len(seats) < 2:
            raise ValueError("a hand needs at least two players")
        self.players: list[SeatState] = position_order(seats, button_seat)
        self.hand_id, self.table_id, self.tournament_id = hand_id, table_id, tournament_id
        self.time = HandClock(started_at)
        self.started_at = self.time.started_at
        self.button_seat = button_seat
        self.rng = rng
        n = self.n = len(self.players)
        self.ids = [p.player_id for p in self.players]
        self.start = [p.stack for p in self.players]
        self.stack = list(self.start)
        self.bet = [0] * n  # this street
        self.contrib = [0] * n  # this hand, antes included
        self.folded = [False] * n
        self.active = n
        self.holes: list[tuple[str, str]] = []
        self.board: list[str] = []
        self.actions: list[dict[str, Any]] = []
        self.street_actions: list[tuple[str, str, int]] = []
        self.preflop_aggressor: str | None = None
        self.clock = 0  # milliseconds since started_at
        self.fold_ms: dict[str, int] = {}
        self.street_ms: dict[str, int] = {}
        self.seat_order = sorted(range(n), key=lambda i: self.players[i].seat)
        self.others = [[j for j in self.seat_order if j != i] for i in range(n)]
        self.small_blind = self.big_blind = self.ante = 0
        self.views: list[OpponentView | None] = [None] * n

    # -- recording -------------------------------------------------------------------------
    def _record(self, street: Street, i: int, action: str, amount: int, to: int | None) -> None:
        event: dict[str, Any] = {
            "ts": self.time.stamp(self.clock),
            "street": street,
            "player_id": self.ids[i],
            "action": action,
            "amount": amount,
        }
        if to is not None:
            event["to"] = to
        self.actions.append(event)
        self.street_actions.append((self.ids[i], action, amount))
        self.street_ms.setdefault(street, self.clock)

    def _put(self, i: int, amount: int) -> None:
        self.views[i] = None
        self.stack[i] -= amount
        self.bet[i] += amount
        self.contrib[i] += amount

    # -- the hand --------------------------------------------------------------------------
    def play(
        self,
        small_blind: int,
        big_blind: int,
        ante: int,
        policies: Mapping[str, Policy],
        deck: Sequence[str] | None,
    ) -> HandResult:
        n = self.n
        self.small_blind, self.big_blind, self.ante = small_blind, big_blind, ante
        cards = list(deck) if deck is not None else self.rng.sample(DECK, 2 * n + 5)
        self.holes = [(cards[i], cards[n + i]) for i in range(n)]
        runout = cards[2 * n : 2 * n + 5]
        if len(set(cards[: 2 * n + 5])) != 2 * n + 5 or len(runout) != 5:
            raise ValueError("the deck must hold distinct cards for every hole and the board")
        self.clock += 1000
        if ante > 0:
            for i in range(n):
                amount = min(ante, self.stack[i])
                self.stack[i] -= amount
                self.contrib[i] += amount
                if amount:
                    self._record("preflop", i, "post_ante", amount, None)
        for i, blind, kind in (
            (n - 1 if n == 2 else 0, small_blind, "post_sb"),
            (0 if n == 2 else 1, big_blind, "post_bb"),
        ):
            amount = min(blind, self.stack[i])
            self._put(i, amount)
            if amount:
                self._record("preflop", i, kind, amount, None)
        for street in STREETS:
            if street != "preflop":
                self.board = runout[: _BOARD_AFTER[street]]
                self.clock += int(self.rng.uniform(1000.0, 2000.0))
            self.street_actions = []
            self._betting(street, policies)
            self.street_ms.setdefault(street, self.clock)
            self.bet = [0] * n
            self.views = [None] * n
            if self.active == 1:
                break
        return self._finish()

    def _betting(self, street: Street, policies: Mapping[str, Policy]) -> None:
        n = self.n
        if self.active < 2:
            return
        opener = (1 if n == 2 else 2 % n) if street == "preflop" else 0
        order = [(opener + k) % n for k in range(n)]
        # as pokerkit: someone who can lose nothing more (the others are all in) does not act
        totals = sorted(self.bet[j] + self.stack[j] for j in range(n) if not self.folded[j])
        covered = totals[-2]
        actors = [
            i for i in order if not self.folded[i] and self.stack[i] and covered > self.bet[i]
        ]
        max_bet = max(self.bet)
        if len(actors) == 1 and self.bet[actors[0]] >= max_bet:
            return
        full = 0  # largest raise increment this street (pokerkit's completion amount)
        acted: set[int] = set()
        shorts: list[int] = []  # consecutive all-ins for less than a full raise
        pos = 0
        while pos < len(actors) and self.active > 1:
            i = actors[pos]
            pos += 1
            to_call = min(self.stack[i], max_bet - self.bet[i])
            can_raise = (
                to_call >= full
                and not (shorts and sum(shorts) < full and i in acted)
                and self.stack[i] > max_bet - self.bet[i]
                and any(
                    j != i and not self.folded[j] and self.stack[j] + self.bet[j] > max_bet
                    for j in range(n)
                )
            )
            acted.add(i)
            all_in_to = self.stack[i] + self.bet[i]
            if can_raise:
                min_to = min(all_in_to, max_bet + max(full, self.big_blind))
                max_to = all_in_to
            else:
                min_to = max_to = self.bet[i] + to_call
            move, raise_to = self._ask(street, i, to_call, min_to, max_to, policies)
            if move == "raise" and not can_raise:
                move = "call"
            if move == "fold" and to_call == 0:
                move = "check"
            elif move == "check" and to_call > 0:
                move = "fold"
            elif move == "call" and to_call == 0:
                move = "check"
            if move == "fold":
                self.folded[i] = True
                self.views[i] = None
                self.active -= 1
                self.fold_ms[self.ids[i]] = self.clock
                self._record(street, i, "fold", 0, None)
            elif move == "check":
                self._record(street, i, "check", 0, None)
            elif move == "call":
                self._put(i, to_call)
                if self.stack[i]:
                    self._record(street, i, "call", to_call, None)
                else:
                    self._record(street, i, "all_in", to_call, self.bet[i])
            else:
                target = max(min_to, min(max_to, raise_to))
                amount = target - self.bet[i]
                self._put(i, amount)
                kind = "all_in" if not self.stack[i] else ("bet" if max_bet == 0 else "raise")
                self._record(street, i, kind, amount, target)
                if street == "preflop":
                    self.preflop_aggressor = self.ids[i]
                increment = target - max_bet
                max_bet = target
                if increment >= full:
                    acted = {i}
                full = max(full, increment)
                if self.stack[i]:
                    shorts.clear()
                else:
                    shorts.append(increment)
                if sum(shorts) >= full:
                    shorts.clear()
                after = [(i + k) % n for k in range(1, n)]
                actors = [j for j in after if not self.folded[j] and self.stack[j]]
                pos = 0

    def _ask(
        self,
        street: Street,
        i: int,
        to_call: int,
        min_to: int,
        max_to: int,
        policies: Mapping[str, Policy],
    ) -> tuple[Move, int]:
        player = self.players[i]
        if player.sitting_out:
            self.clock += int(self.rng.uniform(300.0, 1000.0))
            return "fold", 0
        self.clock += think_ms(self.rng)
        view = DecisionView(
            hand_id=self.hand_id,
            table_id=self.table_id,
            tournament_id=self.tournament_id,
            player_id=player.player_id,
            seat=player.seat,
            button_seat=self.button_seat,
            hole_cards=self.holes[i],
            board=tuple(self.board),
            street=street,
            stack=self.stack[i],
            to_call=to_call,
            min_raise_to=min_to,
            max_raise_to=max_to,
            pot=sum(self.contrib),
            big_blind=self.big_blind,
            opponents=tuple([self.views[j] or self._opponent(j) for j in self.others[i]]),
            actions_this_street=tuple(self.street_actions),
            preflop_aggressor=self.preflop_aggressor,
        )
        return policies[player.player_id].decide(view, self.rng)

    def _opponent(self, j: int) -> OpponentView:
        """Cached per player; `_put`, folds and new streets invalidate (views are hot)."""
        view = self.views[j]
        if view is None:
            view = self.views[j] = OpponentView(
                player_id=self.ids[j],
                seat=self.players[j].seat,
                stack=self.stack[j],
                committed_street=self.bet[j],
                committed_hand=self.contrib[j],
                folded=self.folded[j],
                all_in=self.stack[j] == 0,
                bounty=self.players[j].bounty,
            )
        return view

    def _finish(self) -> HandResult:
        stack = self.stack
        live = [i for i in range(self.n) if not self.folded[i]]
        winners, eliminated = settle(
            self.contrib,
            stack,
            live,
            [(*hole, *self.board) for hole in self.holes],
            self.ids,
            None if self.tournament_id is None else [p.bounty for p in self.players],
            self.hand_id,
        )
        wrap_up = (
            self.rng.uniform(1500.0, 3000.0) if len(live) > 1 else self.rng.uniform(500.0, 1500.0)
        )
        self.clock += int(wrap_up)
        return hand_result(self, live, winners, eliminated)


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
