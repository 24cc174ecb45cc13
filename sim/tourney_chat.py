"""Tournament-wide and private chat of a tournament's players, away from any one table.

This is where honest emoji during a hand live: a player whose own table has a hand in play
reacts in the tournament channel to a bust-out at another table ("gg", a thumbs-up), or sends a
friend elsewhere a private "unlucky". None of it reaches the hand in play at the speaker's table,
so none of it is in-hand influence; each such reaction is a labelled hard negative.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from railbird.sim import chat_lines

if TYPE_CHECKING:
    from railbird.sim.players import Player
    from railbird.sim.tournament import TournamentRun

_REACTION_EMOJI = ("👍", "😮", "😢", "🤦", "👏", "💀", "🙈", "😬")


def channel_chat(run: TournamentRun, ms: int) -> None:
    """Background tournament and private talk; schedules the next line."""
    rng = run.rng
    live = [p for p in run.players if p.alive]
    if not live:
        return
    speaker, other = rng.choice(live), rng.choice(live)
    if rng.random() < 0.7:
        run.out.chat(
            ms,
            speaker.pid,
            speaker.name,
            chat_lines.say(rng, chat_lines.TOURNEY_TALK),
            channel="tournament",
            tournament_id=run.tournament_id,
        )
    elif other is not speaker:
        run.out.chat(
            ms,
            speaker.pid,
            speaker.name,
            chat_lines.say(rng, chat_lines.PRIVATE_TALK),
            channel="private",
            recipient_id=other.pid,
        )
    mean = 40_000 * 180 / max(20, len(live))
    run.agenda.add(ms + 1 + int(rng.expovariate(1 / mean)), "channel_chat", None)


def bust_reactions(
    run: TournamentRun, ms: int, busted: Player, table: str, rng: random.Random
) -> None:
    """A few players elsewhere react to a bust-out, some with an emoji, some privately."""
    others = [p for p in run.players if p.alive and p.table_id and p.table_id != table]
    if not others:
        return
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        speaker = rng.choice(others)
        at = ms + rng.randint(1_500, 20_000)
        private = rng.random() < 0.3
        if rng.random() < 0.45:
            text, kind = rng.choice(_REACTION_EMOJI), "emoji"
        else:
            text = chat_lines.say(rng, chat_lines.OFF_TABLE_REACTION, name=busted.name)
            kind = "text"
        mid = run.out.chat(
            at,
            speaker.pid,
            speaker.name,
            text,
            channel="private" if private else "tournament",
            tournament_id=None if private else run.tournament_id,
            recipient_id=busted.pid if private else None,
            kind=kind,
        )
        if run.cfg.hard_negatives:
            run.out.truth(
                at,
                {
                    "hard_negative": "other_table_reaction",
                    "message_id": mid,
                    "player_ids": [speaker.pid],
                    "tournament_id": run.tournament_id,
                },
            )
