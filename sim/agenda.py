"""Timed seat-state changes that outlive a hand: sit-outs, sit-ins, drops and reconnects.

A player's state changes only through here, with a token per episode, so overlapping causes
(an honest break, a team's signal, a timeout) cannot leave a player stuck or emit a sit-in that
was never preceded by its sit-out.
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable
from typing import Any

from railbird.sim.players import Player
from railbird.sim.stream import Outbox

Handler = Callable[[int, Any], None]
_STATE_ACTIONS = frozenset({"sit_out", "sit_in", "disconnect", "reconnect"})


class Agenda:
    __slots__ = ("_heap", "_seq", "handlers", "on_fire", "out", "rng", "tokens", "tournament_id")

    def __init__(self, out: Outbox, tournament_id: str | None, rng: random.Random) -> None:
        self.out = out
        self.tournament_id = tournament_id
        self.rng = rng
        self.tokens = itertools.count(1)
        self._heap: list[tuple[int, int, str, Any, int]] = []
        self._seq = itertools.count()
        self.handlers: dict[str, Handler] = {
            "honest_out": self._honest_out,
            "honest_drop": self._honest_drop,
        }
        self.on_fire: Callable[[int, str, Player, int], None] | None = None

    def seed_habits(self, players: list[Player], start_ms: int) -> None:
        """First honest sit-out and drop of each player; each episode schedules the next."""
        for p in players:
            if p.sitout_per_hour:
                self.add(start_ms + self._wait(p.sitout_per_hour), "honest_out", p)
            if p.disconnect_per_hour:
                self.add(start_ms + self._wait(p.disconnect_per_hour), "honest_drop", p)

    def _wait(self, per_hour: float) -> int:
        return int(self.rng.expovariate(per_hour) * 3_600_000)

    def _honest_out(self, ms: int, player: Player) -> None:
        if not player.alive:
            return
        span = self.rng.randint(30_000, 360_000)
        if not player.away:
            token = next(self.tokens)
            self.add(ms, "sit_out", player, token)
            self.add(ms + span, "sit_in", player, token)
        self.add(ms + span + self._wait(player.sitout_per_hour), "honest_out", player)

    def _honest_drop(self, ms: int, player: Player) -> None:
        if not player.alive:
            return
        span = self.rng.randint(4_000, 90_000)
        token = next(self.tokens)
        self.add(ms, "disconnect", player, token)
        self.add(ms + span, "reconnect", player, token)
        self.add(ms + span + self._wait(player.disconnect_per_hour), "honest_drop", player)

    def add(self, ms: int, action: str, subject: Any, token: int = 0) -> None:
        heapq.heappush(self._heap, (ms, next(self._seq), action, subject, token))

    def schedule(self, ms: int, action: str, player: Player, token: int) -> None:
        self.add(ms, action, player, token)

    def next_ms(self) -> int | None:
        return self._heap[0][0] if self._heap else None

    def run_next(self) -> None:
        ms, _, action, subject, token = heapq.heappop(self._heap)
        if action not in _STATE_ACTIONS:
            self.handlers[action](ms, subject)
            return
        player: Player = subject
        if not player.alive or player.table_id is None:
            return
        if ms < player.available_ms:  # moving between tables: act once seated
            self.add(player.available_ms + 50, action, player, token)
            return
        if action == "sit_out":
            if player.out_token:
                return
            player.out_token = token
        elif action == "sit_in":
            if player.out_token != token:
                return
            player.out_token = 0
        elif action == "disconnect":
            if player.drop_token:
                return
            player.drop_token = token
        elif player.drop_token != token:
            return
        else:
            player.drop_token = 0
        self.out.table(ms, player.table_id, self.tournament_id, action, player.pid, player.seat)
        if self.on_fire is not None:
            self.on_fire(ms, action, player, token)
