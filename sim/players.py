"""Honest players: a style (tight/loose, passive/aggressive), habits (chat, sit-outs, drops)
and a policy that turns a DecisionView into a move.

Styles vary widely on purpose: collusion detectors must contrast a pair's behaviour with each
player's own baseline, so the baseline has to differ between players. Tilters loosen up after a
bad beat and mis-clickers occasionally make a nonsense move, the kind of noise that makes honest
play look odd.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from railbird.sim import strength
from railbird.sim.names import screen_name
from railbird.sim.table_view import DecisionView, Move


@dataclass(slots=True)
class Style:
    vpip: float  # share of hands played preflop
    pfr: float  # share of played hands raised first in
    aggression: float  # 0..1, how often value hands bet or raise rather than call
    bluff: float  # chance of betting air when checked to
    station: float  # 0..1, extra willingness to call
    checkdown_dry: float  # chance of checking down a dry side pot against an all-in player
    misclick: float  # chance per decision of a random legal move


def random_style(rng: random.Random) -> Style:
    kind = rng.random()
    if kind < 0.35:  # tight
        vpip, aggression = rng.uniform(0.12, 0.22), rng.uniform(0.4, 0.8)
    elif kind < 0.7:  # average
        vpip, aggression = rng.uniform(0.2, 0.32), rng.uniform(0.3, 0.7)
    elif kind < 0.9:  # loose
        vpip, aggression = rng.uniform(0.32, 0.5), rng.uniform(0.2, 0.9)
    else:  # maniac or station
        vpip, aggression = rng.uniform(0.45, 0.7), rng.choice((0.1, 0.95))
    return Style(
        vpip=vpip,
        pfr=rng.uniform(0.3, 0.85),
        aggression=aggression,
        bluff=rng.uniform(0.0, 0.25) * aggression,
        station=rng.uniform(0.0, 0.6) if aggression < 0.5 else rng.uniform(0.0, 0.25),
        checkdown_dry=rng.uniform(0.6, 0.98),
        misclick=0.004 if rng.random() < 0.1 else 0.0,
    )


@dataclass(slots=True)
class Player:
    pid: str
    name: str
    style: Style
    chattiness: float  # honest messages per minute at a table
    toxic: bool  # tends to commit the chat violations when one is injected
    sitout_per_hour: float
    disconnect_per_hour: float
    timeout_per_hand: float
    tilter: bool
    tilt_hands: int = 0
    out_token: int = 0  # nonzero while sitting out (which episode)
    drop_token: int = 0  # nonzero while disconnected
    table_id: str | None = None
    seat: int | None = None
    stack: int = 0
    bounty: int | None = None
    available_ms: int = 0  # when a moved player may be dealt in at the new table
    alive: bool = True
    team: object | None = field(default=None, repr=False)  # a collusion team, if any
    # `positional_players.Tendencies` when this player plays the second honest family.
    tendencies: object | None = field(default=None, repr=False)

    @property
    def away(self) -> bool:
        return self.out_token != 0 or self.drop_token != 0


def new_player(pid: str, rng: random.Random) -> Player:
    talk = rng.random()
    chattiness = 0.015 if talk < 0.55 else (0.12 if talk < 0.88 else 0.5)
    return Player(
        pid=pid,
        name=screen_name(rng),
        style=random_style(rng),
        chattiness=chattiness * rng.uniform(0.5, 1.5),
        toxic=rng.random() < 0.06,
        sitout_per_hour=rng.choice((0.0, 0.0, 0.3, 0.8, 2.0)),
        disconnect_per_hour=rng.choice((0.0, 0.0, 0.1, 0.4)),
        timeout_per_hand=rng.choice((0.0, 0.002, 0.01)),
        tilter=rng.random() < 0.15,
    )


def raise_move(view: DecisionView, target: int) -> tuple[Move, int]:
    """A legal raise to about `target`, shoving when the raise would commit most of the stack."""
    if view.stack <= view.to_call or view.max_raise_to < view.min_raise_to:
        return ("call", 0) if view.to_call > 0 else ("check", 0)
    total = max(view.min_raise_to, min(target, view.max_raise_to))
    if total >= 0.65 * view.max_raise_to:
        total = view.max_raise_to
    return "raise", total


def passive_move(view: DecisionView, call: bool) -> tuple[Move, int]:
    if view.to_call == 0:
        return "check", 0
    return ("call", 0) if call else ("fold", 0)


class HonestPolicy:
    """Rule-of-thumb no-limit play shaped by a Style; tilt widens ranges for a few hands."""

    __slots__ = ("player",)

    def __init__(self, player: Player) -> None:
        self.player = player

    def decide(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        style = self.player.style
        if style.misclick and rng.random() < style.misclick:
            return rng.choice((raise_move(view, view.min_raise_to), passive_move(view, True)))
        tilt = 0.15 if self.player.tilt_hands > 0 else 0.0
        if view.street == "preflop":
            return self._preflop(view, rng, style, tilt)
        return self._postflop(view, rng, style, tilt)

    def _preflop(
        self, view: DecisionView, rng: random.Random, style: Style, tilt: float
    ) -> tuple[Move, int]:
        pct = strength.preflop(view.hole_cards)
        bb = view.big_blind
        depth = (view.stack + view.to_call) / bb
        raises = sum(1 for _, act, _ in view.actions_this_street if act in ("raise", "all_in"))
        vpip = min(0.9, style.vpip + tilt)
        if depth < 12:  # push or fold
            shove_range = min(0.95, vpip + 0.15 + (12 - depth) * 0.03)
            if pct >= 1 - shove_range / (1 + raises):
                return raise_move(view, view.max_raise_to)
            return passive_move(view, False)
        open_cut = 1 - vpip * style.pfr
        if raises == 0:
            if pct >= open_cut:
                return raise_move(view, int(bb * rng.choice((2, 2.2, 2.5, 3))) + view.to_call // 4)
            if pct >= 1 - vpip and view.to_call <= bb:
                return passive_move(view, True)
            return passive_move(view, False)
        pressure = view.to_call / max(1, view.stack)
        if pct >= 1 - (1 - open_cut) * 0.35 / raises:
            return raise_move(view, view.to_call * 3 + view.pot)
        need = 1 - vpip * (1 + style.station) * 0.8 / raises + pressure * 0.3
        return passive_move(view, pct >= need)

    def _postflop(
        self, view: DecisionView, rng: random.Random, style: Style, tilt: float
    ) -> tuple[Move, int]:
        s = strength.postflop(view.hole_cards, view.board)
        live = [o for o in view.opponents if not o.folded]
        if (
            view.to_call == 0
            and any(o.all_in for o in live)
            and sum(1 for o in live if not o.all_in) == 1
            and rng.random() < style.checkdown_dry
            and s < 0.93
        ):
            return "check", 0  # dry side pot: nobody gains by betting the other out
        if view.to_call == 0:
            if s > 0.62 - style.aggression * 0.1 and rng.random() < style.aggression + 0.3:
                return raise_move(view, int(view.pot * rng.uniform(0.4, 0.8)))
            if rng.random() < style.bluff + tilt * 0.5:
                return raise_move(view, int(view.pot * rng.uniform(0.3, 0.7)))
            return "check", 0
        odds = view.to_call / (view.pot + view.to_call)
        if s > 0.8 and rng.random() < style.aggression * 0.6:
            return raise_move(view, view.to_call * 3 + view.pot // 2)
        return passive_move(view, s + style.station * 0.15 + tilt > odds + 0.22)


class TimeoutPolicy:
    """A player whose clock runs out: the site checks for them if it can, else folds."""

    __slots__ = ()

    def decide(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        return passive_move(view, False)
