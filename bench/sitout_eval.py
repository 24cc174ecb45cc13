"""Quality of the coordinated sit-out detector on simulated tournament days, per kind of team.

Usage:
    .venv/bin/python -m bench.sitout_eval --seeds 41 42 43 44 --variety --cache /tmp/sitout

The days are `bench.collusion_eval`'s (same configuration, cache and scoring: recall over the
sit-out teams, precision over the flags, hard-negative flags), streamed through the pipeline
with the sit-out detector alone, so a run costs the simulator and not the bounty model.
`--variety` adds the simulator's sit-out variety (`SITOUT_VARIETY`: four teams per tournament
going away by sitting out, disconnecting, timing out or a mix, with lags of 2, 10 or 25 s,
members who also sit out alone, rolling and one-table disconnect waves, drifting breaks).
On top of the headline rows it prints recall by away kind and by lag, and flags on each kind
of hard negative (breaks, disconnect bursts, rolling waves, one table's drops).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bench.collusion_eval import DRAWN, Totals, _config, _records, report, score_day
from railbird.detectors.events import event_from_dict
from railbird.detectors.registry import build_detectors
from railbird.rules.pipeline import Pipeline
from railbird.sim.config import SimConfig

SITOUT_AWAY = ("sit_out", "disconnect", "timeout", "mixed")
SITOUT_LAGS = (2.0, 10.0, 25.0)
# Team k goes away by SITOUT_AWAY[k % 4] with lag SITOUT_LAGS[k % 3]: a few days cover every
# combination. Members also sit out alone about once an hour and come back on their own.
SITOUT_VARIETY: dict[str, Any] = {
    "sitout_teams_per_tournament": 4,
    "sitout_away": SITOUT_AWAY,
    "sitout_lags_s": SITOUT_LAGS,
    "sitout_member_lone_per_hour": 1.0,
    "sitout_independent_returns": True,
    "mass_drop_shapes": ("burst", "rolling", "table"),
    "mass_disconnects_per_tournament": 2,
    "break_sit_out_spread_s": 150.0,
}
_NAME = "coordinated_sit_out"


def day_config(seed: int, intensities: tuple[float, ...], args: argparse.Namespace) -> SimConfig:
    cfg = _config(seed, intensities, args)
    return dataclasses.replace(cfg, **SITOUT_VARIETY) if args.variety else cfg


def run_day(job: tuple[int, tuple[float, ...], argparse.Namespace]) -> dict[str, Any]:
    seed, intensities, args = job
    cfg = day_config(seed, intensities, args)
    cache = Path(args.cache) / ("variety" if args.variety else "default") if args.cache else None
    pipeline = Pipeline(build_detectors(only={_NAME}))
    flags: dict[str, dict[str, Any]] = {}
    truth: list[dict[str, Any]] = []
    for kind, record in _records(cfg, cache):
        if kind == "truth":
            truth.append(record)
            continue
        for flag in pipeline.process(event_from_dict(record)).flags:
            flags[flag.flag_id] = flag.to_dict()
    return {
        "flags": list(flags.values()),
        "truth": truth,
        "events": 0,
        "seconds": 0.0,
        "hand_times": {},
        "players": args.players * args.tournaments,
        "drawn": cfg.team_intensity_range is not None,
        "day": f"seed={seed} intensities={','.join(str(i) for i in intensities)}",
    }


@dataclasses.dataclass
class Breakdown:
    teams: Counter[str] = dataclasses.field(default_factory=Counter)
    found: Counter[str] = dataclasses.field(default_factory=Counter)
    hard: Counter[str] = dataclasses.field(default_factory=Counter)  # hard negatives by kind
    hard_flags: Counter[str] = dataclasses.field(default_factory=Counter)
    misses: list[str] = dataclasses.field(default_factory=list)


def break_down(day: dict[str, Any], out: Breakdown) -> None:
    """Recall per away kind, lag and team size (teams found from play: >= 2 members in a flag
    that is not a planning message alone); flags on each kind of crowd."""
    flags = [
        f
        for f in day["flags"]
        if f["category"] == _NAME and not f["evidence"]["kind"].endswith("planning_chat")
    ]
    for team in day["truth"]:
        if team.get("category") != _NAME or "message_id" in team or team.get("optional"):
            continue
        members = set(team["player_ids"])
        kind, lag = team.get("sitout_style", "sit_out:3s").split(":")
        found = any(len(members & set(f["player_ids"])) >= 2 for f in flags)
        for key in (f"kind={kind}", f"lag={lag}", f"size={len(members)}", "all"):
            out.teams[key] += 1
            out.found[key] += found
        if not found:
            out.misses.append(
                f"{day['day']} {team['tournament_id']} {','.join(sorted(members))} "
                f"{kind}:{lag} acts={team['acts']} intensity={team['intensity']}"
            )
    team_players = {
        p for t in day["truth"] if t.get("category") == _NAME for p in t.get("player_ids", ())
    }
    for hard in day["truth"]:
        name = hard.get("hard_negative")
        if name not in (
            "scheduled_break",
            "mass_disconnect",
            "mass_disconnect_rolling",
            "table_drop",
        ):
            continue
        out.hard[name] += 1
        crowd = set(hard["player_ids"])
        out.hard_flags[name] += sum(
            1
            for f in flags
            if len(set(f["player_ids"]) & crowd - team_players) >= 2
            and not set(f["player_ids"]) <= team_players
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, nargs="+", default=[41, 42, 43, 44])
    parser.add_argument("--intensities", type=float, nargs="+", default=[0.85, 0.4])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--tournaments", type=int, default=2)
    parser.add_argument("--hours", type=float, default=3.0)
    parser.add_argument("--jobs", type=int, default=2, help="days simulated in parallel")
    parser.add_argument("--cache", help="directory keeping simulated days between runs")
    parser.add_argument("--variety", action="store_true", help="the simulator's sit-out variety")
    parser.add_argument("--wild", action="store_true", help="collusion_eval's --wild days")
    parser.add_argument("--misses", action="store_true", help="list the teams not found")
    parser.add_argument("--json", action="store_true", help="print one JSON object per line")
    args = parser.parse_args()
    args.tactics, args.positional_share = [], 0.0  # what collusion_eval's days also read
    order = (DRAWN,) if args.wild else tuple(args.intensities)
    rotations = [order[k:] + order[:k] for k in range(len(order))]
    jobs = [(seed, rot, args) for seed in args.seeds for rot in rotations]
    totals, parts = Totals(), Breakdown()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for day in pool.map(run_day, jobs):
            score_day(day, totals)
            break_down(day, parts)
    rows: list[dict[str, Any]] = [r for r in report(totals, args.seeds) if r["category"] == _NAME]
    for key in sorted(parts.teams):
        n = parts.teams[key]
        rows.append(
            {
                "teams": key,
                "n": n,
                "found": parts.found[key],
                "recall": round(parts.found[key] / n, 3),
            }
        )
    for name in sorted(parts.hard):
        rows.append(
            {"hard_negative": name, "episodes": parts.hard[name], "flags": parts.hard_flags[name]}
        )
    for row in rows:
        print(json.dumps(row) if args.json else "  ".join(f"{k}={v}" for k, v in row.items()))
    if args.misses:
        print("\n".join(f"missed: {m}" for m in parts.misses))


if __name__ == "__main__":
    main()
