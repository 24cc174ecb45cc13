"""Honest bounty-day behaviour that looks like collusion: hunters and friends.

Hunters are single players who loosen up against a big covered bounty. Several at one table
converge on the same head without any agreement, so a pair of them co-enters the target's pots
far more than either does otherwise. Friends are two honest players who chat privately all day,
bounty talk included ("his head is huge lol"), and play their own game. Both are labelled hard
negatives: a collusion detector that flags them is reading motive or chatter as agreement.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from railbird.sim import chat_lines, strength
from railbird.sim.players import Player, passive_move, raise_move
from railbird.sim.positional_players import honest_policy
from railbird.sim.table_view import DecisionView, Move, OpponentView

if TYPE_CHECKING:
    from railbird.sim.tournament import TournamentRun

FRIEND_TALK = (
    "[lol|haha] {t} [has|got] a [huge|massive|fat] bounty [now|]",
    "[i want|gimme] {t}[s|'s] [bounty|head] [so bad|lol|]",
    "[did you|u] get [the|his] bounty?",
    "nice [ko|knockout|bounty] [man|!|]",
    "{t} keeps [shoving|jamming] [lol|], someone will [get|take] [his|that] bounty",
    "we both [need|gotta] [bust|knock out] someone [lol|soon|] to [cash|go deep]",
    "[how much|how big] is your bounty [now|]?",
    "[gl|good luck] [both of us|us both] [cash|go deep] [tonight|]",
    "[ugh|damn] {t} [sucked out|rivered me] [again|]",
    "[my|mine] bounty [is|went] up to {n} [lol|]",
    "[tilted|annoyed] by {t} [lol|tbh|]",
    "[you|u] still in? [im|i'm] [short|deep|card dead]",
)


def is_head(opponent: OpponentView, view: DecisionView, big: int) -> bool:
    """A head worth hunting: a covered stack carrying at least `big` in bounty, or any covered
    short stack when bounties are flat (all of them then pay the same)."""
    if opponent.folded or opponent.bounty is None or opponent.stack > view.stack:
        return False
    return opponent.bounty >= big or opponent.stack < 20 * view.big_blind


class HunterPolicy:
    """An honest player who widens calls and isolation raises against a covered bounty."""

    __slots__ = ("base", "big")

    def __init__(self, player: Player, big_bounty: int) -> None:
        self.base = honest_policy(player)
        self.big = big_bounty

    def decide(self, view: DecisionView, rng: random.Random) -> tuple[Move, int]:
        move = self.base.decide(view, rng)
        if move[0] != "fold" or view.street != "preflop" or view.to_call == 0:
            return move
        raisers = [pid for pid, act, _ in view.actions_this_street if act in ("raise", "all_in")]
        heads = {o.player_id for o in view.opponents if is_head(o, view, self.big)}
        if not raisers or raisers[-1] not in heads or view.to_call * 3 > view.stack:
            return move
        pct = strength.preflop(view.hole_cards)
        if pct > 0.7:
            return raise_move(view, view.to_call * 3 + view.pot)
        return passive_move(view, pct > 0.4)


def choose_hunters(run: TournamentRun, per_table: float) -> set[str]:
    """Players (never team members) who hunt, about `per_table` per table on average."""
    rng = random.Random(f"{run.cfg.seed}:{run.tournament_id}:hunters")
    share = per_table / max(1, run.cfg.table_size)
    return {p.pid for p in run.players if p.team is None and rng.random() < share}


def pair_friends(run: TournamentRun, pairs: int) -> list[tuple[Player, Player]]:
    """Pairs of honest players dealt to one table (friends who registered together)."""
    rng = random.Random(f"{run.cfg.seed}:{run.tournament_id}:friends")
    chosen: list[tuple[Player, Player]] = []
    for table in rng.sample(run.tables, min(pairs, len(run.tables))):
        free = [p for p in table.seats.values() if p.team is None]
        if len(free) >= 2:
            a, b = rng.sample(free, 2)
            chosen.append((a, b))
    return chosen


def friend_chat(run: TournamentRun, ms: int, pair: tuple[Player, Player]) -> list[str]:
    """One private line between friends while both play; schedules the next. Returns the
    message ids written."""
    a, b = pair
    if not (a.alive and b.alive):
        return []
    rng = run.rng
    speaker, other = (a, b) if rng.random() < 0.5 else (b, a)
    seated = [p for p in run.players if p.alive and p.table_id == speaker.table_id]
    named = rng.choice([p for p in seated if p not in pair] or [other])
    if rng.random() < 0.5:
        text = chat_lines.say(
            rng, FRIEND_TALK, t=named.name, n=str((speaker.bounty or 500) + rng.choice((250, 500)))
        )
    else:
        text = chat_lines.say(rng, chat_lines.PRIVATE_TALK)
    mid = run.out.chat(
        ms, speaker.pid, speaker.name, text, channel="private", recipient_id=other.pid
    )
    run.agenda.add(ms + rng.randint(40_000, 240_000), "friend_chat", pair)
    return [mid]
