"""What a state snapshot costs (`kafka.snapshots`): size, time to write and to restore.

A simulated evening runs through the whole pipeline, then its state is snapshotted and
restored into a fresh pipeline `--repeat` times. Printed; the numbers behind
`snapshot_interval_seconds` are in docs/design-numbers.md.

    .venv/bin/python -m bench.snapshot_bench --seed 11 --players 500 --hours 3
"""

from __future__ import annotations

import argparse
import time

from railbird.detectors.events import event_from_dict
from railbird.detectors.registry import build_detectors
from railbird.rules.pipeline import Pipeline
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--tournaments", type=int, default=2)
    parser.add_argument("--cash-tables", type=int, default=4)
    parser.add_argument("--hours", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    config = SimConfig(
        seed=args.seed,
        tournaments=args.tournaments,
        players_per_tournament=args.players,
        cash_tables=args.cash_tables,
        hours=args.hours,
        bounty_share=1.0,
    )
    pipeline = Pipeline(build_detectors())
    events = 0
    for kind, record in simulate(config):
        if kind == "event":
            pipeline.process(event_from_dict(record))
            events += 1
    for _ in range(args.repeat):
        began = time.perf_counter()
        data = pipeline.snapshot()
        written = time.perf_counter()
        Pipeline(build_detectors()).restore(data)
        restored = time.perf_counter()
        print(
            f"events={events} snapshot_mb={len(data) / 1e6:.2f} "
            f"write_s={written - began:.2f} restore_s={restored - written:.2f}"
        )


if __name__ == "__main__":
    main()
