"""Honest chat around a hand, plus the hard negatives that must never be flagged.

Most players say almost nothing; a few talk a lot. Talk clusters after hands (reactions, thanks,
moans) and around bust-outs. The house rule bans influencing a hand in play by chat, emoji or
SnapCam, so honest talk while a hand is in play at the table is only what cannot influence it:
small talk and greetings from players who folded, a rare "sorry, lag" from one still in, and
late "nh"/"ty"/"gg" for the hand that just ended, typed as the next one is dealt. Emoji, moans,
slang, banter, cheering from the rail, SnapCam and card talk wait for the hand to end, and the
next deal waits for them (a real table's rhythm: the dealer pauses while people react). Honest
emoji during a hand do exist, away from that table: see `sim.tourney_chat`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from railbird.sim import chat_lines as lines
from railbird.sim import violations
from railbird.sim.stream import to_ms
from railbird.sim.table_view import HandResult

if TYPE_CHECKING:
    from railbird.sim.players import Player
    from railbird.sim.table import TableRun


def around_hand(
    table: TableRun, dealt: list[Player], result: HandResult, start: int, end: int, bb: int
) -> int:
    """Emit the chat for one hand; returns the pause (ms) the table needs before the next deal."""
    rng, out, cfg = table.rng, table.out, table.cfg
    folds = {pid: to_ms(t) for pid, t in result.fold_times.items()}
    minutes = (end - start) / 60_000
    names = [p.name for p in dealt]
    hand = result.hand
    # A dict, not a set: the winners are iterated and the first one is named, and a set of
    # strings would order them by PYTHONHASHSEED, so a seed's output would vary between runs.
    winners = dict.fromkeys(w["player_id"] for w in hand["winners"])
    pot = sum(w["amount"] for w in hand["winners"])
    showdown = bool(hand["showdown"])
    latest = end  # the next deal waits for every line that must not land in a hand

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

    def settled(speaker: Player, ms: int, text: str, kind: str = "text") -> str:
        nonlocal latest
        latest = max(latest, ms)
        return say(speaker, ms, text, kind)

    def loose(speaker: Player, ms: int, text: str) -> None:
        """Harmless wherever it lands; labelled a hard negative if a hand is in play then."""
        table.carry(ms, say(speaker, ms, text), None)

    def banter(speaker: Player, ms: int) -> None:
        mid = settled(speaker, ms, lines.say(rng, lines.BANTER))
        if cfg.hard_negatives:
            out.truth(ms, {"hard_negative": "banter", "message_id": mid})

    for p in dealt:
        if rng.random() >= p.chattiness * minutes * cfg.chat_scale:
            continue
        ms = rng.randint(start, end + 4_000)
        if ms < end:
            if folds.get(p.pid, end) < ms:
                loose(p, ms, lines.small_talk(rng) if rng.random() < 0.85 else lines.greeting(rng))
                continue
            if rng.random() < 0.1:
                loose(p, ms, lines.say(rng, lines.IN_HAND_TALK))
                continue
            ms = end + rng.randint(300, 4_000)
        roll = rng.random()
        if roll < 0.1:
            settled(p, ms, lines.say(rng, lines.NICE_HAND, name=rng.choice(names)))
        elif roll < 0.2:
            loose(p, ms + rng.randint(1_000, 3_000), lines.say(rng, lines.SPILL_TALK))
        elif roll < 0.4:
            settled(p, ms, lines.say(rng, lines.SLANG))
        elif roll < 0.5 and p.pid not in winners:
            settled(p, ms, lines.say(rng, lines.MOAN))
        elif roll < 0.62:
            settled(p, ms, rng.choice(lines.EMOJI_TALK), "emoji")
        elif roll < 0.72:
            banter(p, ms)
        elif roll < 0.77:
            loose(p, ms, lines.greeting(rng))
        else:
            loose(p, ms, lines.small_talk(rng))

    by_id = {p.pid: p for p in dealt}
    if showdown and pot > 25 * bb:
        for pid in winners:
            if rng.random() < 0.2 * cfg.chat_scale:
                loose(by_id[pid], end + rng.randint(500, 5_000), lines.say(rng, lines.THANKS))
        for entry in hand["showdown"]:
            loser = by_id[entry["player_id"]]
            if loser.pid not in winners and rng.random() < 0.3 * cfg.chat_scale:
                settled(loser, end + rng.randint(800, 6_000), lines.say(rng, lines.MOAN))
        if rng.random() < 0.25 * cfg.chat_scale:
            settled(
                rng.choice(dealt),
                end + rng.randint(800, 6_000),
                lines.say(rng, lines.NICE_HAND, name=by_id[next(iter(winners))].name),
            )
        if rng.random() < 0.06 * cfg.chat_scale:
            banter(rng.choice(dealt), end + rng.randint(800, 6_000))
        if pot > 60 * bb and rng.random() < 0.03 * cfg.chat_scale:
            ms = end + rng.randint(1_000, 4_000)  # the winner shows off on camera
            mid = settled(by_id[next(iter(winners))], ms, "", "snapcam")
            if cfg.hard_negatives:
                out.truth(ms, {"hard_negative": "between_hands_snapcam", "message_id": mid})
    for gone in result.eliminated:
        if rng.random() < 0.5 * cfg.chat_scale:
            loose(by_id[gone], end + rng.randint(600, 4_000), lines.say(rng, lines.GG))
        if rng.random() < 0.3 * cfg.chat_scale:
            loose(rng.choice(dealt), end + rng.randint(1_000, 6_000), lines.say(rng, lines.GG))
    for bird in table.railbirds:
        if rng.random() < 0.03 * cfg.chat_scale:
            settled(
                bird,
                end + rng.randint(500, 6_000),
                lines.say(rng, lines.RAILBIRD_TALK, name=rng.choice(names)),
            )
        elif rng.random() < 0.01 * cfg.chat_scale and end - start > 6_000:
            loose(bird, rng.randint(start + 2_000, end - 2_000), lines.greeting(rng))

    talkers = [p for p in dealt if p.pid in folds or (showdown and p.pid not in winners)]
    if talkers and rng.random() < 0.05 * cfg.chat_scale:
        p = rng.choice(talkers)
        cards = next(s["hole_cards"] for s in hand["seats"] if s["player_id"] == p.pid)
        ms = end + rng.randint(400, 2_500)
        mid = settled(p, ms, lines.say(rng, lines.CARD_TALK, cards=lines.cards_text(cards, rng)))
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
    return latest - end + 1_500 if latest > end else 0
