"""Honest chat around a hand, plus the hard negatives that must never be flagged.

Most players say almost nothing; a few talk a lot. Talk clusters after hands (reactions, thanks,
moans) and around bust-outs. Players still in a hand rarely type, and honest talk during a hand
is small talk that says nothing about the cards. Card talk waits for the hand to end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim import chat_lines as lines
from sim import violations
from sim.stream import to_ms
from sim.table_view import HandResult

if TYPE_CHECKING:
    from sim.players import Player
    from sim.table import TableRun


def around_hand(
    table: TableRun, dealt: list[Player], result: HandResult, start: int, end: int, bb: int
) -> int:
    """Emit the chat for one hand; returns the pause (ms) the table needs before the next deal."""
    rng, out, cfg = table.rng, table.out, table.cfg
    folds = {pid: to_ms(t) for pid, t in result.fold_times.items()}
    minutes = (end - start) / 60_000
    names = [p.name for p in dealt]
    hand = result.hand
    winners = {w["player_id"] for w in hand["winners"]}
    pot = sum(w["amount"] for w in hand["winners"])
    showdown = bool(hand["showdown"])

    def say(speaker: Player, ms: int, text: str, kind: str = "text") -> str:
        return out.chat(
            ms,
            speaker.pid,
            speaker.name,
            text,
            table_id=table.table_id,
            tournament_id=table.tournament_id,
            kind=kind,
        )

    def banter(speaker: Player, ms: int) -> None:
        mid = say(speaker, ms, lines.say(rng, lines.BANTER))
        if cfg.hard_negatives:
            out.truth(ms, {"hard_negative": "banter", "message_id": mid})

    for p in dealt:
        if rng.random() >= p.chattiness * minutes * cfg.chat_scale:
            continue
        ms = rng.randint(start, end + 4_000)
        if ms < end and folds.get(p.pid, end) >= ms:
            ms = end + rng.randint(300, 4_000)
        if ms < end:
            say(p, ms, lines.small_talk(rng) if rng.random() < 0.85 else lines.greeting(rng))
            continue
        roll = rng.random()
        if roll < 0.2:
            say(p, ms, lines.say(rng, lines.NICE_HAND, name=rng.choice(names)))
        elif roll < 0.4:
            say(p, ms, lines.say(rng, lines.SLANG))
        elif roll < 0.5 and p.pid not in winners:
            say(p, ms, lines.say(rng, lines.MOAN))
        elif roll < 0.62:
            say(p, ms, rng.choice(lines.EMOJI_TALK), "emoji")
        elif roll < 0.72:
            banter(p, ms)
        elif roll < 0.77:
            say(p, ms, lines.greeting(rng))
        else:
            say(p, ms, lines.small_talk(rng))

    by_id = {p.pid: p for p in dealt}
    if showdown and pot > 25 * bb:
        for pid in winners:
            if rng.random() < 0.2 * cfg.chat_scale:
                say(by_id[pid], end + rng.randint(500, 5_000), lines.say(rng, lines.THANKS))
        for entry in hand["showdown"]:
            loser = by_id[entry["player_id"]]
            if loser.pid not in winners and rng.random() < 0.3 * cfg.chat_scale:
                say(loser, end + rng.randint(800, 6_000), lines.say(rng, lines.MOAN))
        if rng.random() < 0.25 * cfg.chat_scale:
            other = rng.choice(dealt)
            say(
                other,
                end + rng.randint(800, 6_000),
                lines.say(rng, lines.NICE_HAND, name=by_id[next(iter(winners))].name),
            )
        if rng.random() < 0.06 * cfg.chat_scale:
            banter(rng.choice(dealt), end + rng.randint(800, 6_000))
    for gone in result.eliminated:
        if rng.random() < 0.5 * cfg.chat_scale:
            say(by_id[gone], end + rng.randint(600, 4_000), lines.say(rng, lines.GG))
        if rng.random() < 0.3 * cfg.chat_scale:
            say(rng.choice(dealt), end + rng.randint(1_000, 6_000), lines.say(rng, lines.GG))
    for bird in table.railbirds:
        if rng.random() < 0.03 * cfg.chat_scale:
            say(
                bird,
                end + rng.randint(500, 6_000),
                lines.say(rng, lines.RAILBIRD_TALK, name=rng.choice(names)),
            )

    gap = 0
    talkers = [p for p in dealt if p.pid in folds or (showdown and p.pid not in winners)]
    if talkers and rng.random() < 0.05 * cfg.chat_scale:
        p = rng.choice(talkers)
        cards = next(s["hole_cards"] for s in hand["seats"] if s["player_id"] == p.pid)
        ms = end + rng.randint(400, 2_500)
        mid = say(p, ms, lines.say(rng, lines.CARD_TALK, cards=lines.cards_text(cards, rng)))
        gap = ms - end + 1_500  # the next hand waits: this talk is about a finished hand
        if cfg.hard_negatives:
            out.truth(
                ms,
                {
                    "hard_negative": "post_hand_card_talk",
                    "message_id": mid,
                    "hand_id": hand["hand_id"],
                },
            )
    violations.inject(table, dealt, result, start, end, folds)
    return gap
