"""Kafka benchmark (`make bench-kafka`): raw consume vs `railbird run`, and produce-to-flag latency.

One run on this machine, against a fresh single-node broker run as `make kafka-up` runs it and
warmed up before anything is timed (or an existing one: `--bootstrap`):
1. raw kafka-python consume rate of the chat topic, no processing, sampled five times (spread
   between the other worker runs) and the median taken as the baseline: one ~1.5 s sample
   swung from 30k to 116k msgs/s on the same records here (the raw consumer waits on fetches,
   0.3-0.9 of a core; it is not CPU-bound), so a single sample made every ratio a coin toss.
   The headline worker run (both stages, store) is timed right after each raw sample, and its
   median is the one compared (one worker's rate swung 16k-24k events/s on the same code);
2. `railbird run` end to end (decode, every registered detector, rules, SQLite store, flags out,
   commit) on the same records, with and without the store, and the ratio to (1), timed from
   the first record processed to the last one committed (so stored); by default a worker runs
   both stages (`ingest.kafka.stages`), so also `--stage tables` alone (what scales out with
   more workers) and `--stage site` alone (one owner reads the whole stream);
   and with no detectors at all (`RAILBIRD_KAFKA_DETECTORS=none`): the worker's own overhead
   (Kafka, decoding, merge, store, commits), separated from the detectors' cost; each with the
   CPU time all of the worker's processes spent per event (`bench.kafka_runs`);
3. produce-to-flag latency at a paced rate: from sending a chat message to its flag arriving on
   `moderation.flags`, p50 / p99.
Results go to var/benchmarks-kafka.md (untracked) with the command and the machine; `--out
docs/benchmarks-kafka.md` records a run in the documentation.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import kafka

from bench.kafka_latency import latency
from bench.kafka_runs import (
    PARTITIONS,
    REPO,
    Rate,
    chat_messages,
    median_rate,
    produce,
    raw_consume,
    settings_for,
    warm_broker,
    with_distinct_texts,
    worker_rate,
)
from railbird.ingest.kafka.settings import KafkaSettings
from tests.integration.kafka_broker import start_broker


def machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    mem = Path("/proc/meminfo").read_text().split()[1]
    return (
        f"{os.cpu_count()} cores ({cpu}), {int(mem) // 1024 // 1024} GiB RAM, "
        f"Python {platform.python_version()}, kafka-python {kafka.__version__}, "
        f"load average at start {os.getloadavg()[0]:.1f}"
    )


# (key, row label, settings changed, `railbird run` arguments): one timed worker run each.
WORKER_RUNS: tuple[tuple[str, str, dict[str, Any], tuple[str, ...]], ...] = (
    ("both", "`railbird run` (both stages: what one worker does), SQLite store", {}, ()),
    (
        "tables",
        "`--stage tables` (the part more workers share), SQLite store",
        {"stage": "tables"},
        (),
    ),
    ("site", "`--stage site` (one owner, whole stream), SQLite store", {"stage": "site"}, ()),
    ("nostore", "`railbird run` (both stages), `--no-store`", {}, ("--no-store",)),
    (
        "bare",
        "framework overhead: no detectors (one stage), SQLite store",
        {"detectors": "none"},
        (),
    ),
    (
        "bare-ns",
        "framework overhead: no detectors (one stage), `--no-store`",
        {"detectors": "none"},
        ("--no-store",),
    ),
)

DISTINCT = ("distinct", "`railbird run` (both stages), every text distinct: no per-text cache hits")


# The broker as `make kafka-up` runs it, with the JVM's full JIT, and warmed up (`warm_broker`)
# before anything is timed. The test fixtures start theirs C1-only (`-XX:TieredStopAtLevel=1`:
# up sooner, but more CPU per message), and on this 2-core machine that CPU comes out of the
# worker being measured (docs/benchmarks-kafka.md, session 8). KAFKA_JVM_OPTS in the
# environment still replaces it.
BROKER_JVM_OPTS = os.environ.get("KAFKA_JVM_OPTS", "")
# Raw consume / headline worker pairs: an odd count, so each median is one real sample.
PAIRS = 5


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap", help="use this broker instead of starting one")
    # Enough for the worker's end-to-end rate (first record -> last one committed) not to be
    # dominated by start-up and the final commit; more than 5,000 a partition, so the merge's
    # fetch pausing is exercised too.
    parser.add_argument("--messages", type=int, default=60000)
    parser.add_argument("--rate", type=float, default=1000.0)
    parser.add_argument("--seconds", type=float, default=20.0, help="latency phase length")
    parser.add_argument(
        "--out",
        type=Path,
        default=REPO / "var" / "benchmarks-kafka.md",
        help="where the report goes (default: untracked var/; docs/benchmarks-kafka.md to keep)",
    )
    args = parser.parse_args(argv)
    host = machine()
    with tempfile.TemporaryDirectory(prefix="kafka-bench-") as tmp:
        work = Path(tmp)
        broker = None if args.bootstrap else start_broker(work / "broker", jvm_opts=BROKER_JVM_OPTS)
        bootstrap = args.bootstrap or (broker.bootstrap if broker else "")
        try:
            messages = chat_messages(args.messages + int(args.rate * args.seconds), seed=5)
            bulk, paced = messages[: args.messages], messages[args.messages :]
            s = settings_for(bootstrap, f"bench{os.getpid()}")
            produced = produce(s, bulk)
            print(f"produce {produced:,.0f} msgs/s", flush=True)
            warm_broker(s, work, len(bulk))
            # The headline run is sampled PAIRS times, each right after a raw sample (the
            # broker and the machine in the same state for both of a pair); the others once.
            raw_samples: list[Rate] = []
            both_samples: list[Rate] = []
            rates: dict[str, Rate] = {}

            def timed(key: str, label: str, settings: KafkaSettings, *extra: str) -> Rate:
                where = work / f"{key}-{len(both_samples)}"
                where.mkdir()
                changed = settings.model_copy(
                    update={"group_id": f"{settings.group_id}-{where.name}"}
                )
                rate = worker_rate(changed, where, len(bulk), *extra)
                print(f"{label}: {rate.events_per_second:,.0f} events/s", flush=True)
                return rate

            def pair() -> None:
                raw_samples.append(raw_consume(s, len(bulk)))
                print(f"raw consume {raw_samples[-1].events_per_second:,.0f} msgs/s", flush=True)
                key, label, _changes, extra = WORKER_RUNS[0]
                both_samples.append(timed(key, label, s, *extra))

            others = WORKER_RUNS[1:]
            pair()
            for i, (key, label, changes, extra) in enumerate(others):
                if i % 2 == 1 and len(raw_samples) < PAIRS - 2:
                    pair()
                rates[key] = timed(key, label, s.model_copy(update=changes), *extra)
            # The same stream with every text made unique: per-text caches never hit, so this
            # is the chain's cost on chat that never repeats (the simulator's repeats a lot).
            d = settings_for(bootstrap, f"distinct{os.getpid()}")
            produce(d, with_distinct_texts(bulk, seed=6))
            rates[DISTINCT[0]] = timed(*DISTINCT, d)
            while len(raw_samples) < PAIRS:
                pair()
            rates[WORKER_RUNS[0][0]] = median_rate(both_samples)
            (work / "c").mkdir()
            lat, lag = latency(
                settings_for(bootstrap, f"lat{os.getpid()}"), work / "c", paced, args.rate
            )
        finally:
            if broker is not None:
                broker.stop()
    raw = median_rate(raw_samples)
    samples = ", ".join(f"{r.events_per_second:,.0f}" for r in raw_samples)
    both = ", ".join(f"{r.events_per_second:,.0f}" for r in both_samples)
    paired = ", ".join(
        f"{b.events_per_second / r.events_per_second:.1%}"
        for b, r in zip(both_samples, raw_samples, strict=True)
    )
    command = "make bench-kafka  (python -m bench.kafka_bench " + " ".join(argv or sys.argv[1:])
    labels = {k: lbl for k, lbl, _c, _e in WORKER_RUNS}
    labels[WORKER_RUNS[0][0]] += (
        f": median of {PAIRS} samples ({both}; each against the raw sample just before it: "
        f"{paired})"
    )
    rows = "\n".join(
        f"| {label} | {rates[key].events_per_second:,.0f} events/s "
        f"({rates[key].events_per_second / raw.events_per_second:.1%} of raw consume) "
        f"| {rates[key].cpu_us_per_event:,.0f} µs ({rates[key].cores:.2f} cores) "
        f"| {rates[key].peak_rss_mib:,.0f} MiB |"
        for key, label in [*labels.items(), DISTINCT]
    )
    hold = KafkaSettings().site_merge_hold_ms
    (t50, t99, tn), (s50, s99, sn), (_a50, a99, _an) = lat["tables"], lat["site"], lat["all"]
    at = f"produce-to-flag latency at {args.rate:,.0f} msgs/s"
    latency_rows = "\n".join(
        [
            f"| {at}, table-stage flags, p50 | {t50:,.0f} ms | | |",
            f"| {at}, table-stage flags, p99 | {t99:,.0f} ms (target < 250 ms) | | |",
            f"| {at}, all flags, p99 | {a99:,.0f} ms (target < 250 ms) | | |",
            f"| {at}, site-stage flags (held {hold:,} ms), p50 / p99 "
            f"| {s50:,.0f} / {s99:,.0f} ms | | |",
            f"| flags timed (tables / site) / worker lag after the paced phase "
            f"| {tn} / {sn} / {lag:,.0f} records | | |",
        ]
    )
    bare_us = 1e6 / rates["bare"].events_per_second
    tables_us = 1e6 / rates["tables"].events_per_second
    split = f"{bare_us:,.0f} µs / {tables_us - bare_us:,.0f} µs"
    report = f"""# Kafka benchmark

Command: `{command.strip()})`
Machine: {host}
Run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, single-node Kafka 4.1.1 broker on the same machine,
{PARTITIONS} partitions per topic, one `railbird run` worker, {len(bulk):,} simulated chat messages.

CPU per event: user + system time of every process of the worker (its stages and their store
writers; for raw consume, the one consumer) over the timed span, divided by the events; "cores"
is that CPU time per second of wall time (the machine has {os.cpu_count()}). Peak RSS: the
worker's processes together, sampled every 10-50 ms (shared pages counted in each).

| measure | value | CPU per event | peak RSS |
|---|---|---|---|
| produce (`railbird produce` settings) | {produced:,.0f} msgs/s | | |
| raw kafka-python consume, chat topic, no processing: median of {PAIRS} samples ({samples}) \
| {raw.events_per_second:,.0f} msgs/s | {raw.cpu_us_per_event:,.0f} µs ({raw.cores:.2f} cores) | |
{rows}
| per event, table stage: worker overhead (no detectors, store) / detectors + rules | {split} | | |
{latency_rows}
"""
    # The hand-written reading below the table survives a re-run.
    old = args.out.read_text() if args.out.exists() else ""
    reading = old[old.find("\n## Reading it") :] if "\n## Reading it" in old else ""
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report + reading)
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
