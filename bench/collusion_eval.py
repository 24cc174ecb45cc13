"""Quality of the group-collusion detectors on simulated tournament days.

Usage:
    .venv/bin/python -m bench.collusion_eval --seeds 11 12 13 14 --intensities 0.85 0.4

Each seed gives one simulated day per rotation of `--intensities` (teams take them in turn via
`SimConfig.team_intensities`, so with two intensities every seed yields two days and each
category meets both). Days run in parallel (`--jobs`), are streamed through the real pipeline
with the collusion detectors only, and are scored against the truth per category and per team
intensity: precision (flags naming >= 2 members of a true team, or a true planning message),
recall (non-optional team records found), false flags per 1,000 honest players, flags touching
hard negatives, target accuracy and detection delay (minutes and the team's acting hands).
`--cache DIR` keeps each simulated day as JSON Lines and re-reads it next time, so tuning the
detectors does not pay for the simulator again. Tune on seeds 1-3; report held-out seeds only.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from railbird.detectors.events import event_from_dict
from railbird.detectors.registry import build_detectors
from railbird.rules.pipeline import Pipeline
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate, write_simulation
from railbird.sim.teams import TACTICS

CATEGORIES = ("coordinated_sit_out", "bounty_collusion")
DETECTORS = set(CATEGORIES)

SHARED_HANDS = 30  # a bounty team counts in the headline recall once it shared this many hands
# with its target (sit-out teams, without hands, always count)


@dataclass
class Score:
    flags: int = 0
    true_flags: int = 0
    teams: int = 0
    found: int = 0
    found_by_play: int = 0
    optional_found: int = 0
    # teams that shared >= SHARED_HANDS hands with their target (the denominator)
    eligible: int = 0
    eligible_found: int = 0
    delays_min: list[float] = field(default_factory=list)
    delays_hands: list[int] = field(default_factory=list)
    target_right: int = 0
    target_checked: int = 0


@dataclass
class Totals:
    by_key: dict[tuple[str, float], Score] = field(default_factory=dict)  # (category, intensity)
    false_flags: dict[str, int] = field(default_factory=dict)
    false_players: dict[str, set[str]] = field(default_factory=dict)
    hard_negative_flags: dict[str, int] = field(default_factory=dict)
    honest_players: int = 0
    missed: list[str] = field(default_factory=list)  # teams not found by play, for `--misses`
    # Bounty teams that shared SHARED_HANDS+ hands with their target: (tactic, deviating
    # moves, hands shared with the target, found by play), for `--surface`.
    cells: list[tuple[str, int, int, bool]] = field(default_factory=list)
    events: int = 0
    seconds: float = 0.0

    def score(self, category: str, intensity: float) -> Score:
        return self.by_key.setdefault((category, intensity), Score())


# `--wild`: everything the tuning days lacked at once. Intensity drawn per team, progressive
# knockouts, honest hunters and chatty friends as hard negatives, open planning wording.
WILD: dict[str, Any] = {
    "team_intensity_range": (0.3, 0.9),
    "progressive_bounty": True,
    "bounty_hunters_per_table": 1.0,
    "friend_pairs_per_tournament": 3,
    "open_planning_chat": True,
}
DRAWN = -1.0  # the intensity key of teams whose intensity was drawn from a range


def _level(team: dict[str, Any], day: dict[str, Any]) -> float:
    return DRAWN if day["drawn"] else float(team["intensity"])


def _tactics(value: str) -> str:
    if any(part not in TACTICS for part in value.split("+")):
        raise argparse.ArgumentTypeError(f"{value!r}: tactics are {', '.join(TACTICS)}, or a+b")
    return value


def _ts(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def _config(seed: int, intensities: tuple[float, ...], args: argparse.Namespace) -> SimConfig:
    return SimConfig(
        seed=seed,
        tournaments=args.tournaments,
        cash_tables=0,
        hours=args.hours,
        players_per_tournament=args.players,
        bounty_share=1.0,
        team_intensities=intensities,
        bounty_tactics=tuple(args.tactics),
        positional_share=args.positional_share,
        **(WILD if args.wild else {}),
    )


def _records(cfg: SimConfig, cache: Path | None) -> Iterator[tuple[str, dict[str, Any]]]:
    if cache is None:
        yield from simulate(cfg)
        return
    tag = ",".join(str(i) for i in cfg.team_intensities)
    if cfg.bounty_tactics:
        tag += "_" + ",".join(cfg.bounty_tactics)
    if cfg.team_intensity_range is not None:
        tag += "_wild"
    if cfg.positional_share:
        tag += f"_pos{cfg.positional_share:g}"
    stem = cache / f"s{cfg.seed}_{tag}_{cfg.hours}_{cfg.players_per_tournament}x{cfg.tournaments}"
    events, truth = stem.with_suffix(".events.jsonl"), stem.with_suffix(".truth.jsonl")
    if not (events.exists() and truth.exists()):
        cache.mkdir(parents=True, exist_ok=True)
        write_simulation(cfg, events, truth)
    with truth.open("rb") as fh:
        for line in fh:
            yield "truth", orjson.loads(line)
    with events.open("rb") as fh:
        for line in fh:
            yield "event", orjson.loads(line)


def run_day(job: tuple[int, tuple[float, ...], argparse.Namespace]) -> dict[str, Any]:
    """Simulate (or re-read) one day and scan it; flags come back as plain dicts."""
    seed, intensities, args = job
    cfg = _config(seed, intensities, args)
    settings = {"bounty_collusion": {"model_dir": args.model}} if args.model else {}
    pipeline = Pipeline(build_detectors(overrides=settings, only=DETECTORS))
    flags: dict[str, dict[str, Any]] = {}
    truth: list[dict[str, Any]] = []
    hand_times: dict[str, datetime] = {}
    events = 0
    seconds = 0.0
    for kind, record in _records(cfg, Path(args.cache) if args.cache else None):
        if kind == "truth":
            truth.append(record)
            continue
        events += 1
        event = event_from_dict(record)
        began = time.perf_counter()
        for flag in pipeline.process(event).flags:
            flags[flag.flag_id] = flag.to_dict()  # a re-emitted id (severity rose): latest form
        seconds += time.perf_counter() - began
        if record["type"] == "hand":
            hand_times[record["hand_id"]] = event.time
    team_hands = {h for t in truth for h in t.get("hand_ids", ())}
    return {
        "flags": list(flags.values()),
        "truth": truth,
        "events": events,
        "seconds": seconds,
        "hand_times": {h: ts for h, ts in hand_times.items() if h in team_hands},
        "players": args.players * args.tournaments,
        "drawn": cfg.team_intensity_range is not None,
        "day": f"seed={seed} intensities={','.join(str(i) for i in intensities)}",
    }


def score_day(day: dict[str, Any], totals: Totals) -> None:
    truth = day["truth"]
    teams = [t for t in truth if t.get("category") in CATEGORIES and "message_id" not in t]
    messages = {t["message_id"]: t for t in truth if "message_id" in t}
    hard = [t for t in truth if "hard_negative" in t]
    team_players = {p for t in teams for p in t["player_ids"]}
    totals.honest_players += day["players"] - len(team_players)
    first_flag: dict[int, datetime] = {}
    first_play: dict[int, datetime] = {}  # flags from play, not planning chat alone
    for flag in day["flags"]:
        cat = flag["category"]
        if cat not in CATEGORIES:
            continue
        players = set(flag["player_ids"])
        kind = flag["evidence"]["kind"]
        ts = _ts(flag["ts"])
        hits = [
            k
            for k, team in enumerate(teams)
            if team["category"] == cat and len(players & set(team["player_ids"])) >= 2
        ]
        for k in hits:
            first_flag[k] = min(first_flag.get(k, ts), ts)
            if not kind.endswith("planning_chat"):
                first_play[k] = min(first_play.get(k, ts), ts)
        planned = [messages[m] for m in flag.get("message_ids", ()) if m in messages]
        planned = [m for m in planned if m.get("category") == cat]
        intensity = _level(teams[hits[0]], day) if hits else None
        if intensity is None and planned:
            owners = [t for t in teams if set(planned[0]["player_ids"]) <= set(t["player_ids"])]
            intensity = _level(owners[0], day) if owners else -2.0
        if intensity is None:
            totals.false_flags[cat] = totals.false_flags.get(cat, 0) + 1
            totals.false_players.setdefault(cat, set()).update(players - team_players)
            if any(players <= set(h.get("player_ids", ())) for h in hard):
                totals.hard_negative_flags[cat] = totals.hard_negative_flags.get(cat, 0) + 1
            continue
        s = totals.score(cat, intensity)
        s.flags += 1
        s.true_flags += 1
        if hits and kind == "play_against_model":
            team = teams[hits[0]]
            s.target_checked += 1
            wanted = set(team.get("targets") or [team.get("target")])
            s.target_right += flag["evidence"].get("target") in wanted
    for k, team in enumerate(teams):
        s = totals.score(team["category"], _level(team, day))
        if team.get("optional"):
            s.optional_found += k in first_flag
            continue
        s.teams += 1
        s.found += k in first_flag
        eligible = team.get("target_hands", SHARED_HANDS) >= SHARED_HANDS
        s.eligible += eligible
        s.eligible_found += eligible and k in first_play
        if eligible and team["category"] == "bounty_collusion":
            totals.cells.append(
                (
                    str(team.get("tactic", "")),
                    int(team.get("moves", -1)),
                    int(team.get("target_hands", 0)),
                    k in first_play,
                )
            )
        if k not in first_play:
            totals.missed.append(
                f"{day['day']} {team['category']} intensity={team['intensity']} "
                f"{team.get('tactic', '')} "
                f"{team.get('tournament_id')} players={','.join(team['player_ids'])} "
                f"target={team.get('target')} shared_hands={team.get('target_hands')} "
                f"moves={team.get('moves')} "
                f"by_chat={k in first_flag}"
            )
            continue
        s.found_by_play += 1
        if team.get("first_violation_ts"):
            delay = first_play[k] - _ts(team["first_violation_ts"])
            s.delays_min.append(delay.total_seconds() / 60)
        times = [day["hand_times"][h] for h in team.get("hand_ids", ()) if h in day["hand_times"]]
        if times:
            s.delays_hands.append(sum(t <= first_play[k] for t in times))


def _median(values: list[float] | list[int]) -> float | None:
    return round(float(sorted(values)[len(values) // 2]), 1) if values else None


MOVES_BUCKETS = ((0, 15), (15, 30), (30, 60), (60, 10**9))
SHARED_BUCKETS = ((30, 60), (60, 120), (120, 10**9))


def _bucket(value: int, buckets: tuple[tuple[int, int], ...]) -> str:
    for low, high in buckets:
        if low <= value < high:
            return f"{low}-{high - 1}" if high < 10**9 else f"{low}+"
    return "?"


def surface(totals: Totals) -> list[str]:
    """Recall by play per tactic, then over deviating moves x hands shared with the target:
    how much a team must do, and for how long, before it is found."""
    lines = ["| tactic | teams | found by play | recall |", "|---|---|---|---|"]
    tactics = sorted({c[0] for c in totals.cells})
    for tactic in tactics:
        cells = [c for c in totals.cells if c[0] == tactic]
        found = sum(c[3] for c in cells)
        lines.append(f"| {tactic or '-'} | {len(cells)} | {found} | {found / len(cells):.2f} |")
    found = sum(c[3] for c in totals.cells)
    if totals.cells:
        lines.append(f"| all | {len(totals.cells)} | {found} | {found / len(totals.cells):.2f} |")
    lines += ["", "| deviating moves \\ hands shared with the target | "
              + " | ".join(_bucket(b[0], SHARED_BUCKETS) for b in SHARED_BUCKETS) + " |",
              "|---|" + "---|" * len(SHARED_BUCKETS)]  # fmt: skip
    for moves in MOVES_BUCKETS:
        row = [_bucket(moves[0], MOVES_BUCKETS)]
        for shared in SHARED_BUCKETS:
            cells = [
                c
                for c in totals.cells
                if moves[0] <= c[1] < moves[1] and shared[0] <= c[2] < shared[1]
            ]
            row.append(f"{sum(c[3] for c in cells)}/{len(cells)}" if cells else "-")
        lines.append("| " + " | ".join(row) + " |")
    return lines


def report(totals: Totals, seeds: list[int]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for (cat, intensity), s in sorted(totals.by_key.items(), key=lambda kv: (kv[0][0], -kv[0][1])):
        false = totals.false_flags.get(cat, 0)
        rows.append(
            {
                "category": cat,
                "intensity": intensity,
                "seeds": seeds,
                "true_flags": s.true_flags,
                "recall": round(s.found / s.teams, 3) if s.teams else None,
                "teams": s.teams,
                "teams_found": s.found,
                "found_by_play": s.found_by_play,
                f"recall_by_play_{SHARED_HANDS}_shared": round(s.eligible_found / s.eligible, 3)
                if s.eligible
                else None,
                f"teams_{SHARED_HANDS}_shared": s.eligible,
                "optional_teams_found": s.optional_found,
                "target_accuracy": round(s.target_right / s.target_checked, 3)
                if s.target_checked
                else None,
                "median_delay_min": _median(s.delays_min),
                "median_delay_team_hands": _median(s.delays_hands),
                "category_false_flags": false,
            }
        )
    for cat in CATEGORIES:
        true = sum(s.true_flags for (c, _), s in totals.by_key.items() if c == cat)
        false = totals.false_flags.get(cat, 0)
        rows.append(
            {
                "category": cat,
                "flags": true + false,
                "precision": round(true / (true + false), 3) if true + false else None,
                "false_flags_per_1000_honest": round(
                    1000 * len(totals.false_players.get(cat, set())) / totals.honest_players, 3
                ),
                "hard_negative_flags": totals.hard_negative_flags.get(cat, 0),
                "honest_players": totals.honest_players,
                "detector_events_per_s": round(totals.events / totals.seconds)
                if totals.seconds
                else None,
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, nargs="+", default=[11, 12, 13, 14])
    parser.add_argument("--intensities", type=float, nargs="+", default=[0.85, 0.4])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--tournaments", type=int, default=2)
    parser.add_argument("--hours", type=float, default=3.0)
    parser.add_argument("--jobs", type=int, default=2, help="days simulated in parallel")
    parser.add_argument("--cache", help="directory keeping simulated days between runs")
    parser.add_argument("--json", action="store_true", help="print one JSON object per line")
    parser.add_argument("--misses", action="store_true", help="list the teams not found by play")
    parser.add_argument(
        "--positional-share",
        type=float,
        default=0.0,
        help="share of players of the simulator's second honest family (the style mix)",
    )
    parser.add_argument("--model", help="honest-decision model directory (default: shipped)")
    parser.add_argument(
        "--surface",
        action="store_true",
        help="recall by play per tactic, and over deviating moves x hands shared with the target",
    )
    parser.add_argument(
        "--tactics",
        nargs="+",
        default=[],
        type=_tactics,
        help="bounty team k plays tactics[k %% len] (a+b: two, one decided per hand); one "
        f"tactic: days that use only it. Tactics: {', '.join(TACTICS)}",
    )
    parser.add_argument(
        "--wild",
        action="store_true",
        help="intensity drawn per team from 0.3-0.9 (reported as intensity -1), progressive "
        "knockouts, honest hunters, friends, open planning wording",
    )
    args = parser.parse_args()
    order = (DRAWN,) if args.wild else tuple(args.intensities)
    rotations = [order[k:] + order[:k] for k in range(len(order))]
    jobs = [(seed, rot, args) for seed in args.seeds for rot in rotations]
    totals = Totals()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for day in pool.map(run_day, jobs):
            totals.events += day["events"]
            totals.seconds += day["seconds"]
            score_day(day, totals)
    for row in report(totals, args.seeds):
        line = json.dumps(row) if args.json else "  ".join(f"{k}={v}" for k, v in row.items())
        print(line)
    if args.misses:
        print("\n".join(f"missed: {m}" for m in totals.missed))
    if args.surface:
        print("\n".join(surface(totals)))


if __name__ == "__main__":
    main()
