"""A second family of honest players, built differently from `players.HonestPolicy` on purpose.

The collusion detectors learn what honest play looks like from simulated days, and are judged
on days from generators whose honest players play otherwise. So the simulator carries a second
way of playing to test that transfer: position-aware opening ranges, limps, polarised
three-bets, continuation bets and barrels, check-raises and slow-plays, pot-odds calls and
bet sizes from a third of the pot to an overbet, over a hand ranking of its own (high cards and
pairs rather than the Chen score). `SimConfig.positional_share` decides how many players play
this way; the default (none) keeps every earlier day byte-identical.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from railbird.detectors.play.hand_rank import CARD_CODE, evaluate
from railbird.sim.config import SimConfig
from railbird.sim.players import HonestPolicy, Player, passive_move, raise_move
from railbird.sim.strength import percentile_table
from railbird.sim.table_view import DecisionView, Move, Policy

_RANK = {r: i for i, r in enumerate("23456789TJQKA")}


@dataclass(frozen=True, slots=True)
class Tendencies:
    open_width: float  # share of hands opened from the button; early seats open less
    limp: float  # share of playable unopened hands limped rather than raised
    three_bet: float  # share of hands re-raised against a single open (value, some bluffs)
    defend: float  # share of hands that call an open
    cbet: float  # continuation bets as the preflop raiser
    barrel: float  # bets again on the turn and river without improving
    trap: float  # monsters checked or called to raise later
    give_up: float  # 0..1: how readily a marginal hand folds to a bet
    sizing: float  # usual bet as a share of the pot
    river_bluff: float


def draw_tendencies(rng: random.Random) -> Tendencies:
    return Tendencies(
        open_width=rng.uniform(0.2, 0.7),
        limp=rng.choice((0.0, 0.0, 0.15, 0.5)),
        three_bet=rng.uniform(0.03, 0.14),
        defend=rng.uniform(0.08, 0.3),
        cbet=rng.uniform(0.3, 0.9),
        barrel=rng.uniform(0.1, 0.5),
        trap=rng.uniform(0.0, 0.35),
        give_up=rng.uniform(0.2, 0.8),
        sizing=rng.choice((0.33, 0.5, 0.66, 0.75, 1.0, 1.25)),
        river_bluff=rng.uniform(0.0, 0.2),
    )


def _raw_score(high: int, low: int, suited: bool) -> float:
    """Pairs by rank, then the two ranks weighted high, suited and connected a little."""
    if high == low:
        return 0.55 + 0.45 * high / 12
    score = 0.42 * high / 12 + 0.3 * low / 12 + (0.08 if suited else 0.0)
    return score + max(0.0, 0.06 - 0.02 * (high - low - 1))


_PERCENTILE = percentile_table(_raw_score)


def preflop_score(hole: tuple[str, str]) -> float:
    """The share of starting hands this one ranks at or above, 0..1."""
    a, b = _RANK[hole[0][0]], _RANK[hole[1][0]]
    return _PERCENTILE[(max(a, b), min(a, b), hole[0][1] == hole[1][1])]


def made_value(hole: tuple[str, str], board: tuple[str, ...]) -> float:
    """0..1 from the hand category with the board, minus what the board alone already has."""
    mine = evaluate(CARD_CODE[c] for c in (*hole, *board))
    category = mine >> 20
    board_category = evaluate(CARD_CODE[c] for c in board) >> 20 if len(board) >= 5 else 0
    if category <= board_category:
        category = 0
    top = (mine >> 16) & 0xF
    value = (0.1, 0.35, 0.62, 0.74, 0.8, 0.85, 0.92, 0.97, 0.99)[category]
    if category == 1:  # a pair: how high it is against the board decides a lot
        board_top = max(_RANK[c[0]] for c in board)
        value += 0.2 if top >= board_top else (0.1 if top >= board_top - 3 else 0.0)
    suits = [c[1] for c in (*hole, *board)]
    draw = len(board) < 5 and any(suits.count(s) == 4 for s in "cdhs")
    return min(0.99, value + (0.15 if draw and category < 2 else 0.0))


class PositionalPolicy:
    """Position- and price-aware honest play shaped by `Tendencies`."""

    __slots__ = ("player", "tend")

    def __init__(self, player: Player, tendencies: Tendencies) -> None:
        self.player = player
        self.tend = tendencies

    def decide(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        if self.player.style.misclick and rng.random() < self.player.style.misclick:
            return passive_move(view, True)
        if view.street == "preflop":
            return self._preflop(view, rng)
        return self._postflop(view, rng)

    def _position(self, view: DecisionView) -> float:
        """0 in the small blind .. 1 on the button."""
        seats = sorted([view.seat, *(o.seat for o in view.opponents)])
        order = sorted(seats, key=lambda s: (s - view.button_seat - 1) % 64)
        return order.index(view.seat) / max(1, len(order) - 1)

    def _preflop(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        t = self.tend
        score = preflop_score(view.hole_cards)
        bb = view.big_blind
        depth = (view.stack + view.to_call) / bb
        raises = sum(1 for _, act, _ in view.actions_this_street if act in ("raise", "all_in"))
        if depth < 10:
            width = min(0.9, t.open_width * (1.6 - depth / 12) / (1 + raises))
            return (
                raise_move(view, view.max_raise_to)
                if score >= 1 - width
                else passive_move(view, False)
            )
        position = self._position(view)
        if raises == 0:
            width = t.open_width * (0.35 + 0.65 * position)
            if score >= 1 - width:
                if rng.random() < t.limp and view.to_call <= bb:
                    return passive_move(view, True)
                return raise_move(view, int(bb * rng.choice((2, 2.5, 3, 4))))
            return passive_move(view, view.to_call == 0)
        price = view.to_call / (view.pot + view.to_call)
        if raises == 1:
            if score >= 1 - t.three_bet or (position > 0.7 and rng.random() < t.three_bet / 3):
                return raise_move(view, int(view.to_call * rng.uniform(2.8, 3.6) + view.pot))
            return passive_move(view, score >= 1 - t.defend * (1.2 - price))
        return passive_move(view, score >= 0.93 - 0.1 * (1 - price))

    def _postflop(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        t = self.tend
        value = made_value(view.hole_cards, view.board)
        live = [o for o in view.opponents if not o.folded]
        if view.to_call == 0:
            dry = any(o.all_in for o in live) and sum(1 for o in live if not o.all_in) == 1
            if dry and value < 0.95:
                return "check", 0  # a dry side pot
            aggressor = view.preflop_aggressor == view.player_id
            size = int(view.pot * t.sizing * rng.uniform(0.85, 1.15))
            if value >= 0.8 and rng.random() >= t.trap:
                return raise_move(view, max(view.min_raise_to, size))
            if view.street == "flop" and aggressor and rng.random() < t.cbet:
                return raise_move(view, max(view.min_raise_to, size))
            bluff = t.river_bluff if view.street == "river" else t.barrel
            if aggressor and rng.random() < bluff * (0.5 + len(view.board) / 10):
                return raise_move(view, max(view.min_raise_to, size))
            return "check", 0
        price = view.to_call / (view.pot + view.to_call)
        if value >= 0.85 and rng.random() < 0.5 + t.trap:
            return raise_move(view, view.to_call * 3 + view.pot)
        need = price + 0.15 + 0.25 * t.give_up
        return passive_move(view, value >= need)


def assign_family(player: Player, cfg: SimConfig) -> Player:
    """Give `player` the second family's tendencies with probability `cfg.positional_share`,
    from a generator of its own (the day's other draws stay as they were)."""
    if cfg.positional_share > 0:
        rng = random.Random(f"{cfg.seed}:{player.pid}:family")
        if rng.random() < cfg.positional_share:
            player.tendencies = draw_tendencies(rng)
    return player


def honest_policy(player: Player) -> Policy:
    """How `player` plays when playing honestly: its family's policy."""
    if isinstance(player.tendencies, Tendencies):
        return PositionalPolicy(player, player.tendencies)
    return HonestPolicy(player)
