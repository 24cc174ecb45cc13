"""Quality of the group-collusion detectors on simulated tournament days.

Usage:
    .venv/bin/python -m bench.collusion_eval --seeds 11 12 13 14 --intensities 0.2 0.5

For every (seed, intensity) it simulates a day (tournaments of >= 500 players, injected teams,
hard negatives on), streams it through the real pipeline with the collusion detectors only, and
scores the flags against the truth: per category precision (flags that name >= 2 members of a
true team, or a true planning message), recall (non-optional team records found), false flags
per 1,000 honest players, flags touching hard negatives, target accuracy and detection delay.
Tune on seeds 1-3; report held-out seeds only.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from detectors.events import event_from_dict
from detectors.registry import build_detectors
from rules.pipeline import Pipeline
from sim.config import SimConfig
from sim.run import simulate

CATEGORIES = ("coordinated_sit_out", "bounty_collusion")
DETECTORS = {"coordinated_sit_out", "bounty_collusion"}


@dataclass
class Score:
    flags: int = 0
    true_flags: int = 0
    teams: int = 0
    found: int = 0
    found_by_play: int = 0
    optional_found: int = 0
    false_players: set[str] = field(default_factory=set)
    hard_negative_flags: int = 0
    delays_min: list[float] = field(default_factory=list)
    target_right: int = 0
    target_checked: int = 0


def _ts(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def run_day(seed: int, intensity: float, players: int, tournaments: int) -> dict[str, Any]:
    cfg = SimConfig(
        seed=seed,
        tournaments=tournaments,
        cash_tables=0,
        hours=3.0,
        players_per_tournament=players,
        bounty_share=1.0,
        team_intensity=intensity,
    )
    pipeline = Pipeline(build_detectors(only=DETECTORS))
    flags: dict[str, Any] = {}
    truth: list[dict[str, Any]] = []
    events = 0
    began = time.perf_counter()
    for kind, record in simulate(cfg):
        if kind == "truth":
            truth.append(record)
            continue
        events += 1
        for flag in pipeline.process(event_from_dict(record)).flags:
            flags[flag.flag_id] = flag  # a re-emitted id (severity rose) keeps its latest form
    elapsed = time.perf_counter() - began
    return {"flags": list(flags.values()), "truth": truth, "events": events, "seconds": elapsed}


def score_day(day: dict[str, Any], scores: dict[str, Score]) -> None:
    truth = day["truth"]
    teams = [t for t in truth if t.get("category") in CATEGORIES and "message_id" not in t]
    messages = {t["message_id"]: t for t in truth if "message_id" in t}
    hard = [t for t in truth if "hard_negative" in t]
    team_players = {p for t in teams for p in t["player_ids"]}
    first_flag: dict[int, datetime] = {}
    first_play: dict[int, datetime] = {}  # flags from play, not planning chat alone
    for flag in day["flags"]:
        cat = flag.finding.category
        if cat not in CATEGORIES:
            continue
        s = scores[cat]
        s.flags += 1
        players = set(flag.finding.player_ids)
        hit = False
        for k, team in enumerate(teams):
            if team["category"] == cat and len(players & set(team["player_ids"])) >= 2:
                hit = True
                ts = flag.finding.ts
                first_flag[k] = min(first_flag.get(k, ts), ts)
                if not flag.finding.evidence.kind.endswith("planning_chat"):
                    first_play[k] = min(first_play.get(k, ts), ts)
                if cat == "bounty_collusion" and flag.finding.evidence.kind == "bounty_targeting":
                    s.target_checked += 1
                    wanted = set(team.get("targets") or [team.get("target")])
                    s.target_right += flag.finding.evidence.details.get("target") in wanted
        if any(messages.get(m, {}).get("category") == cat for m in flag.finding.message_ids):
            hit = True
        if hit:
            s.true_flags += 1
        else:
            s.false_players |= players - team_players
            if any(players <= set(h["player_ids"]) for h in hard):
                s.hard_negative_flags += 1
    for k, team in enumerate(teams):
        s = scores[team["category"]]
        if team.get("optional"):
            s.optional_found += k in first_flag
            continue
        s.teams += 1
        if k in first_flag:
            s.found += 1
            s.found_by_play += k in first_play
            if team.get("first_violation_ts") and k in first_play:
                delay = first_play[k] - _ts(team["first_violation_ts"])
                s.delays_min.append(delay.total_seconds() / 60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, nargs="+", default=[11, 12, 13, 14])
    parser.add_argument("--intensities", type=float, nargs="+", default=[0.2, 0.5])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--tournaments", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print one JSON object per line")
    args = parser.parse_args()
    for intensity in args.intensities:
        scores = {c: Score() for c in CATEGORIES}
        honest_total = 0
        events = 0
        seconds = 0.0
        for seed in args.seeds:
            day = run_day(seed, intensity, args.players, args.tournaments)
            events += day["events"]
            seconds += day["seconds"]
            score_day(day, scores)
            teams = sum(len(t["player_ids"]) for t in day["truth"] if "intensity" in t)
            honest_total += args.players * args.tournaments - teams
        for cat, s in scores.items():
            row = {
                "intensity": intensity,
                "category": cat,
                "seeds": args.seeds,
                "flags": s.flags,
                "precision": round(s.true_flags / s.flags, 3) if s.flags else None,
                "recall": round(s.found / s.teams, 3) if s.teams else None,
                "teams": s.teams,
                "teams_found": s.found,
                "found_by_play": s.found_by_play,
                "optional_teams_found": s.optional_found,
                "false_flags_per_1000_honest": round(1000 * len(s.false_players) / honest_total, 3),
                "hard_negative_flags": s.hard_negative_flags,
                "target_accuracy": round(s.target_right / s.target_checked, 3)
                if s.target_checked
                else None,
                "median_delay_min": round(sorted(s.delays_min)[len(s.delays_min) // 2], 1)
                if s.delays_min
                else None,
                "events_per_s": round(events / seconds) if seconds else None,
            }
            _emit(row, args.json)


def _emit(row: dict[str, Any], as_json: bool) -> None:
    line = json.dumps(row) if as_json else "  ".join(f"{k}={v}" for k, v in row.items())
    print(line)


if __name__ == "__main__":
    main()
