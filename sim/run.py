"""Entry points: `simulate` yields one day of traffic in time order; `write_simulation` saves it.

Every tournament and cash table is an independent, lazily generated, time-ordered stream; a heap
merge interleaves them, so memory holds roughly one hand per table rather than the whole day.
"""

from __future__ import annotations

import heapq
import operator
import random
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import orjson

from railbird.sim.cash_pairs import pair_mode
from railbird.sim.cash_table import CashRun, Visit, cash_big_blind, cash_table_format
from railbird.sim.config import SimConfig
from railbird.sim.lobby import lobby_stream
from railbird.sim.stream import Ids, Item, to_ms
from railbird.sim.tournament import TournamentRun


@dataclass(slots=True)
class SimStats:
    events: int = 0
    truth_records: int = 0
    hands: int = 0
    chat_messages: int = 0
    seconds: float = 0.0
    truth_by_category: Counter[str] = field(default_factory=Counter)

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds if self.seconds else 0.0


def _streams(config: SimConfig) -> list[Iterator[Item]]:
    ids = Ids(config.id_prefix)
    start = to_ms(config.start)
    end = start + int(config.hours * 3_600_000)
    rng = random.Random(f"{config.seed}:day")
    streams: list[Iterator[Item]] = []
    for k in range(config.tournaments):
        begin = start + int(k * config.tournament_stagger_minutes * 60_000)
        if begin >= end:
            break
        bounty = config.bounty_share > 0 and (k == 0 or rng.random() < config.bounty_share)
        streams.append(TournamentRun(config, ids, begin, end, bounty).run())
    pairs: list[list[str]] = [[] for _ in range(config.cash_tables)]
    modes: list[list[str]] = [[] for _ in range(config.cash_tables)]  # each pair's mode
    if config.cash_tables:
        slots = [("chip_dumping", k) for k in range(config.chip_dump_pairs)]
        slots += [("soft_play", k) for k in range(config.soft_play_pairs)]
        for k, (category, nth) in enumerate(slots):
            pairs[k % config.cash_tables].append(category)
            modes[k % config.cash_tables].append(pair_mode(config, category, nth))
    visits = plan_visits(config, ids, start, end, pairs)
    for k in range(config.cash_tables):
        streams.append(CashRun(config, ids, k, start, end, pairs[k], visits[k], modes[k]).run())
    streams.append(lobby_stream(config, ids, start, end))
    return streams


def plan_visits(
    config: SimConfig, ids: Ids, start: int, end: int, pairs: list[list[str]]
) -> list[list[Visit]]:
    """The day's cash-table visitors, per table: hit-and-runners (half keep to one blind
    level, half roam), honest short stayers, and staged exceptions (at tables without a
    colluding pair, whose members never leave, and at ring tables)."""
    tables = config.cash_tables
    visits: list[list[Visit]] = [[] for _ in range(tables)]
    if not tables:
        return visits
    rng = random.Random(f"{config.seed}:visits")
    levels: dict[int, list[int]] = {}
    for k in range(tables):
        levels.setdefault(cash_big_blind(config, k), []).append(k)
    span = max(end - start - 20 * 60_000, 60_000)
    for _ in range(config.hit_and_runners):
        pid = ids.player()
        home = rng.choice(sorted(levels)) if rng.random() < 0.5 else None
        choices = levels[home] if home is not None else list(range(tables))
        times = sorted(start + rng.randrange(span) for _ in range(rng.randint(2, 7)))
        for ms in times:
            visits[rng.choice(choices)].append(Visit(ms, pid, rng.randint(1, 9)))
    for _ in range(config.short_stayers):
        visits[rng.randrange(tables)].append(
            Visit(start + rng.randrange(span), ids.player(), rng.randint(10, 14), "short_stay")
        )
    # At ring tables (elsewhere the format alone excuses the leave) without a pair.
    ring = [k for k in range(tables) if cash_table_format(config, k) == "ring"]
    quiet = [k for k in ring if not pairs[k]] or ring or list(range(tables))
    for n in range(config.refusal_exceptions):
        mode = ("into_sitters", "last_one")[n % 2]
        visits[rng.choice(quiet)].append(
            Visit(start + rng.randrange(span), ids.player(), rng.randint(2, 6), mode)
        )
    return visits


def simulate(config: SimConfig) -> Iterator[tuple[Literal["event", "truth"], dict[str, Any]]]:
    """Yields contract events in non-decreasing event time (chat/table: ts, hand: ended_at),
    interleaved with truth records."""
    for _, _, kind, record in heapq.merge(*_streams(config), key=operator.itemgetter(0)):
        yield kind, record


def write_simulation(config: SimConfig, events_path: Path, truth_path: Path) -> SimStats:
    stats = SimStats()
    began = time.perf_counter()
    dumps = orjson.dumps
    with events_path.open("wb") as events, truth_path.open("wb") as truth:
        for kind, record in simulate(config):
            if kind == "event":
                events.write(dumps(record) + b"\n")
                stats.events += 1
                kind_of = record["type"]
                if kind_of == "hand":
                    stats.hands += 1
                elif kind_of == "chat":
                    stats.chat_messages += 1
            else:
                truth.write(dumps(record) + b"\n")
                stats.truth_records += 1
                stats.truth_by_category[record.get("category") or record["hard_negative"]] += 1
    stats.seconds = time.perf_counter() - began
    return stats
