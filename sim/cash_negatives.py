"""Honest cash-table behaviour that looks like chip dumping or soft play: the hard negatives.

Each is two honest players kept at one table all day (`SimConfig.cash_hard_negatives`, one kind
per table in turn) and labelled in the truth, so that a detector flagging them is measured:

- `regulars_side_by_side`: two aggressive regulars in adjacent seats; the one on the left
  (acting after the other) re-raises the other's opens often, as position invites;
- `short_stack_shoving`: a player who buys in for 15-25 big blinds and shoves wide (and, once
  doubled up, leaves and sits straight back down short), beside a deep player who tops up to
  250 and calls wide: chips go back and forth between them;
- `bad_luck_against_winner`: a very loose, passive player with a strong, aggressive one on
  his left, to whom he loses much of the day;
- `friends`: two players of their own styles who chat privately all day, naming seatmates.

The players, their seats, stacks and chat draw from a generator of the table's own, so a day
without this option is what it was.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from railbird.sim import chat_lines, strength
from railbird.sim.config import SimConfig
from railbird.sim.players import Player, Style, new_player, passive_move, raise_move
from railbird.sim.positional_players import assign_family, honest_policy
from railbird.sim.stream import Outbox
from railbird.sim.table import TableRun
from railbird.sim.table_view import DecisionView, HandResult, Move, Policy

KINDS = ("regulars_side_by_side", "short_stack_shoving", "bad_luck_against_winner", "friends")
# The two players of each kind, in order, as the truth names them.
ROLES = {
    "regulars_side_by_side": ("opener", "re_raiser"),
    "short_stack_shoving": ("short_stack", "deep_stack"),
    "bad_luck_against_winner": ("loser", "winner"),
    "friends": ("friend", "friend"),
}
DEEP_BUY_IN = 250  # big blinds
FRIEND_TALK = (
    "[lol|haha] {t} is [so loose|spewing|on tilt] [tonight|today|]",
    "[how much|how far] are you [up|down] [now|so far|]?",
    "[im|i'm] [up|down] [two|three|a couple of] buyins [lol|]",
    "[wanna|want to] [switch|move] tables [after this orbit|soon|]?",
    "{t} [just|] [rivered|sucked out on] me [again|lol|]",
    "[brb|back in 5|grabbing a coffee]",
    "[dinner|food|beer] after this session?",
    "{t} [never folds|calls everything|plays every hand] [lol|]",
    "[this table is|table's] [soft|tough|weird] [tonight|]",
    "[nice|sick] [hand|pot] [man|mate|]",
)


def aggressive_regular() -> Style:
    return Style(
        0.27, pfr=0.8, aggression=0.75, bluff=0.12, station=0.05, checkdown_dry=0.9, misclick=0.0
    )


def loose_passive() -> Style:
    """Plays most hands, calls down with little and seldom raises: pays the strong off."""
    return Style(
        0.6, pfr=0.1, aggression=0.05, bluff=0.0, station=0.9, checkdown_dry=0.9, misclick=0.0
    )


def strong_winner() -> Style:
    """Raises a tight range and bets it for value; hardly bluffs a player who never folds."""
    return Style(
        0.22, pfr=0.9, aggression=0.9, bluff=0.03, station=0.0, checkdown_dry=0.9, misclick=0.0
    )


def _raisers(view: DecisionView) -> list[str]:
    return [pid for pid, act, _ in view.actions_this_street if act in ("raise", "all_in")]


class ReRaiserPolicy:
    """Re-raises the opens of the regular on his right often: acting right after the opener,
    in position, is where light three-bets belong. Otherwise his honest game."""

    __slots__ = ("base", "opener", "rate")

    def __init__(self, player: Player, opener: str, rate: float) -> None:
        self.base = honest_policy(player)
        self.opener = opener
        self.rate = rate

    def decide(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        move = self.base.decide(view, rng)
        if view.street != "preflop" or move[0] == "raise" or _raisers(view) != [self.opener]:
            return move
        if view.to_call * 4 > view.stack or strength.preflop(view.hole_cards) < 0.25:
            return move
        if rng.random() < self.rate:
            return raise_move(view, view.to_call * 3 + view.pot)
        return move


class ShortStackPolicy:
    """Short (40 big blinds or less): unopened or against one raise, shoves a wide range,
    else folds. Deeper, his honest game."""

    __slots__ = ("base",)

    def __init__(self, player: Player) -> None:
        self.base = honest_policy(player)

    def decide(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        if view.street != "preflop" or view.stack + view.to_call > 40 * view.big_blind:
            return self.base.decide(view, rng)
        raises = len(_raisers(view))
        width = (0.45, 0.2)[raises] if raises < 2 else 0.06
        if strength.preflop(view.hole_cards) >= 1 - width:
            return raise_move(view, view.max_raise_to)
        return passive_move(view, False)


class DeepCallerPolicy:
    """A deep stack who calls raises and shoves wide when they cost little of his stack."""

    __slots__ = ("base",)

    def __init__(self, player: Player) -> None:
        self.base = honest_policy(player)

    def decide(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        move = self.base.decide(view, rng)
        if move[0] != "fold" or view.street != "preflop" or view.to_call == 0:
            return move
        if view.to_call > 30 * view.big_blind or view.to_call * 6 > view.stack:
            return move
        return passive_move(view, strength.preflop(view.hole_cards) > 0.3)


@dataclass(slots=True)
class CashNegative:
    """One hard negative at one table: `first` and `second` in the order of `ROLES[kind]`."""

    kind: str
    first: Player
    second: Player
    rng: random.Random
    message_ids: list[str] = field(default_factory=list)
    shared_hands: int = 0
    flow: float = 0.0  # chips `first` lost to `second` in their shared hands, net

    @property
    def players(self) -> tuple[Player, Player]:
        return self.first, self.second

    def refill(self, table: TableRun, big_blind: int, ms: int) -> None:
        """After the hand that ended at `ms`, before the table's own rebuys: the two stay all
        day. The short stack buys in short again when broke, and once doubled up (after the ten
        hands the house asks) leaves with his winnings and sits straight back down short, as
        short-stackers do; the deep stack tops up."""
        short, deep = self.players
        if self.kind != "short_stack_shoving":
            for p in self.players:
                if p.stack == 0:
                    p.stack = big_blind * 100
            return
        if deep.stack < 150 * big_blind:
            deep.stack = big_blind * DEEP_BUY_IN  # a top-up, as cash tables allow
        doubled = short.stack > 50 * big_blind and table.session_hands.get(short.pid, 0) >= 10
        if short.stack == 0 or doubled:
            short.stack = big_blind * self.rng.randint(15, 25)
        if doubled and short.seat is not None:
            seat, policy = short.seat, table.policies[short.pid]
            leave = ms + self.rng.randint(500, 2_000)
            table.unseat(short, leave)
            table.seat(short, seat, leave + self.rng.randint(1_000, 3_000), policy)

    def observe(self, result: HandResult) -> None:
        """Count a shared hand and what went from `first` to `second` in it: each loser's
        loss is shared among the winners in proportion to their gains."""
        start = {s["player_id"]: s["stack"] for s in result.hand["seats"]}
        a, b = self.first.pid, self.second.pid
        if a not in start or b not in start:
            return
        self.shared_hands += 1
        delta = {pid: result.final_stacks[pid] - chips for pid, chips in start.items()}
        gains = sum(d for d in delta.values() if d > 0)
        if gains:
            self.flow += (
                max(0, -delta[a]) * max(0, delta[b]) - max(0, -delta[b]) * max(0, delta[a])
            ) / gains

    def chat(self, out: Outbox, table: TableRun, ms: int) -> bool:
        """One private line between friends while both are seated; False when they are not."""
        a, b = self.players
        if not (a.alive and b.alive and a.table_id and b.table_id):
            return False
        rng = self.rng
        speaker, other = (a, b) if rng.random() < 0.5 else (b, a)
        seatmates = [p for p in table.seats.values() if p.pid not in (a.pid, b.pid)]
        named = rng.choice(seatmates).name if seatmates else other.name
        if rng.random() < 0.7:
            text = chat_lines.say(rng, FRIEND_TALK, t=named)
        else:
            text = chat_lines.say(rng, chat_lines.PRIVATE_TALK)
        mid = out.chat(
            ms, speaker.pid, speaker.name, text, channel="private", recipient_id=other.pid
        )
        self.message_ids.append(mid)
        return True

    def truth(self, table_id: str) -> dict[str, Any]:
        record: dict[str, Any] = {
            "hard_negative": self.kind,
            "player_ids": sorted(p.pid for p in self.players),
            "table_id": table_id,
            "shared_hands": self.shared_hands,
        }
        first, second = ROLES[self.kind]
        if first != second:
            record[first], record[second] = self.first.pid, self.second.pid
        if self.kind == "bad_luck_against_winner":
            record["lost_to_winner"] = round(self.flow)
        if self.kind == "friends":
            record["message_ids"] = list(self.message_ids)
        return record


def _seats(table: TableRun, adjacent: bool, rng: random.Random) -> tuple[int, int] | None:
    """Two free seats; `adjacent`: the second directly to the left of the first."""
    free = table.free_seats()
    if adjacent:
        pairs = [(s, s + 1) for s in free if s + 1 in free]
        return rng.choice(pairs) if pairs else None
    return (free[0], free[1]) if len(free) >= 2 else None


def place(
    kind: str, cfg: SimConfig, table: TableRun, big_blind: int, index: int, ms: int
) -> CashNegative | None:
    """Seat the two players of `kind` at `table` for the whole day, or None without room."""
    rng = random.Random(f"{cfg.seed}:cash:{index}:negative")
    seats = _seats(table, kind in ("regulars_side_by_side", "bad_luck_against_winner"), rng)
    if seats is None:
        return None
    ids = table.out.ids
    first, second = (assign_family(new_player(ids.player(), rng), cfg) for _ in range(2))
    negative = CashNegative(kind, first, second, rng)
    policies: tuple[Policy, Policy]
    if kind == "regulars_side_by_side":
        for p in negative.players:  # styles that raise a lot, in the classic family
            p.style, p.tendencies = aggressive_regular(), None
        policies = (honest_policy(first), ReRaiserPolicy(second, first.pid, 0.5))
    elif kind == "short_stack_shoving":
        policies = (ShortStackPolicy(first), DeepCallerPolicy(second))
    elif kind == "bad_luck_against_winner":
        first.style, second.style = loose_passive(), strong_winner()
        first.tendencies = second.tendencies = None
        policies = (honest_policy(first), honest_policy(second))
    else:
        policies = (honest_policy(first), honest_policy(second))
    first.stack = big_blind * (rng.randint(15, 25) if kind == "short_stack_shoving" else 100)
    second.stack = big_blind * (DEEP_BUY_IN if kind == "short_stack_shoving" else 100)
    for p, seat, policy in zip(negative.players, seats, policies, strict=True):
        p.timeout_per_hand = 0.0
        table.seat(p, seat, ms - rng.randint(1_000, 60_000), policy)
    return negative
