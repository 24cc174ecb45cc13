"""`make bench-store`: the store process's CPU a chat row, by rows per transaction.

What it decides: how many events the Kafka worker hands its store process in one write
(`RAILBIRD_KAFKA_STORE_BATCH_EVENTS`). Each write is one SQLite transaction; a row lands in
four B-trees (rowid, primary key, the by-player and by-table indexes), and a commit writes
every page it dirtied to the WAL, so rows that share pages are cheaper in bigger transactions.
The baseline is the same rows 1,000 to a transaction (the old batch size), measured in the same
run and alternated with the others, so the ratios hold on a noisy machine.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import orjson

from bench.kafka_runs import chat_messages
from bench.machine import describe_machine
from railbird.store.batches import write_requests
from railbird.store.database import make_engine, migrate
from railbird.store.writer import StoreWriter

OUT = Path("docs/benchmarks-store.md")
BASELINE = 1000


def cpu_per_row(records: list[bytes], batch: int) -> float:
    """µs of this process's CPU a row: `records` written `batch` to a transaction, as the
    store process writes them (`store_batches.write_requests`), into a fresh SQLite file."""
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(f"sqlite:///{Path(tmp) / 'store.db'}")
        migrate(engine)
        writer = StoreWriter(engine)
        started = time.process_time()
        for ticket, start in enumerate(range(0, len(records), batch), start=1):
            chats = [("chat", raw) for raw in records[start : start + batch]]
            write_requests(writer, [(ticket, "batch", chats, [], [])])
        spent = time.process_time() - started
        engine.dispose()
    return spent / len(records) * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=120_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    records = [orjson.dumps(m) for m in chat_messages(args.rows, seed=5)]
    sizes = (BASELINE, 5000, 10000, 20000)
    samples: dict[int, list[float]] = {size: [] for size in sizes}
    for round_ in range(args.rounds):
        for size in sizes if round_ % 2 == 0 else sizes[::-1]:
            samples[size].append(cpu_per_row(records, size))
            print(f"{size:>6} rows a transaction: {samples[size][-1]:.2f} µs a row", flush=True)
    base = statistics.median(samples[BASELINE])
    rows = "\n".join(
        f"| {size:,} | {statistics.median(s):.2f} µs "
        f"({', '.join(f'{x:.2f}' for x in s)}) | {statistics.median(s) / base:.2f} |"
        for size, s in samples.items()
    )
    report = f"""# Store benchmark

Command: `make bench-store  (python -m bench.store_rows --rows {args.rows} --rounds {args.rounds})`
Machine: {describe_machine()}
Run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {args.rows:,} simulated chat records written as the
Kafka worker's store process writes them, into a fresh SQLite file per sample; the sizes
alternate in order each round.

| rows a transaction | CPU a row: median (samples) | vs {BASELINE:,} |
|---|---|---|
{rows}
"""
    args.out.write_text(report)
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
