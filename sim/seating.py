"""Initial seating, table balancing and table breaking as players bust.

Balancing moves one player from the fullest table to the shortest when they differ by two, and
breaks the shortest table once the field fits on fewer tables.

Bounty teams: collusion needs the team at its target's table, so the simulator models the case
that matters, a team whose members happen to share a table (members of one team are dealt to the
same table). While they live, balancing never moves a member or the team's current target, and a
broken table sends the team and its target on together when one table has room. Real balancing
would split them sooner or later; a team split up cannot collude and is just honest players, so
keeping them together only saves simulating the hands where nothing is injected.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

from railbird.sim.players import Player
from railbird.sim.table import TableRun
from railbird.sim.teams import Team


def _is_hunter(player: Player) -> bool:
    team = player.team
    return isinstance(team, Team) and team.category == "bounty_collusion"


def balance(
    table: TableRun, tables: Sequence[TableRun], ms: int, pinned: Collection[str] = ()
) -> list[TableRun]:
    """Rebalance after a hand at `table`; returns the tables that received players.

    `pinned` are players balancing must not move (the teams' targets)."""
    active = [t for t in tables if t.seats]
    alive = sum(len(t.seats) for t in active)
    if table not in active or len(active) < 2:
        return []
    need = max(1, math.ceil(alive / table.size))
    smallest = min(active, key=lambda t: (len(t.seats), t.table_id))
    if len(active) > need and table is smallest:
        return _break(table, [t for t in active if t is not table], ms, pinned)
    if len(table.seats) - len(smallest.seats) >= 2:
        movable = [
            p for _, p in sorted(table.seats.items()) if not _is_hunter(p) and p.pid not in pinned
        ]
        if movable:
            _move(table, smallest, movable[0], ms)
            return [smallest]
    return []


def _move(src: TableRun, dst: TableRun, player: Player, ms: int) -> None:
    policy = src.policies.pop(player.pid, None)
    src.unseat(player, ms)
    dst.seat(player, dst.free_seats()[0], ms + 500, policy)


def _groups(players: list[Player], pinned: Collection[str]) -> list[list[Player]]:
    """Teams first, each with its target if the target sits here; then everyone else alone."""
    teams: dict[int, list[Player]] = {}
    for p in players:
        if _is_hunter(p):
            teams.setdefault(id(p.team), []).append(p)
    used: set[str] = set()
    groups: list[list[Player]] = []
    for members in teams.values():
        team = members[0].team
        target = next(
            (
                p
                for p in players
                if isinstance(team, Team) and p.pid == team.target and p.pid in pinned
            ),
            None,
        )
        group = sorted(members, key=lambda p: p.pid)
        if target is not None and target.pid not in used and not _is_hunter(target):
            group.append(target)
        used.update(p.pid for p in group)
        groups.append(group)
    groups.extend([p] for p in sorted(players, key=lambda p: p.pid) if p.pid not in used)
    return groups


def _break(
    table: TableRun, others: list[TableRun], ms: int, pinned: Collection[str]
) -> list[TableRun]:
    touched: list[TableRun] = []
    for group in _groups(list(table.seats.values()), pinned):
        roomy = sorted(others, key=lambda t: (-len(t.free_seats()), t.table_id))
        dst = roomy[0]
        if len(group) > 1:
            touched.extend(
                _make_room(dst, [t for t in roomy if t is not dst], len(group), ms, pinned)
            )
        for member in group:
            if not dst.free_seats():  # no room anywhere for the whole group
                dst = max(others, key=lambda t: len(t.free_seats()))
            _move(table, dst, member, ms)
            if dst not in touched:
                touched.append(dst)
    return touched


def _make_room(
    dst: TableRun, rest: list[TableRun], need: int, ms: int, pinned: Collection[str]
) -> list[TableRun]:
    """Move honest players from `dst` to other tables until `need` seats are free there: the
    floor keeps a team and its target together at the cost of moving someone else."""
    touched: list[TableRun] = []
    for _, player in sorted(dst.seats.items()):
        if len(dst.free_seats()) >= need:
            break
        if _is_hunter(player) or player.pid in pinned:
            continue
        spare = [t for t in rest if t.free_seats()]
        if not spare:
            break
        other = max(spare, key=lambda t: (len(t.free_seats()), t.table_id))
        _move(dst, other, player, ms)
        touched.append(other)
    return touched


def deal_seats(players: list[Player], n_tables: int, size: int) -> list[list[Player]]:
    """Spread players over tables; each bounty team starts at one table."""
    tables: list[list[Player]] = [[] for _ in range(n_tables)]
    teams: dict[int, list[Player]] = {}
    loose: list[Player] = []
    for p in players:
        if _is_hunter(p):
            teams.setdefault(id(p.team), []).append(p)
        else:
            loose.append(p)
    for k, group in enumerate(teams.values()):
        tables[(k * 3) % n_tables].extend(group)
    for p in loose:
        min(tables, key=len).append(p)
    return tables
