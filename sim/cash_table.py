"""A cash table over the day: players arrive, play a session, rebuy or leave; pairs may collude.

Chips are cents. Chip dumping and soft play live here because a cash table is where chips turn
into money; their pairs sit together for the whole window so the scheme has hands to work with.
Visitors planned for the whole day (`Visit`: hit-and-runners, short stayers, staged
exceptions) join, play their hands and leave; every leave, theirs or a regular's, is judged
against the house's refusal rule and its truth written (`_judge_leave`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from railbird.sim import cash_negatives
from railbird.sim.agenda import Agenda
from railbird.sim.cash_pairs import PairPolicy, PairScheme, pair_intensity
from railbird.sim.config import SimConfig
from railbird.sim.players import Player, new_player
from railbird.sim.positional_players import assign_family
from railbird.sim.stream import Ids, Item, Outbox, fmt_ms
from railbird.sim.table import TableRun
from railbird.sim.table_view import HandResult
from railbird.sim.teams import Team

MIN_HANDS = 10  # the house rule: leaving before this many hands (and after one) refuses
EXCLUDED_FORMATS = frozenset({"rush_and_cash", "all_in_or_fold"})
SEAT_RETRY_MS = 120_000  # a visitor finding the table full tries again this much later
SEAT_TRIES = 4
ALONE_PATIENCE_MS = 15 * 60_000  # a visitor dealt nothing for this long gives up


@dataclass(frozen=True, slots=True)
class Visit:
    """A planned visit: `pid` arrives at `arrive_ms` and leaves after `hands` hands.

    `mode`: "hit_and_run" (also leaves at once after winning a pot), "short_stay" (exactly
    `hands`), "into_sitters" (every other player sits out before the visitor leaves),
    "last_one" (the others all leave first: the table breaks up).
    """

    arrive_ms: int
    pid: str
    hands: int
    mode: str = "hit_and_run"


class CashRun:
    def __init__(
        self,
        cfg: SimConfig,
        ids: Ids,
        index: int,
        start_ms: int,
        end_ms: int,
        pairs: list[str],
        visits: list[Visit] | None = None,
        modes: list[str] | None = None,
    ) -> None:
        """`pairs`: the categories of the pairs seated here; `modes`: their modes (default:
        today's, "fold" and "heads_up"; see `sim.cash_pairs`)."""
        self.cfg, self.ids, self.end_ms = cfg, ids, end_ms
        self.out = Outbox(ids)
        table_id = ids.table()
        self.rng = rng = random.Random(f"{cfg.seed}:cash:{index}")
        self.agenda = Agenda(self.out, None, random.Random(f"{cfg.seed}:cash:{index}:a"))
        self.agenda.handlers.update(
            arrive=self._arrive,
            depart=self._depart,
            bust=self._depart,
            visit=self._visit,
            give_up=self._give_up,
            friend_chat=self._friend_chat,
        )
        self.bb = cash_big_blind(cfg, index)
        self.table_format = cash_table_format(cfg, index)
        # Visitors seated now: pid -> (their visit, the player).
        self.visitors: dict[str, tuple[Visit, Player]] = {}
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
        # A table that leaves the optional fields out is, by the contract, a ring game: one of
        # another format always names it (its level may still be left to the hands).
        self.table.extra = {"table_format": self.table_format}
        fields_rng = random.Random(f"{cfg.seed}:cash:{index}:fields")
        if fields_rng.random() >= cfg.cash_fields_missing_share:
            self.table.extra.update(small_blind=self.bb // 2, big_blind=self.bb)
        elif self.table_format == "ring":
            self.table.extra = {}
        self.teams: list[Team] = []
        self.schemes: list[PairScheme] = []
        for k, category in enumerate(pairs):
            members = [self._new_player() for _ in range(2)]
            team = Team(
                category,
                members,
                pair_intensity(cfg, index, k),
                None,
                random.Random(f"{cfg.seed}:cash:{index}:pair{k}"),
            )
            self.teams.append(team)
            default = "heads_up" if category == "soft_play" else "fold"
            scheme = PairScheme(
                modes[k] if modes else default,
                random.Random(f"{cfg.seed}:cash:{index}:pair{k}:mode"),
            )
            self.schemes.append(scheme)
            roles = ("soft", "soft") if category == "soft_play" else ("dumper", "receiver")
            for member, role in zip(members, roles, strict=True):
                member.team = team
                seat = self.table.free_seats()[0]
                self.table.seat(
                    member,
                    seat,
                    start_ms - rng.randint(1_000, 60_000),
                    PairPolicy(member, team, role, scheme),
                )
        self.shared_hands = [0] * len(self.teams)
        self.negative: cash_negatives.CashNegative | None = None
        if cfg.cash_hard_negatives:
            # One kind per table in turn, the turn shifted by the seed so that a day's pairs
            # (pair k sits at table k) do not always share a table with the same kind.
            kind = cash_negatives.KINDS[(index + cfg.seed) % len(cash_negatives.KINDS)]
            self.negative = cash_negatives.place(kind, cfg, self.table, self.bb, index, start_ms)
            if self.negative is not None and kind == "friends":
                self.agenda.add(
                    start_ms + self.negative.rng.randint(30_000, 120_000), "friend_chat", None
                )
        while len(self.table.seats) < cfg.cash_table_size - rng.randint(0, 1):
            self._sit(self._new_player(), start_ms - rng.randint(1_000, 300_000))
        self.table.railbirds = [
            new_player(ids.player(), rng)
            for _ in range(int(rng.random() < cfg.railbirds_per_table))
        ]
        for visit in visits or ():
            self.agenda.add(visit.arrive_ms, "visit", (visit, 0))

    def _friend_chat(self, ms: int, _: None) -> None:
        """Friends (a hard negative) chat in private every minute or few while both sit."""
        negative = self.negative
        if negative is not None and negative.chat(self.out, self.table, ms):
            self.agenda.add(ms + negative.rng.randint(40_000, 240_000), "friend_chat", None)

    def _new_player(self) -> Player:
        p = assign_family(new_player(self.ids.player(), self.rng), self.cfg)
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
        self._judge_leave(player, ms)
        player.alive = False
        self.table.policies.pop(player.pid, None)
        self.table.unseat(player, ms)
        if self.visitors.pop(player.pid, None) is None:  # a regular's seat is taken again
            self.agenda.add(ms + self.rng.randint(10_000, 300_000), "arrive", None)

    def _visit(self, ms: int, planned: tuple[Visit, int]) -> None:
        visit, tries = planned
        if visit.pid in self.visitors or ms > self.end_ms:
            return
        if not self.table.free_seats():
            if tries + 1 < SEAT_TRIES:
                self.agenda.add(ms + SEAT_RETRY_MS, "visit", (visit, tries + 1))
            return
        player = self._new_player_as(visit.pid)
        self.visitors[visit.pid] = (visit, player)
        self.table.seat(player, self.rng.choice(self.table.free_seats()), ms)
        self.agenda.add(ms + ALONE_PATIENCE_MS, "give_up", player)

    def _give_up(self, ms: int, player: Player) -> None:
        """A visitor still seated who has been dealt nothing: leaves (no hand, no refusal)."""
        if player.alive and self.table.session_hands.get(player.pid) == 0:
            self._leave(player, ms)

    def _new_player_as(self, pid: str) -> Player:
        p = assign_family(new_player(pid, self.rng), self.cfg)
        p.stack = self.bb * self.rng.choice((40, 60, 100))
        p.sitout_per_hour = 0.0  # a short visit: no breaks of its own
        return p

    def _visitors_after_hand(self, end: int, result: HandResult) -> None:
        """Visitors who have had their hands (or won a pot and run) leave before the next."""
        winners = {w["player_id"] for w in result.hand.get("winners", ())}
        for pid, (visit, player) in list(self.visitors.items()):
            if not player.alive or player.table_id is None:
                continue
            hands = self.table.session_hands.get(pid, 0)
            ran = visit.mode == "hit_and_run" and pid in winners and self.rng.random() < 0.6
            if hands < visit.hands and not ran:
                continue
            if visit.mode == "into_sitters":
                for other in self.table.seats.values():
                    if other is not player and not other.out_token:
                        token = next(self.agenda.tokens)
                        self.agenda.add(end + 300, "sit_out", other, token)
                        self.agenda.add(
                            end + self.rng.randint(60_000, 240_000), "sit_in", other, token
                        )
            elif visit.mode == "last_one":
                stay = {p.pid for p in self.negative.players} if self.negative else set()
                for other in list(self.table.seats.values()):
                    if other is not player and other.team is None and other.pid not in stay:
                        self.agenda.add(end + 300, "depart", other)
            self.agenda.add(end + self.rng.randint(800, 2_000), "depart", player)
            self.visitors[pid] = (visit, player)  # still seated until the depart fires

    def _judge_leave(self, player: Player, ms: int) -> None:
        """The house rule, applied by the simulator from what it knows: truth for a refusal,
        a hard negative for a short stay the rule excuses (or one just long enough)."""
        table = self.table
        hands = table.session_hands.get(player.pid, 0)
        visit = self.visitors.get(player.pid)
        base = {
            "player_id": player.pid,
            "table_id": table.table_id,
            "ts": fmt_ms(ms),
            "hands_played": hands,
            "blind_level": f"{self.bb // 2}/{self.bb}",
            "table_format": self.table_format,
            "visit": None if visit is None else visit[0].mode,
        }
        if hands >= MIN_HANDS:
            if visit is not None and self.cfg.hard_negatives:
                self.out.truth(ms, {"hard_negative": "stayed_ten_hands", **base})
            return
        if hands == 0:
            return
        others = [p for p in table.seats.values() if p is not player]
        excuse = None
        if self.table_format in EXCLUDED_FORMATS:
            excuse = self.table_format
        elif not others:
            excuse = "alone"
        elif all(p.out_token for p in others):
            excuse = "others_sitting_out"
        if excuse is not None:
            if self.cfg.hard_negatives:
                self.out.truth(ms, {"hard_negative": "refusal_excused", "excuse": excuse, **base})
            return
        record = {"category": "refusal_to_play", "accept": ["refusal_to_play"], **base}
        self.out.truth(ms, record)

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
        last = max(table.last_ended, table.clock)
        for team, scheme, shared in zip(self.teams, self.schemes, self.shared_hands, strict=True):
            record = team.truth()
            record["first_violation_ts"] = fmt_ms(team.first_ms) if team.first_ms else None
            record["table_id"] = table.table_id
            record["mode"] = scheme.mode
            if team.category == "chip_dumping":  # seated and given their roles in this order
                record["donor"], record["receiver"] = (m.pid for m in team.members)
            record["mode_acts"] = scheme.mode_acts(team.hand_ids)
            record["shared_hands"] = shared
            out.truth(last, record)
        if self.negative is not None:
            out.truth(last, self.negative.truth(table.table_id))
        yield from out.drain()

    def _step(self) -> None:
        table = self.table
        result = table.play(self.bb // 2, self.bb, 0)
        if result is None:
            table.clock += 10_000
            return
        end = table.last_ended
        dealt = {s["player_id"] for s in result.hand["seats"]}
        for k, team in enumerate(self.teams):
            self.shared_hands[k] += team.ids <= dealt
        if self.negative is not None:
            self.negative.observe(result)
            self.negative.refill(table, self.bb, end)
        for p in list(table.seats.values()):
            if p.stack > 0:
                continue
            if p.team is not None or (p.pid not in self.visitors and self.rng.random() < 0.6):
                p.stack = self.bb * 100  # rebuy between hands
            else:
                # Leaves before the next hand (the agenda fires first): judged as it leaves.
                self.agenda.add(end + self.rng.randint(500, 2_000), "bust", p)
        self._visitors_after_hand(end, result)


def cash_big_blind(cfg: SimConfig, index: int) -> int:
    blinds = cfg.cash_big_blinds
    return blinds[index % len(blinds)] if blinds else cfg.cash_big_blind


def cash_table_format(cfg: SimConfig, index: int) -> str:
    formats = cfg.cash_table_formats
    return formats[index % len(formats)] if formats else "ring"
