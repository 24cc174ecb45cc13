"""`make bench-play`: what reading play against the honest-decision model adds to `scan`.

The same simulated day (the scan benchmark's: one bounty tournament of 500 players for three
hours, plus cash tables) through the whole pipeline twice per round: every registered detector,
and every detector but the two that read play against the model (bounty_collusion,
cash_collusion). Rounds alternate which goes first, so machine noise falls on both; the report
gives each round's ratio and their median. The model file's size is reported too.
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

from bench.machine import describe_machine
from railbird.detectors.events import AnyEvent, event_from_dict
from railbird.detectors.registry import build_detectors
from railbird.ingest.gc_tuning import tune_for_streaming
from railbird.rules.pipeline import Pipeline
from railbird.rules.policy import RuleBook
from railbird.rules.policy_file import default_policy
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate

PLAY_DETECTORS = frozenset({"bounty_collusion", "cash_collusion"})
OUT = Path("docs/benchmarks-play.md")
MODEL = Path(__file__).resolve().parent.parent / "detectors" / "play" / "models"


def _day(seed: int, players: int, hours: float, cash_tables: int) -> list[AnyEvent]:
    config = SimConfig(
        seed=seed,
        tournaments=1,
        cash_tables=cash_tables,
        hours=hours,
        players_per_tournament=players,
        bounty_share=1.0,
    )
    return [event_from_dict(r) for kind, r in simulate(config) if kind == "event"]


def _seconds(events: list[AnyEvent], without: frozenset[str]) -> float:
    names = {d.name for d in build_detectors()} - without
    pipeline = Pipeline(build_detectors(only=names), RuleBook(default_policy()))
    tune_for_streaming()  # as `railbird scan` does once its pipeline is built
    started = time.perf_counter()
    for event in events:
        pipeline.process(event)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--hours", type=float, default=3.0)
    parser.add_argument("--cash-tables", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    events = _day(args.seed, args.players, args.hours, args.cash_tables)
    hands = sum(1 for e in events if e.type == "hand")
    rows = []
    for k in range(args.rounds):
        order = (frozenset(), PLAY_DETECTORS) if k % 2 == 0 else (PLAY_DETECTORS, frozenset())
        times = {without: _seconds(events, without) for without in order}
        rows.append((times[frozenset()], times[PLAY_DETECTORS]))
    ratios = [with_play / without for with_play, without in rows]
    size = sum(p.stat().st_size for p in MODEL.iterdir() if p.is_file())
    lines = [
        "# What the honest-decision model adds to `scan`",
        "",
        f"- Run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, `make bench-play` "
        f"(`python -m bench.play_cost --rounds {args.rounds}`)",
        f"- Machine: {describe_machine()}",
        f"- Input: the simulator's seed {args.seed}, one bounty tournament of {args.players} "
        f"players and {args.cash_tables} cash tables for {args.hours:g} h: {len(events):,} "
        f"events, {hands:,} hands.",
        "- Each round runs the whole pipeline (every detector and the rules) on the same events "
        "twice, with and without the two detectors that read play against the model, the "
        "order alternating between rounds.",
        f"- Model files: {size / 1024:.0f} KiB (`detectors/play/models/`).",
        "",
        "| round | all detectors (s) | without the play detectors (s) | ratio |",
        "|---|---|---|---|",
    ]
    lines += [f"| {k + 1} | {a:.1f} | {b:.1f} | {a / b:.2f} |" for k, (a, b) in enumerate(rows)]
    lines += ["", f"Median ratio: **{statistics.median(ratios):.2f}** (target: at most 1.50)."]
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
