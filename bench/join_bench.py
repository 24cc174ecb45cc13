"""Join-check benchmark (`make bench-join`): is "may this player join?" as fast as the chat check?

One `railbird serve` process over SQLite holding 50,000 active mutes and 50,000 active
table-join blocks (at 50/100), the open-loop generator of `bench.api_bench` on the same cores.
Runs alternate, chat check then join check at the same rate, `PAIRS` times, so both see the
same machine noise; the report gives each pair's p50 and p99 and the join/chat ratios.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from bench.api_bench import (
    REPO,
    WARMUP_SECONDS,
    Result,
    _load,
    _requests,
    _run,
    fill,
    http_post,
    load_once,
    serving,
)
from bench.machine import describe_machine, write_report

RESTRICTIONS = 50_000
LEVELS = ("50/100", "100/200", "1/2")


def join_requests(port: int, count: int = 4096) -> list[bytes]:
    """A fifth of the questions are for blocked players (some at another level)."""
    rng = random.Random(2)
    built = []
    for _ in range(count):
        blocked = rng.random() < 0.2
        player = f"p-r{rng.randrange(RESTRICTIONS)}" if blocked else f"p-{rng.randrange(20000)}"
        body = {"player_id": player, "blind_level": rng.choice(LEVELS)}
        built.append(http_post(port, "/v1/tables/join-check", body))
    return built


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=1000.0)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8.0, help="per run")
    parser.add_argument("--out", type=Path, default=REPO / "var" / "benchmarks-join.md")
    args = parser.parse_args(argv)
    machine = describe_machine()
    pairs: list[tuple[Result, Result]] = []
    with tempfile.TemporaryDirectory(prefix="join-bench-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'join.db'}"
        fill(url, RESTRICTIONS)
        fill(url, RESTRICTIONS, kind="block_table_join", scope="50/100")
        with serving(url, 1) as port:
            chat, join = _requests(port, RESTRICTIONS), join_requests(port)
            for warm in (chat, join):
                _run(_load(port, warm, 200.0, WARMUP_SECONDS))
            for _ in range(args.pairs):
                pairs.append(
                    (
                        load_once(port, chat, RESTRICTIONS, 1, args.rate, args.seconds),
                        load_once(port, join, RESTRICTIONS, 1, args.rate, args.seconds),
                    )
                )
    rows = "\n".join(
        f"| {n} | {c.p50_ms:.2f} | {j.p50_ms:.2f} | {j.p50_ms / c.p50_ms:.2f} | "
        f"{c.p99_ms:.1f} | {j.p99_ms:.1f} | {j.p99_ms / c.p99_ms:.2f} | {c.errors + j.errors} |"
        for n, (c, j) in enumerate(pairs, 1)
    )
    p50 = statistics.median(j.p50_ms / c.p50_ms for c, j in pairs)
    p99 = statistics.median(j.p99_ms / c.p99_ms for c, j in pairs)
    command = "make bench-join  (python -m bench.join_bench " + " ".join(argv or sys.argv[1:])
    report = f"""# Join-check benchmark: "may this player join?" beside "may this player say this?"

Command: `{command.strip()})`
Machine: {machine}, load average at start {os.getloadavg()[0]:.1f}
Run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC. One `railbird serve` process over SQLite with
{RESTRICTIONS:,} active mutes and {RESTRICTIONS:,} active join blocks; open-loop load at
{args.rate:,.0f} req/s from `bench/api_bench.py`'s generator on the same 2 cores, {args.seconds:g} s
a run; each pair runs the chat check, then the join check. Target: as fast as the chat check.

| pair | chat p50 ms | join p50 ms | join/chat | chat p99 ms | join p99 ms | join/chat | errors |
|---|---|---|---|---|---|---|---|
{rows}

Median ratio join/chat: p50 {p50:.2f}, p99 {p99:.2f}.
"""
    write_report(args.out, report)
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
