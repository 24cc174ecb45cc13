"""A cash table over the day: players arrive, play a session, rebuy or leave; pairs may collude.

Chips are cents. Chip dumping and soft play live here because a cash table is where chips turn
into money; their pairs sit together for the whole window so the scheme has hands to work with.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from railbird.sim.agenda import Agenda
from railbird.sim.config import SimConfig
from railbird.sim.players import Player, new_player
from railbird.sim.stream import Ids, Item, Outbox, fmt_ms
from railbird.sim.table import TableRun
from railbird.sim.teams import PairPolicy, Team


class CashRun:
    def __init__(
        self, cfg: SimConfig, ids: Ids, index: int, start_ms: int, end_ms: int, pairs: list[str]
    ) -> None:
        self.cfg, self.ids, self.end_ms = cfg, ids, end_ms
        self.out = Outbox(ids)
        table_id = ids.table()
        self.rng = rng = random.Random(f"{cfg.seed}:cash:{index}")
        self.agenda = Agenda(self.out, None, random.Random(f"{cfg.seed}:cash:{index}:a"))
        self.agenda.handlers.update(arrive=self._arrive, depart=self._depart)
        self.table = TableRun(
            table_id,
            None,
            cfg.cash_table_size,
            self.out,
            cfg,
            rng,
            self.agenda.schedule,
            start_ms + rng.randint(0, 20_000),
        )
        self.bb = cfg.cash_big_blind
        self.teams: list[Team] = []
        for k, category in enumerate(pairs):
            members = [self._new_player() for _ in range(2)]
            team = Team(
                category,
                members,
                cfg.team_intensity,
                None,
                random.Random(f"{cfg.seed}:cash:{index}:pair{k}"),
            )
            self.teams.append(team)
            roles = ("soft", "soft") if category == "soft_play" else ("dumper", "receiver")
            for member, role in zip(members, roles, strict=True):
                member.team = team
                seat = self.table.free_seats()[0]
                self.table.seat(
                    member,
                    seat,
                    start_ms - rng.randint(1_000, 60_000),
                    PairPolicy(member, team, role),
                )
        while len(self.table.seats) < cfg.cash_table_size - rng.randint(0, 1):
            self._sit(self._new_player(), start_ms - rng.randint(1_000, 300_000))
        self.table.railbirds = [
            new_player(ids.player(), rng)
            for _ in range(int(rng.random() < cfg.railbirds_per_table))
        ]

    def _new_player(self) -> Player:
        p = new_player(self.ids.player(), self.rng)
        p.stack = self.bb * self.rng.choice((40, 60, 100, 100, 100, 150))
        return p

    def _sit(self, player: Player, ms: int) -> None:
        free = self.table.free_seats()
        if not free:
            return
        self.table.seat(player, self.rng.choice(free), ms)
        self.agenda.seed_habits([player], ms)
        if player.team is None:
            self.agenda.add(ms + self.rng.randint(15, 180) * 60_000, "depart", player)

    def _arrive(self, ms: int, _: None) -> None:
        self._sit(self._new_player(), ms)

    def _depart(self, ms: int, player: Player) -> None:
        if player.alive and player.table_id is not None:
            self._leave(player, ms)

    def _leave(self, player: Player, ms: int) -> None:
        player.alive = False
        self.table.policies.pop(player.pid, None)
        self.table.unseat(player, ms)
        self.agenda.add(ms + self.rng.randint(10_000, 300_000), "arrive", None)

    def run(self) -> Iterator[Item]:
        table, agenda, out = self.table, self.agenda, self.out
        while True:
            pending = agenda.next_ms()
            if pending is not None and pending <= table.clock:
                if pending > self.end_ms:
                    break
                agenda.run_next()
            else:
                if table.clock > self.end_ms:
                    break
                self._step()
            pending = agenda.next_ms()
            yield from out.release(table.clock if pending is None else min(table.clock, pending))
        for team in self.teams:
            record = team.truth()
            record["first_violation_ts"] = fmt_ms(team.first_ms) if team.first_ms else None
            record["table_id"] = table.table_id
            out.truth(max(table.last_ended, table.clock), record)
        yield from out.drain()

    def _step(self) -> None:
        table = self.table
        result = table.play(self.bb // 2, self.bb, 0)
        if result is None:
            table.clock += 10_000
            return
        end = table.last_ended
        for p in list(table.seats.values()):
            if p.stack > 0:
                continue
            if p.team is not None or self.rng.random() < 0.6:
                p.stack = self.bb * 100  # rebuy between hands
            else:
                self._leave(p, end + self.rng.randint(500, 3_000))
