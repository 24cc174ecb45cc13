"""Quality of the cash-table collusion detectors (chip_dumping, soft_play) on simulated days.

Usage:
    .venv/bin/python -m bench.cash_collusion_eval --seeds 11 12 13 14 --intensities 0.5 0.3
    .venv/bin/python -m bench.cash_collusion_eval --phh /tmp/phh.jsonl   # real hands, no truth

Each (seed, intensity) is one simulated cash day (`--tables` tables, `--hours` long, with
`--pairs` chip-dumping and as many soft-play pairs spread over the tables). Hands are streamed
through the two detectors (each with its own `TtlState`, as the pipeline does) and flags are
scored against the truth: precision (flags whose two players are a true pair of that category),
recall (non-optional true pairs flagged), false flags per 1,000 honest players, and detection
delay (hands dealt at the pair's table, and the pair's acting hands, from its first act to the
flag). Tune on seeds 1-3; report held-out seeds only.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from railbird.detectors.collusion.chip_dumping import ChipDumping
from railbird.detectors.collusion.soft_play import SoftPlay
from railbird.detectors.detector import Detector
from railbird.detectors.events import HandEvent, event_from_dict
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate

CATEGORIES = ("chip_dumping", "soft_play")


@dataclass(slots=True)
class DayResult:
    seed: int
    intensity: float
    hands: int = 0
    players: int = 0
    honest_players: int = 0
    truth: list[dict[str, Any]] = field(default_factory=list)
    flags: list[dict[str, Any]] = field(default_factory=list)


def run_detectors(hands: Iterable[HandEvent]) -> Iterator[tuple[HandEvent, Finding]]:
    detectors: list[Detector] = [ChipDumping(), SoftPlay()]
    states = [TtlState() for _ in detectors]
    for hand in hands:
        for detector, state in zip(detectors, states, strict=True):
            state.advance(hand.ended_at)
            for finding in detector.detect(hand, state):
                yield hand, finding


def run_day(seed: int, intensity: float, tables: int, hours: float, pairs: int) -> DayResult:
    cfg = SimConfig(
        seed=seed,
        tournaments=0,
        cash_tables=tables,
        hours=hours,
        chip_dump_pairs=pairs,
        soft_play_pairs=pairs,
        team_intensity=intensity,
    )
    day = DayResult(seed, intensity)
    order: dict[str, list[str]] = {}
    players: set[str] = set()

    def hands() -> Iterator[HandEvent]:
        for kind, record in simulate(cfg):
            if kind == "truth":
                if record.get("category") in CATEGORIES:
                    day.truth.append(record)
                continue
            if record["type"] != "hand":
                continue
            event = event_from_dict(record)
            assert isinstance(event, HandEvent)
            order.setdefault(str(event.table_id), []).append(event.hand_id)
            players.update(s.player_id for s in event.seats)
            yield event

    for hand, finding in run_detectors(hands()):
        day.flags.append(
            {
                "category": finding.category,
                "player_ids": sorted(finding.player_ids),
                "table_id": finding.table_id,
                "hand_id": hand.hand_id,
                "hand_index": len(order[str(hand.table_id)]) - 1,
                "p": finding.evidence.measures.get("p_value_bonferroni"),
            }
        )
    day.hands = sum(len(v) for v in order.values())
    day.players = len(players)
    members = {p for t in day.truth for p in t["player_ids"]}
    day.honest_players = len(players - members)
    for t in day.truth:  # the table index of the pair's first act, for the delay
        ids = order.get(str(t["table_id"]), [])
        first = t["hand_ids"][0] if t.get("hand_ids") else None
        t["first_index"] = ids.index(first) if first in ids else None
    return day


def score(days: list[DayResult]) -> dict[str, Any]:
    report: dict[str, Any] = {}
    for intensity in sorted({d.intensity for d in days}, reverse=True):
        group = [d for d in days if d.intensity == intensity]
        honest = sum(d.honest_players for d in group)
        for category in CATEGORIES:
            tp = fp = found = wanted = 0
            delays: list[int] = []
            act_delays: list[int] = []
            for d in group:
                truth = [t for t in d.truth if t["category"] == category]
                flags = [f for f in d.flags if f["category"] == category]
                true_pairs = {tuple(t["player_ids"]): t for t in truth}
                hit: set[tuple[str, ...]] = set()
                for f in flags:
                    key = tuple(f["player_ids"])
                    if key in true_pairs:
                        tp += 1
                        hit.add(key)
                    else:
                        fp += 1
                for key, t in true_pairs.items():
                    if t.get("optional"):
                        continue
                    wanted += 1
                    if key not in hit:
                        continue
                    found += 1
                    first = min(f["hand_index"] for f in flags if tuple(f["player_ids"]) == key)
                    if t["first_index"] is not None:
                        delays.append(first - t["first_index"])
                    flag_hand = next(
                        f["hand_id"]
                        for f in flags
                        if tuple(f["player_ids"]) == key and f["hand_index"] == first
                    )
                    acts = t["hand_ids"]
                    act_delays.append(acts.index(flag_hand) + 1 if flag_hand in acts else len(acts))
            report[f"{category}@{intensity}"] = {
                "days": len(group),
                "hands": sum(d.hands for d in group),
                "flags": tp + fp,
                "precision": round(tp / (tp + fp), 3) if tp + fp else None,
                "recall": round(found / wanted, 3) if wanted else None,
                "pairs_found": f"{found}/{wanted}",
                "false_flags": fp,
                "false_flags_per_1000_honest_players": round(1000 * fp / max(1, honest), 2),
                "median_delay_table_hands": sorted(delays)[len(delays) // 2] if delays else None,
                "median_delay_acts": sorted(act_delays)[len(act_delays) // 2]
                if act_delays
                else None,
            }
    return report


def scan_real(path: Path) -> dict[str, Any]:
    """Presumed-honest real hands: every flag is a false flag."""
    events = []
    for line in path.read_text().splitlines():
        event = event_from_dict(json.loads(line))
        if isinstance(event, HandEvent):
            events.append(event)
    events.sort(key=lambda e: e.ended_at)
    flags = [f for _, f in run_detectors(events)]
    players = {s.player_id for e in events for s in e.seats}
    return {
        "hands": len(events),
        "players": len(players),
        "flags": len(flags),
        "flags_per_1000_hands": round(1000 * len(flags) / max(1, len(events)), 3),
        "flags_per_player": round(len(flags) / max(1, len(players)), 4),
        "flagged": [[f.category, *f.player_ids] for f in flags],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[11, 12, 13, 14])
    parser.add_argument("--intensities", type=float, nargs="+", default=[0.5, 0.3])
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--hours", type=float, default=4.0)
    parser.add_argument("--pairs", type=int, default=4, help="pairs of each category per day")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--phh", type=Path, help="imported real hands (JSON Lines) to scan")
    parser.add_argument("--verbose", action="store_true", help="print every flag")
    args = parser.parse_args(argv)
    if args.phh:
        sys.stdout.write(json.dumps(scan_real(args.phh), indent=2) + "\n")
        return 0
    jobs = [
        (s, i, args.tables, args.hours, args.pairs) for s in args.seeds for i in args.intensities
    ]
    with ProcessPoolExecutor(args.jobs) as pool:
        days = list(pool.map(run_day, *zip(*jobs, strict=True)))
    if args.verbose:
        for d in days:
            truth = {tuple(t["player_ids"]): t["category"] for t in d.truth}
            for f in d.flags:
                mark = "TP" if truth.get(tuple(f["player_ids"])) == f["category"] else "FP"
                sys.stdout.write(f"{d.seed} {d.intensity} {mark} {json.dumps(f)}\n")
    sys.stdout.write(json.dumps(score(days), indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
