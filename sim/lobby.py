"""Chat away from the tables: lobby talk, private messages, and bot waves.

A bot wave is one advertising or phishing text posted by many fresh accounts within a minute or
two, lightly varied (a digit, an emoji, casing) so exact-duplicate filters miss it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from railbird.sim import abuse_lines as abuse
from railbird.sim import chat_lines as lines
from railbird.sim.config import SimConfig
from railbird.sim.names import screen_name, staff_name
from railbird.sim.stream import Ids, Item, Outbox
from railbird.sim.violations import ACCEPT


def _vary(text: str, rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.25:
        return text.upper()
    if roll < 0.5:
        return text + " " + rng.choice(("💰", "🔥", "!!", "✅", "👉"))
    if roll < 0.7:
        return rng.choice(("hey all ", "psst ", ">> ", "")) + text
    return text


def lobby_stream(cfg: SimConfig, ids: Ids, start: int, end: int) -> Iterator[Item]:
    rng = random.Random(f"{cfg.seed}:lobby")
    out = Outbox(ids)
    regulars = [(ids.player(), screen_name(rng)) for _ in range(40)]
    wave_rate = cfg.rate("bot_waves_per_hour") / 3_600_000
    talk_rate = cfg.chat_scale * (1 + cfg.tournaments + cfg.cash_tables) / 120_000
    next_wave = start + (int(rng.expovariate(wave_rate)) if wave_rate > 0 else end + 1)
    ms = start
    while ms <= end:
        ms += 1 + int(rng.expovariate(talk_rate))
        while next_wave <= ms and next_wave <= end:
            _wave(out, ids, rng, next_wave)
            next_wave += int(rng.expovariate(wave_rate))
        if ms > end:
            break
        pid, name = rng.choice(regulars)
        roll = rng.random()
        if roll < 0.6:
            out.chat(ms, pid, name, lines.say(rng, lines.LOBBY_TALK), channel="lobby")
        elif roll < 0.95:
            other = rng.choice(regulars)[0]
            if other != pid:
                out.chat(
                    ms,
                    pid,
                    name,
                    lines.say(rng, lines.PRIVATE_TALK),
                    channel="private",
                    recipient_id=other,
                )
        elif cfg.violation_scale > 0:
            bot = ids.player()
            text = abuse.impersonation(rng, name)
            mid = out.chat(ms, bot, staff_name(rng), text, channel="private", recipient_id=pid)
            out.truth(
                ms,
                {
                    "message_id": mid,
                    "category": "impersonation",
                    "accept": ACCEPT["impersonation"],
                    "optional": False,
                },
            )
        yield from out.release(ms)
    yield from out.drain()


def _wave(out: Outbox, ids: Ids, rng: random.Random, ms: int) -> None:
    category = rng.choice(("advertising", "malicious_link"))
    text = abuse.advertising(rng) if category == "advertising" else abuse.malicious_link(rng)
    channel = rng.choice(("lobby", "lobby", "tournament"))
    at = ms
    for _ in range(rng.randint(5, 14)):
        bot = ids.player()
        mid = out.chat(
            at,
            bot,
            screen_name(rng) + str(rng.randint(100, 9999)),
            _vary(text, rng),
            channel=channel,
        )
        out.truth(
            at,
            {
                "message_id": mid,
                "category": category,
                "accept": ACCEPT[category] + ([] if "spam" in ACCEPT[category] else ["spam"]),
                "optional": False,
                "wave": True,
            },
        )
        at += rng.randint(500, 12_000)
