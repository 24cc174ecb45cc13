"""Colluding teams and the policies they play with.

A team acts on an *opportunity* (a hand where its scheme applies) with probability `intensity`,
decided once per hand for the whole team so that members act together. Everything else is
honest play from each member's own style, which is what makes low-intensity teams hard to find,
with two exceptions that hold at any intensity because a team needs its members alive: a member
never calls or bets into an all-in partner or stakes its whole stack against a partner, and with
a deep stack risks a third of it only with a very strong hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from railbird.sim import strength
from railbird.sim.players import Player, passive_move, raise_move
from railbird.sim.positional_players import honest_policy
from railbird.sim.table_view import DecisionView, Move, OpponentView, Policy


@dataclass(slots=True)
class Team:
    category: str  # bounty_collusion | coordinated_sit_out | chip_dumping | soft_play
    members: list[Player]
    intensity: float
    tournament_id: str | None
    rng: random.Random
    target: str | None = None
    target_acts: dict[str, int] = field(default_factory=dict)
    acts: int = 0
    target_hands: int = 0  # hands with >= 2 members and the target dealt in
    spared: int = 0  # hands where a member declined to put an all-in partner at risk
    # Decisions where a member's move differed from what its own honest policy would have
    # done in that spot: how much the scheme actually changed play (a quiet tactic's acts
    # are mostly honest moves).
    moves: int = 0
    hand_ids: list[str] = field(default_factory=list)  # the hands counted in `acts`
    knockouts: list[str] = field(default_factory=list)  # targets a member eliminated
    first_ms: int | None = None
    pending: set[str] = field(default_factory=set)  # hands where the team acted
    spared_pending: set[str] = field(default_factory=set)
    _decided: tuple[str, bool] = ("", False)
    message_ids: list[str] = field(default_factory=list)
    tactic: str = ""  # bounty teams: the day's tactic name ("isolate+checkdown"), else ""
    tactics: tuple[str, ...] = ()  # the tactics in `tactic`, one of them decided per hand
    _tactic_of: tuple[str, str] = ("", "")
    plan_chat: float = 0.5  # chance of a private planning line when the team picks a target
    open_wording: bool = False  # plans in `influence_lines.open_plan_line`'s wording

    @property
    def ids(self) -> set[str]:
        return {m.pid for m in self.members}

    def colludes(self, hand_id: str) -> bool:
        if self._decided[0] != hand_id:
            self._decided = (hand_id, self.rng.random() < self.intensity)
        return self._decided[1]

    def tactic_for(self, hand_id: str) -> str:
        """The tactic this hand, decided once per hand so that members play the same one."""
        if len(self.tactics) < 2:
            return self.tactic
        if self._tactic_of[0] != hand_id:
            self._tactic_of = (hand_id, self.rng.choice(self.tactics))
        return self._tactic_of[1]

    def acted(self, hand_id: str) -> None:
        self.pending.add(hand_id)

    def settle(self, hand_id: str, started_ms: int, dealt: set[str]) -> None:
        """Count a finished hand: a target hand, and an act if the team played its scheme."""
        if self.target is not None and self.target in dealt and len(self.ids & dealt) >= 2:
            self.target_hands += 1
        if hand_id in self.spared_pending:
            self.spared_pending.discard(hand_id)
            self.spared += 1
        if hand_id in self.pending:
            self.pending.discard(hand_id)
            self.acts += 1
            self.hand_ids.append(hand_id)
            if self.first_ms is None:
                self.first_ms = started_ms
            if self.target is not None:
                self.target_acts[self.target] = self.target_acts.get(self.target, 0) + 1

    def truth(self) -> dict[str, object]:
        """The team's truth record. `acts` counts hands where the team played its scheme (for a
        bounty team: >= 2 members and the target dealt in); `hand_ids` lists them."""
        record: dict[str, object] = {
            "player_ids": sorted(m.pid for m in self.members),
            "category": self.category,
            "accept": [self.category],
            "tournament_id": self.tournament_id,
            "intensity": self.intensity,
            "first_violation_ts": None,
            "acts": self.acts,
            "moves": self.moves,
            "optional": self.acts < 3,  # a scheme that barely ran leaves too little evidence
        }
        if self.category != "coordinated_sit_out":  # sit-out episodes are not hands
            record["hand_ids"] = list(self.hand_ids)
        if self.category == "bounty_collusion":
            ranked = sorted(self.target_acts.items(), key=lambda kv: (-kv[1], kv[0]))
            record["target"] = ranked[0][0] if ranked else self.target
            record["targets"] = [pid for pid, _ in ranked]
            record["target_hands"] = self.target_hands
            record["knockouts"] = list(self.knockouts)
            if self.tactic:  # only when the day asked for tactics: older days stay identical
                record["tactic"] = self.tactic
            record["spared_hands"] = self.spared
        return record


TACTICS = ("sandwich", "isolate", "checkdown", "softplay", "chip_pass", "ko_steer")


def _raises(view: DecisionView) -> list[str]:
    return [pid for pid, act, _ in view.actions_this_street if act in ("raise", "all_in", "bet")]


class BountyTeamPolicy:
    """Gangs up on the team's target the way its tactic of the hand says (see `TACTICS` and
    `SimConfig.bounty_tactics`): enters pots with it, then sandwiches, isolates, checks it down,
    soft-plays, passes chips or steers the knockout."""

    __slots__ = ("base", "team")

    def __init__(self, player: Player, team: Team) -> None:
        self.base = honest_policy(player)
        self.team = team

    def decide(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        honest = _counterfactual(self.base, view, rng)
        move = self._scheme(view, rng)
        if move[0] != honest[0]:
            self.team.moves += 1
        return move

    def _scheme(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        move = _disciplined(view, self._plan(view, rng))
        if move[0] != "fold" and view.to_call >= view.stack:
            aggressor = _raises(view)[-1:]
            if aggressor and aggressor[0] in self.team.ids:
                return passive_move(view, False)  # never stake the whole stack on a partner
        return move

    def _plan(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        team = self.team
        ids = team.ids
        by_id: dict[str, OpponentView] = {o.player_id: o for o in view.opponents}
        target = by_id.get(team.target or "")
        partners = [o for o in view.opponents if o.player_id in ids]
        if not partners:
            return self.base.decide(view, rng)
        if target is None or not team.colludes(view.hand_id):
            return self._spare(view, rng, partners)
        live = [o for o in view.opponents if not o.folded]
        live_partners = [o for o in live if o.player_id in ids]
        tactic = team.tactic_for(view.hand_id)
        if target.folded:
            if live_partners and all(o.player_id in ids for o in live):
                team.acted(view.hand_id)  # never fight a partner once the target is gone
                if tactic == "chip_pass":
                    return _pass_chips(view, live_partners)
                return passive_move(view, view.to_call * 4 < view.pot)
            return self._spare(view, rng, partners)
        if tactic == "softplay":  # honest against the target, never against each other
            return self._soft(view, rng, partners, live_partners)
        team.acted(view.hand_id)
        if target.all_in:
            others = [o for o in live if not o.all_in and o.player_id != target.player_id]
            if tactic == "ko_steer" and view.to_call > 0:
                return _steer(view, live_partners)
            if all(o.player_id in ids for o in others):
                return passive_move(view, True)  # check it down so a member takes the bounty
            return self._spare(view, rng, partners)
        if any(o.all_in for o in live_partners):
            return passive_move(view, False)  # a partner is all in: never risk busting them
        pct = strength.preflop(view.hole_cards)
        cheap = view.to_call * 3 < view.stack  # hunters pressure the target, not their own stacks
        if view.street == "preflop":
            raisers = _raises(view)
            if not raisers:
                if pct > 0.3:
                    return raise_move(view, int(view.big_blind * rng.uniform(2.2, 3.0)))
                return passive_move(view, view.to_call <= view.big_blind)
            opener = by_id.get(raisers[-1])
            deep = opener is not None and opener.stack > 2 * (view.to_call * 3 + view.pot)
            if raisers[-1] in ids and tactic == "isolate":
                # flat-call the partner so the target stays in the pot between them
                return passive_move(view, cheap and pct > 0.15)
            if raisers[-1] in ids and tactic not in ("sandwich", ""):
                return passive_move(view, cheap and pct > 0.3)  # come along, never re-raise
            if raisers[-1] in ids and cheap and deep and pct > 0.25:
                return _capped(view, view.to_call * 3 + view.pot)  # the sandwich re-raise
            if raisers[-1] == target.player_id and tactic in ("checkdown", "chip_pass"):
                return passive_move(view, cheap and pct > 0.3)  # enter with the target, cheaply
            if raisers[-1] == target.player_id and live_partners and cheap and pct > 0.45:
                return _capped(view, view.to_call * 3 + view.pot)  # isolate the target
            return passive_move(view, pct > (0.35 if cheap else 0.75))
        s = strength.postflop(view.hole_cards, view.board)
        if view.to_call == 0:
            if s > 0.3 or rng.random() < 0.5:
                return _capped(view, int(view.pot * rng.uniform(0.5, 0.75)))
            return "check", 0
        return passive_move(view, s > 0.55 or (s > 0.3 and cheap) or view.to_call * 4 < view.pot)

    def _soft(
        self,
        view: DecisionView,
        rng: random.Random,
        partners: list[OpponentView],
        live_partners: list[OpponentView],
    ) -> tuple[Move, int]:
        """Soft play: each member's own game with the target in the pot, except that nobody
        raises over a partner's bet (the partners let each other through to the target)."""
        move = self._spare(view, rng, partners)
        if not live_partners:
            return move
        self.team.acted(view.hand_id)
        if move[0] == "raise" and _raises(view)[-1:] and _raises(view)[-1] in self.team.ids:
            return passive_move(view, True)
        return move

    def _spare(
        self, view: DecisionView, rng: random.Random, partners: list[OpponentView]
    ) -> tuple[Move, int]:
        """Honest play, except that a member never calls or bets into an all-in partner: the
        team's first rule is to keep every member alive, whatever the intensity."""
        move = self.base.decide(view, rng)
        if move[0] in ("call", "raise") and any(o.all_in and not o.folded for o in partners):
            self.team.spared_pending.add(view.hand_id)
            return passive_move(view, False)
        return move


def _counterfactual(base: Policy, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
    """What `base` would do here, from a copy of the generator: the day's draws stay as
    they were."""
    twin = random.Random()
    twin.setstate(rng.getstate())
    return base.decide(view, twin)


def _pass_chips(view: DecisionView, live_partners: list[OpponentView]) -> tuple[Move, int]:
    """Only partners are left: the shorter member bets into the bigger one and gives up to any
    raise, the bigger one raises it out (chips flow to the member who can use them)."""
    partner = max(live_partners, key=lambda o: o.stack)
    if view.stack < partner.stack:
        if view.to_call > 0 and _raises(view)[-1:] == [partner.player_id]:
            return "fold", 0
        return raise_move(view, max(view.min_raise_to, view.pot // 2))
    if view.to_call > 0:
        return raise_move(view, view.to_call * 3 + view.pot)
    return "check", 0


def _steer(view: DecisionView, live_partners: list[OpponentView]) -> tuple[Move, int]:
    """The target is all in: the member with the biggest stack takes it on with any hand it
    can afford, the others stand aside so that the knockout goes where the team wants it."""
    shooter = max(live_partners, key=lambda o: o.stack, default=None)
    if shooter is not None and shooter.stack > view.stack:
        return passive_move(view, False)
    return passive_move(view, view.to_call * 3 < view.stack)


def _disciplined(view: DecisionView, move: tuple[Move, int]) -> tuple[Move, int]:
    """A team member stays alive to collude: with a deep stack it puts more than a third of it
    at risk only with a very strong hand (a regular's discipline, not a tell)."""
    action, raise_to = move
    if action in ("fold", "check") or view.stack < 15 * view.big_blind:
        return move
    risk = view.to_call if action == "call" else raise_to - (view.max_raise_to - view.stack)
    if risk * 3 <= view.stack:
        return move
    if view.board:
        strong = strength.postflop(view.hole_cards, view.board) > 0.85
    else:
        strong = strength.preflop(view.hole_cards) > 0.96
    return move if strong else passive_move(view, False)


def _capped(view: DecisionView, target: int) -> tuple[Move, int]:
    """Raise without committing more than half the stack unless the hand is already big."""
    if target > view.max_raise_to * 0.5:
        return passive_move(view, view.to_call * 3 < view.stack)
    return raise_move(view, target)
