"""Every voluntary decision of a finished hand, with what the player could see when taking it.

One pass over the actions replays the betting: who is still in, who has put chips in of their
own will, whose bet is being faced, the price, the pot, the stacks, the position and how many
players are left to act. Each decision becomes the honest-decision model's input row (its
`features`, named by `FEATURE_NAMES`) and the context the collusion detectors need to say whom
a move was made against (`live`, `entered`, `aggressor`). The player's running style comes in
from the caller (`styles`): style before this hand, so a decision never sees itself.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field

from railbird.detectors.events import HandEvent
from railbird.detectors.play.hand_reading import MADE_CLASSES, postflop, preflop
from railbird.detectors.play.style import PRIOR_STYLE, STYLE_FEATURES, HandTally

FOLD, PASSIVE, AGGRESSIVE = 0, 1, 2
CHOICES = ("fold", "check_call", "bet_raise")
_POSTS = frozenset({"post_sb", "post_bb", "post_ante", "post_dead"})
_STREET = {"preflop": 0, "flop": 1, "turn": 2, "river": 3}
_BOARD_CARDS = (0, 3, 4, 5)
# A bounty head worth hunting: a covered player whose bounty is this much above the table's
# median, or who is this short (in big blinds) and so one all-in from a knockout.
HEAD_BOUNTY_RATIO = 1.5
HEAD_SHORT_BB = 15
_HOLDEM = frozenset({"NLHE", "LHE", "FLHE", "PLHE", "HOLDEM", "NLH", "FLH"})

FEATURE_NAMES: tuple[str, ...] = (
    "flop",
    "turn",
    "river",
    "preflop_equity",
    "pocket_pair",
    "suited",
    "high_card",
    "gap",
    *(f"made_{k}" for k in range(MADE_CLASSES)),
    "kicker",
    "flush_draw",
    "nut_flush_draw",
    "open_ended",
    "gutshot",
    "overcards",
    "board_paired",
    "board_suited",
    "board_connected",
    "board_high",
    "facing",
    "to_call_bb",
    "pot_odds",
    "pot_bb",
    "stack_bb",
    "stack_to_pot",
    "call_is_all_in",
    "committed_share",
    "raises",
    "callers",
    "live_opponents",
    "left_to_act",
    "position",
    "last_to_act",
    "small_blind",
    "big_blind",
    "was_preflop_aggressor",
    "aggressor_all_in",
    "opponent_all_in",
    "tournament",
    "bounties",
    "covered_bounty",
    "aggressor_bounty_covered",
    "ante",
    "effective_stack_bb",
    "covers_aggressor",
    "head_live",
    "head_entered",
    *(f"own_{name}" for name in STYLE_FEATURES),
    *(f"aggressor_{name}" for name in STYLE_FEATURES[:3]),
)


@dataclass(slots=True)
class Decision:
    """One voluntary action and its context."""

    player_id: str
    street: int  # 0 preflop .. 3 river
    choice: int  # FOLD, PASSIVE (check or call) or AGGRESSIVE (bet or raise)
    facing: bool  # a bet or raise to call
    live: tuple[str, ...]  # opponents not folded
    entered: frozenset[str]  # live opponents who put chips in of their own will this hand
    aggressor: str | None  # whose bet or raise is being faced
    all_in: frozenset[str]  # live opponents with nothing behind
    features: tuple[float, ...] | None  # None when the hole cards are unknown


@dataclass(slots=True)
class HandReading:
    decisions: list[Decision] = field(default_factory=list)
    tallies: dict[str, HandTally] = field(default_factory=dict)  # style updates, per player


def _postflop_order(hand: HandEvent) -> list[str]:
    """Players in postflop acting order: left of the button first, the button last."""
    button = hand.button_seat or 0
    seats = sorted(hand.seats, key=lambda s: (s.seat <= button, s.seat))
    return [s.player_id for s in seats]


def _log_bb(chips: float, bb: int) -> float:
    return math.log1p(chips / bb) if chips > 0 else 0.0


def bounty_heads(hand: HandEvent) -> frozenset[str]:
    """The players worth hunting in a bounty hand: a bounty well above the table's median,
    or a stack short enough to bust. Nobody in a game without bounties."""
    bounties = [s.bounty for s in hand.seats if s.bounty]
    if not bounties:
        return frozenset()
    scale = statistics.median(bounties)
    short = HEAD_SHORT_BB * max(1, hand.big_blind)
    return frozenset(
        s.player_id
        for s in hand.seats
        if (s.bounty or 0) >= HEAD_BOUNTY_RATIO * scale or s.stack < short
    )


def _hole(cards: tuple[str, ...] | None) -> tuple[str, str] | None:
    if cards is None or len(cards) != 2:
        return None
    return cards[0], cards[1]


class _Replay:
    """The betting state while walking a hand's actions."""

    def __init__(
        self, hand: HandEvent, styles: Mapping[str, list[float]], complete_history: bool
    ) -> None:
        self.hand = hand
        self.styles = styles
        self.bb = max(1, hand.big_blind)
        self.start = {s.player_id: s.stack for s in hand.seats}
        holes = {s.player_id: _hole(s.hole_cards) for s in hand.seats}
        # The operator knows every hand dealt. A history that shows only what reached a
        # showdown (public hand histories) would hand the model a sample of players who did not
        # fold: its decisions are read only if it shows a hand beyond the showdown's.
        shown = {entry.player_id for entry in hand.showdown}
        complete = all(cards is not None for cards in holes.values())
        public = not complete_history and shown.issuperset(holes)
        self.holes = holes if complete and not public else {}
        bounties = {s.player_id: s.bounty for s in hand.seats if s.bounty}
        self.bounties = bounties
        self.left = dict(self.start)  # chips behind
        self.bounty_scale = statistics.median(bounties.values()) if bounties else 1
        self.bounty_ratio = {p: b / self.bounty_scale for p, b in bounties.items()}
        self.targets = bounty_heads(hand)
        order = _postflop_order(hand)
        n = max(1, len(order) - 1)
        self.position = {pid: k / n for k, pid in enumerate(order)}
        self.order = order
        self.small_blind = order[0] if len(order) > 2 else (order[-1] if order else "")
        self.big_blind = order[1] if len(order) > 2 else (order[0] if order else "")
        self.put_in: dict[str, int] = {}
        self._card_features: dict[tuple[str, int], tuple[float, ...]] = {}
        self.pot = 0
        self.folded: set[str] = set()
        self.live_order = list(order)  # players not folded, in acting order
        self.entered: set[str] = set()
        self.entered_live: set[str] = set()  # entered and not folded since
        self.all_in_live: set[str] = {p for p, chips in self.left.items() if chips <= 0}
        self.preflop_aggressor: str | None = None
        self.holdem = hand.game.upper() in _HOLDEM
        self.tournament = hand.tournament_id is not None
        self.new_street("preflop")

    def new_street(self, street: str) -> None:
        self.street = _STREET.get(street, 3)
        self.committed: dict[str, int] = {}
        self.max_bet = 0
        self.raises = 0
        self.callers = 0
        self.aggressor: str | None = None
        self.acted: set[str] = set()

    def behind(self, pid: str) -> int:
        return self.left.get(pid, 0)

    def post(self, pid: str, action: str, amount: int) -> None:
        self.put_in[pid] = self.put_in.get(pid, 0) + amount
        self.left[pid] = self.left.get(pid, 0) - amount
        if self.left[pid] <= 0:
            self.all_in_live.add(pid)
        self.pot += amount
        if action != "post_ante":
            self.committed[pid] = self.committed.get(pid, 0) + amount
            self.max_bet = max(self.max_bet, self.committed[pid])

    def is_head(self, pid: str, other: str) -> bool:
        """Whether `other` is a bounty head `pid` covers: a big bounty, or a short stack at the
        deal (never outside bounty games)."""
        return other in self.targets and self.start.get(other, 0) <= self.start.get(pid, 0)

    def heads(self, pid: str, players: tuple[str, ...] | frozenset[str]) -> list[str]:
        """The bounty heads among `players` that `pid` covers."""
        return [p for p in players if self.is_head(pid, p)]

    def live_opponents(self, pid: str) -> tuple[str, ...]:
        if pid not in self.live_order:
            return tuple(self.live_order)
        others = list(self.live_order)
        others.remove(pid)
        return tuple(others)

    def _cards(self, pid: str, hole: tuple[str, str]) -> tuple[float, ...]:
        """The hand-strength part of the features: fixed for a player within a street."""
        key = (pid, self.street)
        found = self._card_features.get(key)
        if found is not None:
            return found
        pre = preflop(hole)
        made = [0.0] * MADE_CLASSES
        post_part = [0.0] * 10
        board = tuple(self.hand.board[: _BOARD_CARDS[self.street]])
        if self.street > 0 and len(board) >= 3:
            read = postflop(hole, board)
            made[read.made] = 1.0
            post_part = [
                read.kicker,
                float(read.flush_draw),
                float(read.nut_flush_draw),
                float(read.straight_draw == 2),
                float(read.straight_draw == 1),
                read.overcards / 2,
                float(read.board_paired),
                max(0, read.board_suited - 2) / 2,
                float(read.board_connected),
                read.board_high,
            ]
        found = (
            float(self.street == 1),
            float(self.street == 2),
            float(self.street == 3),
            pre.equity,
            float(pre.pair),
            float(pre.suited),
            pre.high,
            pre.gap / 12,
            *made,
            *post_part,
        )
        self._card_features[key] = found
        return found

    def features(self, pid: str, to_call: int, live: tuple[str, ...]) -> tuple[float, ...] | None:
        hole = self.holes.get(pid)
        if hole is None or not self.holdem:
            return None
        bb = self.bb
        left = self.left
        start = self.start
        behind = left.get(pid, 0)
        put = self.put_in.get(pid, 0)
        positions = self.position
        position = positions.get(pid, 0.5)
        aggressor = self.aggressor if to_call > 0 else None
        my_total = start.get(pid, 0)
        acted = self.acted
        to_act = 0
        last = True
        any_all_in = False
        biggest = 0
        for p in live:
            chips = left.get(p, 0)
            if chips > 0:
                if p not in acted:
                    to_act += 1
                if positions.get(p, 0) > position:
                    last = False
                if chips > biggest:
                    biggest = chips
            else:
                any_all_in = True
        covered = 0.0
        head_live = head_entered = False
        if self.bounties:
            ratio = self.bounty_ratio
            for p in live:
                if start.get(p, 0) <= my_total:
                    r = ratio.get(p, 0.0)
                    if r > covered:
                        covered = r
                    if p in self.targets:
                        head_live = True
                        if p in self.entered:
                            head_entered = True
        covers_aggressor = aggressor is not None and start.get(aggressor, 0) <= my_total
        agg_bounty = (
            self.bounty_ratio.get(aggressor, 0.0)
            if aggressor is not None and covers_aggressor
            else 0.0
        )
        pot = self.pot
        styles = self.styles
        own_style = styles.get(pid, PRIOR_STYLE)
        agg_style = styles.get(aggressor, PRIOR_STYLE) if aggressor else PRIOR_STYLE
        street = self.street
        n_live = len(live)
        return (
            *self._cards(pid, hole),
            1.0 if to_call > 0 else 0.0,
            math.log1p(to_call / bb) if to_call > 0 else 0.0,
            to_call / (pot + to_call) if to_call else 0.0,
            math.log1p(pot / bb) if pot > 0 else 0.0,
            math.log1p(behind / bb) if behind > 0 else 0.0,
            math.log1p(behind / pot) if pot > 0 and behind > 0 else 0.0,
            1.0 if 0 < to_call >= behind else 0.0,
            put / (put + behind) if put + behind > 0 else 0.0,
            (self.raises if self.raises < 4 else 4) / 4,
            (self.callers if self.callers < 4 else 4) / 4,
            (n_live if n_live < 8 else 8) / 8,
            (to_act if to_act < 8 else 8) / 8,
            position,
            1.0 if last else 0.0,
            1.0 if pid == self.small_blind else 0.0,
            1.0 if pid == self.big_blind else 0.0,
            1.0 if street > 0 and pid == self.preflop_aggressor else 0.0,
            1.0 if aggressor is not None and left.get(aggressor, 0) <= 0 else 0.0,
            1.0 if any_all_in else 0.0,
            1.0 if self.tournament else 0.0,
            1.0 if self.bounties else 0.0,
            covered if covered < 3.0 else 3.0,
            agg_bounty if agg_bounty < 3.0 else 3.0,
            1.0 if self.hand.ante > 0 else 0.0,
            math.log1p(min(behind, biggest) / bb) if behind > 0 and biggest > 0 else 0.0,
            1.0 if covers_aggressor else 0.0,
            1.0 if head_live else 0.0,
            1.0 if head_entered else 0.0,
            *own_style,
            *agg_style[:3],
        )


def read_hand(
    hand: HandEvent, styles: Mapping[str, list[float]], complete_history: bool = False
) -> HandReading:
    """The hand's decisions (with model inputs when every seat's hole cards are known) and
    what each player's style gains from it. `styles` maps player ids to `Style.features()` as
    they stood before this hand; players missing from it are read with the population's
    style.

    `complete_history`: the history is the operator's, who knows every hand dealt. Otherwise
    a hand whose every card was shown at the showdown may be a public history's (which shows
    only players who did not fold), and training must not learn from that sample. A hand that
    seats one player twice is not read."""
    ids = [s.player_id for s in hand.seats]
    if len(set(ids)) != len(ids):
        return HandReading()
    replay = _Replay(hand, styles, complete_history)
    reading = HandReading(tallies={pid: HandTally() for pid in ids})
    street = "preflop"
    for act in hand.actions:
        pid = act.player_id
        if act.street != street:
            street = act.street
            replay.new_street(street)
        if act.action in _POSTS:
            replay.post(pid, act.action, act.amount)
            continue
        _decide(replay, reading, pid, act.action, act.amount, act.to)
    return reading


def _decide(
    replay: _Replay, reading: HandReading, pid: str, action: str, amount: int, to: int | None
) -> None:
    mine = replay.committed.get(pid, 0)
    behind = replay.behind(pid)
    to_call = max(0, min(replay.max_bet - mine, behind))
    new_commit = to if to is not None and action in ("bet", "raise", "all_in") else mine + amount
    if action == "fold":
        choice = FOLD if to_call > 0 else PASSIVE
    elif action in ("check", "call"):
        choice = PASSIVE
    elif action in ("bet", "raise"):
        choice = AGGRESSIVE
    elif action == "all_in":
        choice = AGGRESSIVE if new_commit > replay.max_bet else PASSIVE
    else:
        choice = -1  # an action this reader does not know: its chips still count
    if choice >= 0 and pid in replay.start and pid not in replay.folded:
        live = replay.live_opponents(pid)
        reading.decisions.append(
            Decision(
                player_id=pid,
                street=replay.street,
                choice=choice,
                facing=to_call > 0,
                live=live,
                entered=frozenset(replay.entered_live - {pid}),
                aggressor=replay.aggressor if to_call > 0 else None,
                all_in=frozenset(replay.all_in_live - {pid}),
                features=replay.features(pid, to_call, live),
            )
        )
        _tally(replay, reading.tallies.get(pid), pid, choice, to_call, live)
    replay.put_in[pid] = replay.put_in.get(pid, 0) + amount
    replay.left[pid] = replay.left.get(pid, 0) - amount
    if replay.left[pid] <= 0 and action != "fold":
        replay.all_in_live.add(pid)
    replay.pot += amount
    replay.committed[pid] = new_commit
    if action == "fold":
        replay.folded.add(pid)
        replay.entered_live.discard(pid)
        replay.all_in_live.discard(pid)
        if pid in replay.live_order:
            replay.live_order.remove(pid)
        return
    if choice == AGGRESSIVE or (choice == PASSIVE and to_call > 0):
        replay.entered.add(pid)
        replay.entered_live.add(pid)
    if choice == AGGRESSIVE:
        replay.max_bet = new_commit
        replay.raises += 1
        replay.callers = 0
        replay.aggressor = pid
        replay.acted = {pid}
        if replay.street == 0:
            replay.preflop_aggressor = pid
    elif choice >= 0:  # an unknown action moved chips, and is neither a call nor a raise
        replay.acted.add(pid)
        if to_call > 0:
            replay.callers += 1


def _tally(
    replay: _Replay,
    tally: HandTally | None,
    pid: str,
    choice: int,
    to_call: int,
    live: tuple[str, ...],
) -> None:
    if tally is None:
        return
    entering = choice == AGGRESSIVE or (choice == PASSIVE and to_call > 0)
    if replay.street == 0:
        if not tally.decided:
            tally.decided = True
            tally.hunt_chance = bool(replay.heads(pid, live))
            tally.hunt_entry = tally.hunt_chance and entering
        if entering:
            tally.vpip = True
        if choice == AGGRESSIVE:
            tally.pfr = True
        if replay.raises == 1 and to_call > 0:
            tally.faced_opens += 1
            tally.three_bets += choice == AGGRESSIVE
        return
    if choice == AGGRESSIVE:
        tally.post_aggressive += 1
    elif choice == PASSIVE and to_call > 0:
        tally.post_calls += 1
    if to_call > 0:
        tally.faced_bets += 1
        tally.folds_to_bets += choice == FOLD
