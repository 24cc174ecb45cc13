"""Sit-out teams that go away in other ways, and honest crowds of other shapes.

The default sit-out team sits out within 3 s of its signal and sits back in together, and the
default hard negatives are a break where a third of the field sits out within 25 s and one
burst of disconnects: a detector tuned on those alone learns the simulator, not the phenomenon
(two or more players agreeing to be away at the same time, again and again). These options,
all off by default so that existing days stay byte-identical, vary each side:
- a team's lag (members' onsets spread over up to `lag` seconds), its way of going away
  (`sit_out`, `disconnect`, `timeout` then the site's sit-out, or a mix per member), whether
  members come back together, and how often its members also sit out alone;
- mass disconnects as a rolling wave across tables over a minute or two, or one table's
  players dropping together, again and again at the same table (the same players each time);
- breaks whose sit-outs drift in over a few minutes.
The team's style is kept in `Team.tactic` ("disconnect:15s") and written to its truth record
as `sitout_style`, so the evaluation can report recall per kind and lag.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from railbird.sim.config import SimConfig
from railbird.sim.players import Player
from railbird.sim.teams import Team

if TYPE_CHECKING:
    from railbird.sim.tournament import TournamentRun

AWAY_KINDS = ("sit_out", "disconnect", "timeout", "mixed")
MASS_SHAPES = ("burst", "rolling", "table")
_RETURN = {"sit_out": "sit_in", "disconnect": "reconnect"}


def style_team(team: Team, nth: int, cfg: SimConfig) -> None:
    """Give sit-out team `nth` its away kind and lag (only when the day asks for variety)."""
    if not (cfg.sitout_away or cfg.sitout_lags_s):
        return
    kind = cfg.sitout_away[nth % len(cfg.sitout_away)] if cfg.sitout_away else "sit_out"
    if kind not in AWAY_KINDS:
        raise ValueError(f"sitout_away: {kind!r} is not one of {AWAY_KINDS}")
    lag = cfg.sitout_lags_s[nth % len(cfg.sitout_lags_s)] if cfg.sitout_lags_s else 3.0
    team.tactic = f"{kind}:{lag:g}s"
    if cfg.sitout_member_lone_per_hour is not None:
        for m in team.members:
            m.sitout_per_hour = cfg.sitout_member_lone_per_hour


def style_of(team: Team) -> tuple[str, float]:
    kind, lag = team.tactic.split(":")
    return kind, float(lag.removesuffix("s"))


def episode(run: TournamentRun, team: Team, here: list[Player], at: int, span: int) -> None:
    """One coordinated absence in the team's style: each member goes away within `lag` of
    `at`, by its kind, and comes back around `at + span` (or on its own, if the day says)."""
    kind, lag = style_of(team)
    rng = team.rng
    token = next(run.tokens)
    run.groups[token] = [team, 0, []]
    handlers = run.agenda.handlers
    if "sitout_timeout" not in handlers:
        handlers["sitout_timeout"] = lambda ms, info: _timeout(run, ms, info)
    for m in here:
        how = rng.choice(AWAY_KINDS[:3]) if kind == "mixed" else kind
        onset = at + rng.randint(0, max(0, int(lag * 1000)))
        back = (
            onset + rng.randint(60_000, 300_000)
            if run.cfg.sitout_independent_returns
            else at + span + rng.randint(-8_000, 8_000)
        )
        back = max(back, onset + 20_000)
        if how == "timeout":  # away from the keyboard: timed out, then sat out by the site
            run.agenda.add(onset, "sitout_timeout", (m, token, back))
            continue
        run.agenda.add(onset, how, m, token)
        run.agenda.add(back, _RETURN[how], m, token)


def _timeout(run: TournamentRun, ms: int, info: tuple[Player, int, int]) -> None:
    player, token, back = info
    if not player.alive or player.table_id is None or player.away:
        return
    run.out.table(ms, player.table_id, run.tournament_id, "timeout", player.pid, player.seat)
    site = ms + player_rng(run, player).randint(5_000, 60_000)  # after the hand it timed out in
    run.agenda.add(site, "sit_out", player, token)
    run.agenda.add(max(back, site + 20_000), "sit_in", player, token)


def player_rng(run: TournamentRun, player: Player) -> random.Random:
    team = player.team
    return team.rng if isinstance(team, Team) else run.rng


def mass_drop(run: TournamentRun, ms: int) -> None:
    """A network incident of one of the day's shapes (see `MASS_SHAPES`)."""
    rng = random.Random(f"{run.cfg.seed}:{run.tournament_id}:drop{ms}")
    shape = rng.choice(run.cfg.mass_drop_shapes)
    if shape not in MASS_SHAPES:
        raise ValueError(f"mass_drop_shapes: {shape!r} is not one of {MASS_SHAPES}")
    seated = [p for p in run.players if p.alive and p.table_id and not p.away]
    if shape == "burst":
        chosen = [p for p in seated if rng.random() < rng.uniform(0.3, 0.5)]
        _drop(run, "mass_disconnect", ms, [(p, ms + rng.randint(0, 6_000)) for p in chosen], rng)
    elif shape == "rolling":  # table after table over one to three minutes
        tables = sorted({p.table_id for p in seated if p.table_id})
        length = rng.randint(60_000, 180_000)
        offset = {t: ms + length * k // max(1, len(tables)) for k, t in enumerate(tables)}
        share = rng.uniform(0.15, 0.35)
        hit = [
            (p, offset[p.table_id] + rng.randint(0, 10_000))
            for p in seated
            if p.table_id and rng.random() < share
        ]
        _drop(run, "mass_disconnect_rolling", ms, hit, rng)
    else:  # one table's server hiccups, several times; the same players drop each time
        tables = sorted({p.table_id for p in seated if p.table_id})
        if not tables:
            return
        table_id = rng.choice(tables)
        at = ms
        for _ in range(rng.randint(2, 4)):
            at += rng.randint(300_000, 1_200_000)
            run.agenda.add(at, "sitout_table_drop", table_id)
        run.agenda.handlers.setdefault(
            "sitout_table_drop", lambda when, tid: _table_drop(run, when, tid)
        )
        _table_drop(run, ms, table_id)


def _table_drop(run: TournamentRun, ms: int, table_id: str) -> None:
    rng = random.Random(f"{run.cfg.seed}:{run.tournament_id}:tdrop{ms}")
    here = [p for p in run.players if p.alive and p.table_id == table_id and not p.away]
    _drop(run, "table_drop", ms, [(p, ms + rng.randint(0, 3_000)) for p in here], rng)


def _drop(
    run: TournamentRun, owner: str, ms: int, who: list[tuple[Player, int]], rng: random.Random
) -> None:
    if not who:
        return
    token = next(run.tokens)
    run.groups[token] = [owner, 0, []]
    last = ms
    for p, at in who:
        back = at + rng.randint(20_000, 150_000)
        last = max(last, back)
        run.agenda.add(at, "disconnect", p, token)
        run.agenda.add(back, "reconnect", p, token)
    run.agenda.add(last + 1_000, "report", (token, ms, last))
