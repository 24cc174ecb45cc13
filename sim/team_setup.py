"""Forming colluding teams and choosing a bounty team's target.

A bounty team hunts one player at its table: preferably the shortest stack its members cover,
which is also what honest bounty hunters chase, so the target alone proves nothing. Only teams
whose members share a table can collude, so those are the teams simulated (see `sim.seating`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from railbird.sim import influence_lines, sitout_variety, violations
from railbird.sim.players import Style
from railbird.sim.table import TableRun
from railbird.sim.teams import Team

if TYPE_CHECKING:
    from railbird.sim.tournament import TournamentRun


def make_teams(run: TournamentRun, bounty: bool) -> list[Team]:
    """Draw the colluding teams from the field; members are never toxic chatters too."""
    cfg, rng = run.cfg, run.rng
    pool = list(run.players)
    rng.shuffle(pool)
    teams: list[Team] = []
    cap = max(1, len(pool) // 60)  # at most one bounty team per 60 entrants
    plan = [
        ("bounty_collusion", min(cfg.bounty_teams_per_tournament, cap) if bounty else 0),
        ("coordinated_sit_out", cfg.sitout_teams_per_tournament),
    ]
    for category, count in plan:
        for k in range(count):
            size = rng.randint(cfg.team_size_min, cfg.team_size_max)
            if len(pool) < size + 2:
                break
            members = [pool.pop() for _ in range(size)]
            team = Team(
                category,
                members,
                cfg.intensity(k, rng),
                run.tournament_id,
                random.Random(f"{cfg.seed}:{run.tournament_id}:team{len(teams)}"),
            )
            for m in members:
                m.team, m.toxic = team, False
            if category == "coordinated_sit_out":
                sitout_variety.style_team(team, k, cfg)
            if category == "bounty_collusion" and cfg.bounty_tactics:
                team.tactic = cfg.bounty_tactics[k % len(cfg.bounty_tactics)]
                team.tactics = tuple(team.tactic.split("+"))
            if category == "bounty_collusion" and cfg.open_planning_chat:
                talk = random.Random(f"{cfg.seed}:{run.tournament_id}:plan{k}")
                team.plan_chat = talk.choice((0.0, 0.0, 0.25, 0.5))  # only some teams talk
                team.open_wording = True
            if category == "bounty_collusion":  # organised teams are competent regulars
                for m in members:
                    m.style = Style(
                        vpip=rng.uniform(0.16, 0.24),
                        pfr=0.7,
                        aggression=0.6,
                        bluff=0.05,
                        station=0.05,
                        checkdown_dry=0.9,
                        misclick=0.0,
                    )
                    m.sitout_per_hour = min(m.sitout_per_hour, 0.3)
                    m.timeout_per_hand = 0.0
            teams.append(team)
    return teams


def retarget(run: TournamentRun, team: Team, table: TableRun) -> None:
    """Give a bounty team a covered target at its table, announcing it in private sometimes."""
    here = [m for m in team.members if m.alive and m.table_id == table.table_id]
    if len(here) < 2:
        if not any(m.alive and m.table_id == table.table_id for m in team.members):
            return
        team.target = None
        return
    seated = {p.pid: p for p in table.seats.values()}
    if team.target in seated:
        return
    others = [p for p in seated.values() if p.team is not team]
    if not others:
        team.target = None
        return
    cover = max(m.stack for m in here)
    covered = [p for p in others if p.stack <= cover] or others
    rng = team.rng
    if rng.random() >= 0.6:
        pick = rng.choice(covered)
    elif run.cfg.progressive_bounty:  # the biggest head is the motive, the stack second
        pick = min(covered, key=lambda p: (-(p.bounty or 0), p.stack, p.pid))
    else:
        pick = min(covered, key=lambda p: (p.stack, p.pid))
    team.target = pick.pid
    if rng.random() < team.plan_chat:
        a, b = rng.sample(here, 2)
        ms = table.last_ended + rng.randint(500, 6_000)
        if team.open_wording:  # open wording (see `influence_lines.open_plan_line`)
            text = influence_lines.open_plan_line(rng, pick.name)
        else:
            text = influence_lines.in_hand_line(rng, influence_lines.BOUNTY_PLAN, pick.name, None)
        mid = run.out.chat(ms, a.pid, a.name, text, channel="private", recipient_id=b.pid)
        team.message_ids.append(mid)
        violations.label(
            table,
            ms,
            mid,
            "bounty_collusion",
            player_ids=sorted(team.ids),
            tournament_id=run.tournament_id,
            target=pick.pid,
        )


# -- agenda handlers ----------------------------------------------------------------------
