"""`railbird simulate`: a day of realistic traffic with labelled violations, to files."""

from __future__ import annotations

import argparse
import sys
import time

from railbird.sim.config import SimConfig
from railbird.sim.run import write_simulation


def run_simulate(args: argparse.Namespace) -> int:
    fields: dict[str, object] = {
        "seed": args.seed,
        "tournaments": args.tournaments,
        "cash_tables": args.cash_tables,
        "hours": args.hours,
    }
    optional = {
        "players_per_tournament": args.players,
        "team_intensity": args.intensity,
        "violation_scale": args.violation_scale,
        "team_intensities": None if args.team_intensities is None else tuple(args.team_intensities),
        "bounty_teams_per_tournament": args.bounty_teams,
    }
    fields.update({name: value for name, value in optional.items() if value is not None})
    config = SimConfig(**fields)  # type: ignore[arg-type]
    started = time.perf_counter()
    stats = write_simulation(config, args.out, args.truth)
    seconds = time.perf_counter() - started
    print(f"railbird simulate: {stats} in {seconds:.1f} s", file=sys.stderr)  # noqa: T201
    return 0
