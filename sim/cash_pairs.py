"""Colluding pairs at cash tables and the ways they pass chips or spare each other.

A pair acts on an opportunity with probability `intensity`, decided once per hand for both
members (`Team.colludes`); everywhere else each member plays its own family's honest policy, so
a quiet pair differs from honest play in a handful of decisions. Modes (`SimConfig`):

- chip dumping `fold`: heads-up with the receiver, the donor bets or raises and folds to the
  receiver's raise (the receiver raises any bet, else checks);
- `showdown`: the two see each other's cards and head for pots of their own (the first of them
  in opens a hand of the better half, the other calls). Heads-up after the flop the donor calls
  down and puts chips in while the receiver's hand is ahead, and gives up to the receiver's stab
  when it is behind;
- `bluff`: as `showdown` before the flop; after it the donor keeps up with a receiver whose hand
  is ahead and then bets or raises big into it, mostly on the river, and the receiver calls;
- `mixed`: one of the three per hand;
- soft play `heads_up`: heads-up with the partner, no bet or raise, strong hands called down;
- `multiway`: with others in the pot, never a bet or raise into the partner after the flop and
  never a re-raise of the partner's raise; heads-up with the partner, they check it down.

Every decision also asks the member's honest policy, on a copy of the generator, what it would
have done: `Team.moves` counts the decisions the scheme changed, which is what a detector can
see of a pair (a low-intensity pair's acts are mostly honest moves).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from railbird.detectors.play.hand_rank import CARD_CODE, evaluate
from railbird.sim import strength
from railbird.sim.config import SimConfig
from railbird.sim.players import Player, passive_move, raise_move
from railbird.sim.positional_players import honest_policy
from railbird.sim.table_view import DecisionView, Move, OpponentView, Policy
from railbird.sim.teams import Team

DUMP_MODES: tuple[str, ...] = ("fold", "showdown", "bluff", "mixed")
SOFT_MODES: tuple[str, ...] = ("heads_up", "multiway")
_MIXED = ("fold", "showdown", "bluff")


def pair_mode(cfg: SimConfig, category: str, k: int) -> str:
    """The mode of the day's `k`-th pair of `category`: `modes[k % len]`, or today's default."""
    if category == "chip_dumping":
        modes, known, default, name = cfg.cash_dump_modes, DUMP_MODES, "fold", "cash_dump_modes"
    else:
        modes, known, default, name = cfg.cash_soft_modes, SOFT_MODES, "heads_up", "cash_soft_modes"
    unknown = [m for m in modes if m not in known]
    if unknown:
        raise ValueError(f"SimConfig.{name}: unknown mode {unknown[0]!r}; modes: {known}")
    return modes[k % len(modes)] if modes else default


def pair_intensity(cfg: SimConfig, index: int, k: int) -> float:
    """A cash pair's intensity: drawn from `cash_intensity_range` with a generator of the
    pair's own when set (the day's other draws stay as they were), else `team_intensity`."""
    if cfg.cash_intensity_range is None:
        return cfg.team_intensity
    low, high = cfg.cash_intensity_range
    if not 0.0 <= low <= high <= 1.0:
        raise ValueError(f"SimConfig.cash_intensity_range: {low}..{high} is not within 0..1")
    return round(random.Random(f"{cfg.seed}:cash:{index}:pair{k}:intensity").uniform(low, high), 2)


@dataclass(slots=True)
class PairScheme:
    """What both members of one pair share: the mode (and the hand's mode when mixed) and each
    other's hole cards, which each member posts when it first decides in a hand (everyone who
    is still in after the first round has decided in it)."""

    mode: str
    rng: random.Random  # the mixed mode's draws, apart from the day's other generators
    hand_id: str = ""
    cards: dict[str, tuple[str, str]] = field(default_factory=dict)
    hand_mode: str = ""
    acted_as: dict[str, str] = field(default_factory=dict)  # hand id -> the mode acted in

    def see(self, view: DecisionView) -> None:
        if view.hand_id != self.hand_id:
            self.hand_id, self.cards, self.hand_mode = view.hand_id, {}, ""
        self.cards[view.player_id] = view.hole_cards

    def mode_for(self, hand_id: str) -> str:
        if self.mode != "mixed":
            return self.mode
        if not self.hand_mode:
            self.hand_mode = self.rng.choice(_MIXED)
        return self.hand_mode

    def mode_acts(self, hand_ids: list[str]) -> dict[str, int]:
        """Acts per mode played (one entry unless the pair is mixed)."""
        return dict(sorted(Counter(self.acted_as.get(h, self.mode) for h in hand_ids).items()))


def _counterfactual(base: Policy, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
    """What `base` would do here, from a copy of the generator: the day's draws stay as
    they were."""
    twin = random.Random()
    twin.setstate(rng.getstate())
    return base.decide(view, twin)


def _raises(view: DecisionView) -> list[str]:
    return [pid for pid, act, _ in view.actions_this_street if act in ("raise", "all_in", "bet")]


def _made(hole: tuple[str, str], board: tuple[str, ...]) -> int:
    return evaluate(CARD_CODE[c] for c in (*hole, *board))


class PairPolicy:
    """One member of a cash pair: `role` is "soft", "dumper" or "receiver"."""

    __slots__ = ("base", "role", "scheme", "team")

    def __init__(self, player: Player, team: Team, role: str, scheme: PairScheme) -> None:
        self.base = honest_policy(player)
        self.team = team
        self.role = role
        self.scheme = scheme

    def decide(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        self.scheme.see(view)
        honest = _counterfactual(self.base, view, rng)
        move = self._play(view, rng)
        if move[0] != honest[0]:
            self.team.moves += 1
        return move

    def _act(self, hand_id: str, mode: str) -> None:
        self.team.acted(hand_id)
        self.scheme.acted_as[hand_id] = mode

    def _play(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        ids = self.team.ids
        partner = next((o for o in view.opponents if o.player_id in ids), None)
        if partner is None or partner.folded or partner.all_in:
            return self.base.decide(view, rng)
        mode = self.scheme.mode_for(view.hand_id)
        if mode in ("fold", "heads_up"):
            return self._heads_up(view, rng, mode)
        if mode == "multiway":
            return self._multiway(view, rng, partner)
        return self._dump_with_cards(view, rng, partner, mode)

    def _heads_up_with(self, view: DecisionView) -> bool:
        live = [o for o in view.opponents if not o.folded]
        return len(live) == 1 and live[0].player_id in self.team.ids and not live[0].all_in

    def _heads_up(self, view: DecisionView, rng: random.Random, mode: str) -> tuple[Move, int]:
        """Today's two schemes, unchanged: they act only heads-up with the partner."""
        team = self.team
        if not self._heads_up_with(view) or not team.colludes(view.hand_id):
            return self.base.decide(view, rng)
        self._act(view.hand_id, mode)
        if self.role == "soft":
            return passive_move(
                view,
                strength.postflop(view.hole_cards, view.board) > 0.5
                if view.board
                else strength.preflop(view.hole_cards) > 0.6,
            )
        partner = next(o for o in view.opponents if not o.folded)
        if self.role == "dumper":
            if view.to_call > 0 and _raises(view)[-1:] == [partner.player_id]:
                return "fold", 0  # the receiver raised: give up what is in
            return raise_move(view, max(view.min_raise_to, view.pot))
        if view.to_call > 0:
            return raise_move(view, view.to_call * 3 + view.pot)
        return "check", 0

    def _multiway(
        self, view: DecisionView, rng: random.Random, partner: OpponentView
    ) -> tuple[Move, int]:
        """Soft play with others in: the honest move, except that a member never re-raises the
        partner, never bets or raises after the flop while the partner is live, and checks it
        down when the two are alone."""
        if not self.team.colludes(view.hand_id):
            return self.base.decide(view, rng)
        move = self.base.decide(view, rng)
        if self._heads_up_with(view):
            self._act(view.hand_id, "multiway")
            return passive_move(view, True) if move[0] == "raise" else move
        if move[0] != "raise":
            return move
        reraise = _raises(view)[-1:] == [partner.player_id]
        if reraise or view.board:
            self._act(view.hand_id, "multiway")
            return passive_move(view, True)
        return move

    def _dump_with_cards(
        self, view: DecisionView, rng: random.Random, partner: OpponentView, mode: str
    ) -> tuple[Move, int]:
        """Showdown and bluff dumping: the pair reads each other's cards."""
        if not view.board:
            return self._preflop(view, rng, partner, mode)
        theirs = self.scheme.cards.get(partner.player_id)
        if theirs is None or not self._heads_up_with(view) or not self.team.colludes(view.hand_id):
            return self.base.decide(view, rng)
        mine = view.hole_cards
        receiver_cards = theirs if self.role == "dumper" else mine
        donor_cards = mine if self.role == "dumper" else theirs
        ahead = _made(receiver_cards, view.board) > _made(donor_cards, view.board)
        if mode == "bluff" and not ahead:
            return self.base.decide(view, rng)  # nothing to bluff into
        self._act(view.hand_id, mode)
        if mode == "showdown":
            return self._showdown(view, rng, ahead)
        return self._bluff(view, rng)

    def _preflop(
        self, view: DecisionView, rng: random.Random, partner: OpponentView, mode: str
    ) -> tuple[Move, int]:
        """Before the flop the pair heads for a pot of its own: the first of the two in opens
        a hand of the better half, and the other calls the raise (while it is cheap)."""
        if view.to_call * 5 > view.stack:
            return self.base.decide(view, rng)
        raisers = _raises(view)
        if raisers[-1:] == [partner.player_id]:
            if not self.team.colludes(view.hand_id):
                return self.base.decide(view, rng)
            self._act(view.hand_id, mode)
            return "call", 0
        if raisers or strength.preflop(view.hole_cards) < 0.5:
            return self.base.decide(view, rng)
        if not self.team.colludes(view.hand_id):
            return self.base.decide(view, rng)
        self._act(view.hand_id, mode)
        return raise_move(view, int(view.big_blind * rng.choice((2.0, 2.5, 3.0))))

    def _showdown(self, view: DecisionView, rng: random.Random, ahead: bool) -> tuple[Move, int]:
        pot = view.pot
        if self.role == "dumper":
            if ahead:  # call down, and lead into the better hand
                if view.to_call > 0:
                    return "call", 0
                return raise_move(view, max(view.min_raise_to, int(pot * rng.uniform(0.5, 1.0))))
            return passive_move(view, False)  # behind: give up to the receiver's stab
        if ahead:
            if view.to_call == 0:
                return raise_move(view, max(view.min_raise_to, int(pot * rng.uniform(0.5, 0.9))))
            if rng.random() < 0.5:
                return raise_move(view, view.to_call * 3 + pot)
            return "call", 0
        if view.to_call == 0:
            return raise_move(view, max(view.min_raise_to, pot // 3))  # the donor folds
        return "call", 0

    def _bluff(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        """The receiver is ahead: the donor keeps up until the river (now and then the turn)
        and bets big into it; the receiver calls and checks to let the bet come."""
        pot, river = view.pot, view.street == "river"
        if self.role == "receiver":
            if view.to_call > 0:
                return "call", 0
            if not river and rng.random() < 0.4:
                return raise_move(view, max(view.min_raise_to, pot // 3))
            return "check", 0
        if river or (view.street == "turn" and rng.random() < 0.25):
            if view.to_call > 0:
                return raise_move(view, view.to_call * 3 + pot)
            return raise_move(view, max(view.min_raise_to, int(pot * rng.uniform(1.0, 1.5))))
        if view.to_call == 0:
            return "check", 0
        return passive_move(view, view.to_call <= pot)
