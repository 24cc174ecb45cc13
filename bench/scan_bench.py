"""`make bench-scan`: `railbird scan` throughput and peak memory on simulated tournament days.

Baselines measured in the same run, on the same file: reading the lines and parsing them with
orjson (the floor for any JSON pipeline) and validating them as contract events. Memory is
bounded if the peak RSS for three hours of traffic is about the peak for one hour.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import orjson

from bench.machine import describe_machine
from railbird.detectors.events import parse_event
from railbird.sim.config import SimConfig
from railbird.sim.run import write_simulation

OUT = Path("docs/benchmarks-scan.md")


def _baseline(path: Path) -> tuple[float, float]:
    lines = path.read_bytes().splitlines()
    started = time.perf_counter()
    for line in lines:
        orjson.loads(line)
    raw = len(lines) / (time.perf_counter() - started)
    started = time.perf_counter()
    for line in lines:
        parse_event(line)
    validated = len(lines) / (time.perf_counter() - started)
    return raw, validated


def _scan(path: Path) -> tuple[int, float, float, str]:
    done = subprocess.run(
        [sys.executable, "-m", "railbird", "scan", str(path), "--out", "/dev/null"],
        capture_output=True,
        text=True,
        check=True,
    )
    summary = done.stderr.strip().splitlines()[-1]
    match = re.search(r"(\d+) events .* = ([\d,]+) events/s.*peak RSS (\d+) MiB", summary)
    if match is None:
        raise RuntimeError(f"unexpected scan summary: {summary}")
    events, rate, rss = match.groups()
    return int(events), float(rate.replace(",", "")), float(rss), summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--hours", type=float, nargs="+", default=[1.0, 3.0])
    parser.add_argument("--workdir", type=Path, default=Path("var/bench"))
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    rows = []
    for hours in args.hours:
        events = args.workdir / f"day-{args.players}p-{hours:g}h.jsonl"
        truth = events.with_suffix(".truth.jsonl")
        config = SimConfig(
            seed=42, tournaments=1, cash_tables=0, hours=hours, players_per_tournament=args.players
        )
        write_simulation(config, events, truth)
        raw, validated = _baseline(events)
        count, rate, rss, summary = _scan(events)
        print(summary)
        rows.append((hours, count, events.stat().st_size / 2**20, raw, validated, rate, rss))
    command = "make bench-scan  (python bench/scan_bench.py " + " ".join(sys.argv[1:]) + ")"
    lines = [
        "# `railbird scan` throughput and memory",
        "",
        f"- Run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, `{command.strip()}`",
        f"- Machine: {describe_machine()}",
        f"- Input: `railbird simulate` seed 42, one tournament of {args.players} players, "
        "no cash tables; every registered detector, the rules, flags to /dev/null.",
        "- Baselines in the same run on the same file: orjson parse only; contract validation "
        "(pydantic) only.",
        "",
        "| simulated hours | events | MiB | orjson only ev/s | validate only ev/s "
        "| scan ev/s | scan / orjson | scan / validate | peak RSS MiB |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for hours, count, mib, raw, validated, rate, rss in rows:
        lines.append(
            f"| {hours:g} | {count:,} | {mib:.1f} | {raw:,.0f} | {validated:,.0f} | {rate:,.0f} "
            f"| {rate / raw:.3f} | {rate / validated:.3f} | {rss:.0f} |"
        )
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
