"""A multi-table tournament as a discrete-event simulation that yields its events in time order.

Tables are stepped in order of their next deal; timed seat changes (sit-outs, drops, breaks, a
team's signal) run from an agenda in the same time order. Output is buffered and released up to
the earliest pending time, below which nothing more can be produced.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Iterator
from typing import Any

from railbird.sim import (
    bounty_negatives,
    chat_lines,
    influence_lines,
    seating,
    sitout_variety,
    team_setup,
    tourney_chat,
)
from railbird.sim.agenda import Agenda
from railbird.sim.config import SimConfig
from railbird.sim.players import Player, new_player
from railbird.sim.positional_players import assign_family
from railbird.sim.side_pot import dry_side_pot_checkers
from railbird.sim.stream import Ids, Item, Outbox, fmt_ms
from railbird.sim.structure import Structure
from railbird.sim.table import TableRun
from railbird.sim.table_view import Policy
from railbird.sim.teams import BountyTeamPolicy, Team


class TournamentRun:
    def __init__(self, cfg: SimConfig, ids: Ids, start_ms: int, end_ms: int, bounty: bool) -> None:
        self.cfg, self.start_ms, self.end_ms = cfg, start_ms, end_ms
        self.tournament_id = ids.tournament()
        self.rng = rng = random.Random(f"{cfg.seed}:{self.tournament_id}")
        self.out = Outbox(ids)
        self.agenda = Agenda(
            self.out, self.tournament_id, random.Random(f"{cfg.seed}:{self.tournament_id}:a")
        )
        self.agenda.on_fire = self._fired
        self.agenda.handlers.update(
            team_sitout=self._team_sitout,
            break_start=self._break_start,
            report=self._report,
            mass_drop=self._mass_drop,
            channel_chat=self._channel_chat,
            bust_reaction=self._bust_reaction,
            friend_chat=self._friend_chat,
        )
        minute = 60_000
        self.structure = Structure(
            start_ms,
            int(cfg.level_minutes * minute),
            int(cfg.break_every_minutes * minute),
            int(cfg.break_minutes * minute),
        )
        self.tokens = self.agenda.tokens
        self.groups: dict[int, list[Any]] = {}  # token -> [owner, first_ms, fired pids]
        self.players = [
            assign_family(new_player(ids.player(), rng), cfg)
            for _ in range(cfg.players_per_tournament)
        ]
        for p in self.players:
            p.stack, p.bounty = cfg.starting_stack, (cfg.bounty if bounty else None)
        self.teams = team_setup.make_teams(self, bounty)
        self.by_pid = {p.pid: p for p in self.players}
        self.hunters = (
            bounty_negatives.choose_hunters(self, cfg.bounty_hunters_per_table)
            if bounty and cfg.bounty_hunters_per_table > 0
            else set()
        )
        self.alive = len(self.players)
        self.bounties_won: dict[str, int] = {}
        n_tables = max(1, math.ceil(len(self.players) / cfg.table_size))
        self.tables: list[TableRun] = []
        for k, group in enumerate(seating.deal_seats(self.players, n_tables, cfg.table_size)):
            table = TableRun(
                ids.table(),
                self.tournament_id,
                cfg.table_size,
                self.out,
                cfg,
                random.Random(f"{cfg.seed}:{self.tournament_id}:{k}"),
                self.agenda.schedule,
                start_ms + rng.randint(0, 4_000),
            )
            for seat, p in enumerate(group, start=1):
                team = p.team
                policy: Policy | None = None
                if isinstance(team, Team) and team.category == "bounty_collusion":
                    policy = BountyTeamPolicy(p, team)
                elif p.pid in self.hunters:
                    policy = bounty_negatives.HunterPolicy(p, 2 * cfg.bounty)
                table.seat(p, seat, start_ms - rng.randint(1_000, 120_000), policy)
            table.railbirds = [
                new_player(ids.player(), rng)
                for _ in range(sum(rng.random() < cfg.railbirds_per_table / 2 for _ in range(2)))
            ]
            self.tables.append(table)
        self.friends = bounty_negatives.pair_friends(self, cfg.friend_pairs_per_tournament)
        self.friend_messages: dict[tuple[str, str], list[str]] = {}
        self._seed_agenda()

    def _seed_agenda(self) -> None:
        cfg, rng, add, start = self.cfg, self.rng, self.agenda.add, self.start_ms
        self.agenda.seed_habits(self.players, start)
        for team in self.teams:
            if team.category == "coordinated_sit_out":
                add(start + rng.randint(120_000, 900_000), "team_sitout", team)
        if cfg.hard_negatives:
            for begin, end in self.structure.breaks(self.end_ms):
                add(begin, "break_start", (begin, end))
            for _ in range(cfg.mass_disconnects_per_tournament):
                span = max(60_000, self.end_ms - start)
                add(start + rng.randint(span // 5, span * 4 // 5), "mass_drop", None)
        add(start + rng.randint(5_000, 60_000), "channel_chat", None)
        for k, pair in enumerate(self.friends):
            add(start + 30_000 + 7_919 * k, "friend_chat", pair)

    # -- the event loop -------------------------------------------------------------------
    def run(self) -> Iterator[Item]:
        heap = [(t.clock, k, t) for k, t in enumerate(self.tables)]
        heapq.heapify(heap)
        agenda, out = self.agenda, self.out
        while heap and self.alive > 1:
            table_ms = heap[0][0]
            agenda_ms = agenda.next_ms()
            if agenda_ms is not None and agenda_ms <= table_ms:
                if agenda_ms > self.end_ms:
                    break
                agenda.run_next()
            else:
                if table_ms > self.end_ms:
                    break
                _, k, table = heapq.heappop(heap)
                self._step(table)
                if table.seats:
                    heapq.heappush(heap, (table.clock, k, table))
            pending = agenda.next_ms()
            watermark = heap[0][0] if heap else self.end_ms
            yield from out.release(watermark if pending is None else min(watermark, pending))
        last = max((t.last_ended for t in self.tables), default=self.end_ms)
        for team in self.teams:
            record = team.truth()
            record["first_violation_ts"] = fmt_ms(team.first_ms) if team.first_ms else None
            record["message_ids"] = team.message_ids
            if team.category == "coordinated_sit_out" and team.tactic:
                record["sitout_style"] = team.tactic
            out.truth(last, record)
        for hard in self._hard_negative_truth():
            out.truth(last, hard)
        yield from out.drain()

    def _hard_negative_truth(self) -> list[dict[str, Any]]:
        """Hunters (all of a tournament's in one record: any group of them is innocent) and
        each pair of friends, with the private messages they exchanged."""
        records: list[dict[str, Any]] = []
        if self.hunters:
            records.append(
                {
                    "hard_negative": "bounty_hunters",
                    "tournament_id": self.tournament_id,
                    "player_ids": sorted(self.hunters),
                }
            )
        for a, b in self.friends:
            records.append(
                {
                    "hard_negative": "friends",
                    "tournament_id": self.tournament_id,
                    "player_ids": sorted((a.pid, b.pid)),
                    "message_ids": self.friend_messages.get((a.pid, b.pid), []),
                }
            )
        return records

    def _step(self, table: TableRun) -> None:
        now = table.clock
        pause = self.structure.break_at(now)
        if pause is not None:
            table.clock = pause[1] + table.rng.randint(0, 4_000)
            return
        result = table.play(*self.structure.blinds(now))
        if result is None:
            table.clock = now + 5_000
            seating.balance(table, self.tables, now, self._pinned())
            return
        end = table.last_ended
        for entry in result.hand["eliminated"]:
            self._bust(table, entry, end)
        checkers = dry_side_pot_checkers(result.hand) if self.cfg.hard_negatives else None
        if checkers and not self._teamed(checkers):
            self.out.truth(
                end,
                {
                    "hard_negative": "dry_side_pot_checkdown",
                    "hand_id": result.hand["hand_id"],
                    "player_ids": checkers,
                    "tournament_id": self.tournament_id,
                },
            )
        moved = seating.balance(table, self.tables, end + 1_500, self._pinned())
        for dst in [table, *moved]:
            for team in self.teams:
                if team.category == "bounty_collusion":
                    team_setup.retarget(self, team, dst)

    def _pinned(self) -> set[str]:
        return {t.target for t in self.teams if t.target and t.category == "bounty_collusion"}

    def _teamed(self, pids: list[str]) -> bool:
        return any(len(team.ids.intersection(pids)) >= 2 for team in self.teams)

    def _bust(self, table: TableRun, entry: dict[str, Any], end: int) -> None:
        player = next(p for p in table.seats.values() if p.pid == entry["player_id"])
        player.alive = False
        self.alive -= 1
        if self.rng.random() < 0.2 * self.cfg.chat_scale:
            self.agenda.add(end, "bust_reaction", (player, table.table_id))
        table.policies.pop(player.pid, None)
        table.unseat(player, end + table.rng.randint(800, 2_000))
        winners = entry["by"]
        for team in self.teams:
            if team.target == player.pid and winners and set(winners) <= team.ids:
                team.knockouts.append(player.pid)
        if entry.get("bounty_awarded") and winners:
            share, odd = divmod(entry["bounty_awarded"], len(winners))
            for rank, pid in enumerate(winners):
                won = share + (rank < odd)
                if self.cfg.progressive_bounty:  # half onto the winner's own head
                    winner = self.by_pid[pid]
                    winner.bounty = (winner.bounty or 0) + won // 2
                    won -= won // 2
                self.bounties_won[pid] = self.bounties_won.get(pid, 0) + won

    def _fired(self, ms: int, action: str, player: Player, token: int) -> None:
        group = self.groups.get(token)
        if group is None or action not in ("sit_out", "disconnect"):
            return
        owner, first, fired = group
        fired.append(player.pid)
        group[1] = first or ms
        if isinstance(owner, Team) and len(fired) == 2:
            owner.acts += 1
            owner.first_ms = owner.first_ms or group[1]

    def _episode(
        self,
        owner: Any,
        members: list[Player],
        on: tuple[str, str],
        begin: tuple[int, int],
        finish: tuple[int, int],
    ) -> int:
        token = next(self.tokens)
        self.groups[token] = [owner, 0, []]
        rng = self.rng
        for m in members:
            self.agenda.add(rng.randint(*begin), on[0], m, token)
            self.agenda.add(rng.randint(*finish), on[1], m, token)
        return token

    def _team_sitout(self, ms: int, team: Team) -> None:
        rng, cfg = team.rng, self.cfg
        here = [m for m in team.members if m.alive and m.table_id and not m.away]
        if len(here) >= 2 and rng.random() < team.intensity:
            at = ms
            if rng.random() < cfg.sitout_planning_chat:
                a, b = rng.sample(here, 2)
                text = chat_lines.casual(
                    chat_lines.expand(rng.choice(influence_lines.SITOUT_PLAN), rng), rng
                )
                mid = self.out.chat(ms, a.pid, a.name, text, channel="private", recipient_id=b.pid)
                team.message_ids.append(mid)
                self.out.truth(
                    ms,
                    {
                        "message_id": mid,
                        "category": "coordinated_sit_out",
                        "accept": ["coordinated_sit_out"],
                        "optional": True,
                        "player_ids": sorted(team.ids),
                    },
                )
                at = ms + rng.randint(15_000, 60_000)
            span = rng.randint(60_000, 300_000)
            if team.tactic:  # the day's sit-out variety
                sitout_variety.episode(self, team, here, at, span)
            else:
                self._episode(
                    team,
                    here,
                    ("sit_out", "sit_in"),
                    (at, at + 3_000),
                    (at + span - 8_000, at + span + 8_000),
                )
        gap = cfg.sitout_opportunity_minutes * 60_000 * rng.uniform(0.6, 1.4)
        self.agenda.add(ms + int(gap), "team_sitout", team)

    def _seated(self) -> list[Player]:
        return [p for p in self.players if p.alive and p.table_id and not p.away]

    def _break_start(self, ms: int, span: tuple[int, int]) -> None:
        begin, end = span
        chosen = [p for p in self._seated() if self.rng.random() < self.cfg.break_sit_out_share]
        token = self._episode(
            "scheduled_break",
            chosen,
            ("sit_out", "sit_in"),
            (begin, begin + int(self.cfg.break_sit_out_spread_s * 1000)),
            (end - 30_000, end + 15_000),
        )
        self.agenda.add(end + 16_000, "report", (token, begin, end + 15_000))

    def _mass_drop(self, ms: int, _: None) -> None:
        if self.cfg.mass_drop_shapes:
            sitout_variety.mass_drop(self, ms)
            return
        chosen = [p for p in self._seated() if self.rng.random() < self.rng.uniform(0.3, 0.5)]
        token = self._episode(
            "mass_disconnect",
            chosen,
            ("disconnect", "reconnect"),
            (ms, ms + 6_000),
            (ms + 20_000, ms + 180_000),
        )
        self.agenda.add(ms + 181_000, "report", (token, ms, ms + 180_000))

    def _report(self, ms: int, info: tuple[int, int, int]) -> None:
        token, begin, end = info
        owner, _, fired = self.groups.pop(token)
        if fired:
            self.out.truth(
                ms,
                {
                    "hard_negative": owner,
                    "tournament_id": self.tournament_id,
                    "player_ids": sorted(fired),
                    "ts_from": fmt_ms(begin),
                    "ts_to": fmt_ms(end),
                },
            )

    def _channel_chat(self, ms: int, _: None) -> None:
        tourney_chat.channel_chat(self, ms)

    def _friend_chat(self, ms: int, pair: tuple[Player, Player]) -> None:
        key = (pair[0].pid, pair[1].pid)
        self.friend_messages.setdefault(key, []).extend(
            bounty_negatives.friend_chat(self, ms, pair)
        )

    def _bust_reaction(self, ms: int, subject: tuple[Player, str]) -> None:
        tourney_chat.bust_reactions(self, ms, subject[0], subject[1], self.rng)
