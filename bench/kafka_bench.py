"""Kafka capacity benchmark (`make bench-kafka`): what each stage of `railbird run` costs per
event, what one and two workers sustain, and produce-to-flag latency per keying, on the
simulator's mixed traffic.

On this machine, against a fresh single-node broker run as `make kafka-up` runs it (full JIT)
and warmed up before anything is timed (or an existing one: `--bootstrap`):
0. the traffic: `railbird simulate`'s day (`bench.kafka_runs.TRAFFIC`, ~61,000 events of chat,
   table events and hand histories with the injected violations), produced to the input topics
   as `railbird produce` sends it;
1. each stage alone (`--stage tables`, then `--stage keyed` on what the first one re-keyed,
   then `--stage escalation` on what both sent), each timed until its input is processed and
   committed: the CPU all of its processes spent (the table stage's store writer included, and
   shown apart), per input event of the day, so events/s per core per stage, the numbers
   `docs/capacity.md` plans from;
2. `railbird run` (every stage) with one worker, then with two, on the same records: events/s
   from the first record processed until every stage has committed everything;
3. produce-to-flag latency with the same kind of traffic paced at `--rate` events/s, from the
   send of the newest record a flag cites to the flag's arrival, p50 / p99 by the keying of the
   detector that raised it (`bench.kafka_latency`), `--latency-runs` runs with a fresh worker
   each, the median run reported.
Results (with the machine, the command and how busy the machine was) go to
var/benchmarks-kafka.md unless `--out` names another file (docs/benchmarks-kafka.md to keep).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import kafka
from kafka import KafkaConsumer, TopicPartition

from bench.kafka_latency import Latency, latency
from bench.kafka_runs import (
    PARTITIONS,
    REPO,
    TRAFFIC,
    ScanRun,
    mixed_traffic,
    outside_cpu_seconds,
    produce,
    scan_store,
    settings_for,
    start_worker,
)
from bench.machine import describe_machine, write_report
from railbird.detectors.detector import KEYINGS
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.sim.config import SimConfig
from tests.integration.kafka_broker import start_broker
from tests.integration.net import free_port, scrape_metrics
from tests.integration.procs import descendants, tree_cpu_seconds

BROKER_JVM_OPTS = os.environ.get("KAFKA_JVM_OPTS", "")  # the full JIT, as `make kafka-up`
TARGET_MS = 250.0


@dataclass(frozen=True)
class StageCost:
    """One stage alone over the day: CPU per input event (all its processes; its store writer
    apart), the wall time it took, and how busy the rest of the machine was meanwhile."""

    cpu_us: float
    store_us: float
    seconds: float
    others_cores: float
    records: float  # records the stage read (its own topics: inputs, or re-keyed records)
    count: int  # input events of the day

    @property
    def per_core(self) -> float:
        return 1e6 / self.cpu_us

    @property
    def us_per_record(self) -> float:
        return self.cpu_us * self.count / max(self.records, 1.0)


@dataclass(frozen=True)
class Throughput:
    events_per_second: float
    cpu_us: float  # every process of every worker, per event
    others_cores: float


def _group_done(settings: KafkaSettings, group: str, topics: list[str]) -> bool:
    """Every partition of `topics` committed to its end by `group`."""
    consumer = KafkaConsumer(bootstrap_servers=settings.bootstrap_servers)
    try:
        tps = [
            TopicPartition(t, p) for t in topics for p in sorted(consumer.partitions_for_topic(t))
        ]
        ends = consumer.end_offsets(tps)
        probe = KafkaConsumer(
            bootstrap_servers=settings.bootstrap_servers, group_id=group, enable_auto_commit=False
        )
        try:
            return all((probe.committed(tp) or 0) >= ends[tp] for tp in tps)
        finally:
            probe.close(autocommit=False)
    finally:
        consumer.close()


def _records(port: int, stage: str) -> float:
    return sum(
        v
        for k, v in scrape_metrics(port).items()
        if k.startswith("railbird_kafka_records_total{") and f'stage="{stage}"' in k
    )


def stage_alone(
    settings: KafkaSettings, workdir: Path, stage: str, topics: list[str], count: int
) -> StageCost:
    """`railbird run --stage <stage>` until its group has committed all of `topics`; CPU per
    input event of the day (`count`). Timed from when its `/metrics` first answers (start-up
    done, the group still joining): a small stage (escalation) can finish its whole input
    between two samples, so waiting for a first processed record would time nothing."""
    workdir.mkdir()
    port = free_port()
    changed = settings.model_copy(update={"stage": stage})
    worker = start_worker(changed, workdir, port)
    group = settings.group_of(stage)
    first: tuple[float, float, float] | None = None
    try:
        while True:
            if worker.poll() is not None:
                raise RuntimeError((workdir / "worker.log").read_text()[-3000:])
            if first is None:
                if scrape_metrics(port):
                    first = (
                        time.perf_counter(),
                        tree_cpu_seconds(worker.pid),
                        outside_cpu_seconds(),
                    )
                time.sleep(0.02)
                continue
            if _records(port, stage) > 0 and _group_done(settings, group, topics):
                break
            time.sleep(0.2)
        seconds = time.perf_counter() - first[0]
        cpu = tree_cpu_seconds(worker.pid) - first[1]
        store = _store_cpu(worker.pid)
        others = (outside_cpu_seconds() - first[2]) / seconds
        records = _records(port, stage)
        return StageCost(cpu / count * 1e6, store / count * 1e6, seconds, others, records, count)
    finally:
        worker.terminate()
        worker.wait(120)


def _store_cpu(pid: int) -> float:
    """CPU of the store writer among `pid`'s children (its whole life: it starts idle)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for child in descendants(pid):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        if b"spawn_main" in cmdline and not descendants(child):
            total = max(total, (int(fields[11]) + int(fields[12])) / ticks)
    return total


def workers(settings: KafkaSettings, workdir: Path, count: int, how_many: int) -> Throughput:
    """`how_many` workers (every stage) on the pre-produced day: events/s from the first record
    processed until every stage of the deployment has committed everything."""
    workdir.mkdir()
    started: list[tuple[subprocess.Popen[bytes], int]] = []
    for n in range(how_many):
        where = workdir / f"w{n}"
        where.mkdir()
        port = free_port()
        started.append((start_worker(settings, where, port), port))
        time.sleep(3)  # one joins, then the other
    groups = [
        (settings.group_of("tables"), [*settings.input_topics, settings.hands_topic]),
        (settings.group_of("keyed"), [settings.keyed_topic]),
        (settings.group_of("escalation"), [settings.offences_topic_name]),
    ]
    first: tuple[float, float, float] | None = None
    try:
        while True:
            done = sum(_records(port, "tables") for _, port in started)
            if first is None and done > 0:
                cpu = sum(tree_cpu_seconds(p.pid) for p, _ in started)
                first = (time.perf_counter(), cpu, outside_cpu_seconds())
            if (
                first is not None
                and done >= count
                and all(_group_done(settings, g, t) for g, t in groups)
            ):
                break
            time.sleep(0.2)
        seconds = time.perf_counter() - first[0]
        cpu = sum(tree_cpu_seconds(p.pid) for p, _ in started) - first[1]
        others = (outside_cpu_seconds() - first[2]) / seconds
        return Throughput(count / seconds, cpu / count * 1e6, others)
    finally:
        for process, _ in started:
            process.terminate()
        for process, _ in started:
            process.wait(120)


def median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[(len(ordered) - 1) // 2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap", help="use this broker instead of starting one")
    parser.add_argument("--hours", type=float, default=TRAFFIC.hours)
    parser.add_argument("--rate", type=float, default=1000.0, help="latency phase, events/s")
    parser.add_argument("--seconds", type=float, default=20.0, help="latency phase length")
    parser.add_argument("--latency-runs", type=int, default=5, help="latency phases (odd)")
    parser.add_argument(
        "--out", type=Path, default=REPO / "var" / "benchmarks-kafka.md", help="the report"
    )
    args = parser.parse_args(argv)
    began = time.perf_counter()
    load_at_start = os.getloadavg()[0]
    config = dataclasses.replace(TRAFFIC, hours=args.hours)
    with tempfile.TemporaryDirectory(prefix="kafka-bench-") as tmp:
        work = Path(tmp)
        broker = None if args.bootstrap else start_broker(work / "broker", jvm_opts=BROKER_JVM_OPTS)
        bootstrap = args.bootstrap or (broker.bootstrap if broker else "")
        try:
            traffic = mixed_traffic(work, config)
            count = len(traffic.lines)
            print(f"traffic: {count:,} events {dict(traffic.by_type)}", flush=True)
            # Warm-up, not measured: a broker just started runs its paths in the JVM's
            # interpreter and first JIT tier for a while, spending CPU taken from the worker.
            warm = settings_for(bootstrap, f"warm{os.getpid()}")
            produce(warm, traffic.lines)
            workers(warm, work / "warm", count, 1)
            # 1. each stage alone, in the order the records flow
            alone = settings_for(bootstrap, f"alone{os.getpid()}")
            produced = produce(alone, traffic.lines)
            costs: dict[str, StageCost] = {}
            for stage, topics in (
                ("tables", list(alone.input_topics)),
                ("keyed", [alone.keyed_topic]),
                ("escalation", [alone.offences_topic_name]),
            ):
                costs[stage] = stage_alone(alone, work / f"alone-{stage}", stage, topics, count)
                c = costs[stage]
                print(
                    f"{stage} alone: {c.cpu_us:,.0f} µs an input event ({c.per_core:,.0f} "
                    f"events/s a core), store {c.store_us:,.0f} µs",
                    flush=True,
                )
            # 2. the baseline (`scan --store` on the same file), then one worker, then two
            scan = scan_store(traffic.path, work / "scan", count)
            print(f"scan --store: {scan.rate.events_per_second:,.0f} events/s", flush=True)
            rates: dict[int, Throughput] = {}
            for n in (1, 2):
                s = settings_for(bootstrap, f"w{n}-{os.getpid()}")
                produce(s, traffic.lines)
                rates[n] = workers(s, work / f"workers-{n}", count, n)
                print(f"{n} worker(s): {rates[n].events_per_second:,.0f} events/s", flush=True)
            # 3. latency
            paced = traffic.events[: int(args.rate * args.seconds)]
            lats: list[Latency] = []
            for k in range(args.latency_runs):
                where = work / f"latency-{k}"
                where.mkdir()
                s = settings_for(bootstrap, f"lat{k}-{os.getpid()}")
                lats.append(latency(s, where, paced, args.rate))
                q = lats[-1].percentiles
                print(
                    "latency p99: "
                    + ", ".join(f"{key} {q[key][1]:,.0f} ms" for key in (*KEYINGS, "all")),
                    flush=True,
                )
        finally:
            if broker is not None:
                broker.stop()
    command = "make bench-kafka  (python -m bench.kafka_bench " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    report = render(
        command, config, count, produced, costs, scan, rates, lats, args, began, load_at_start
    )
    write_report(args.out, report)
    print(report)
    return 0


def render(
    command: str,
    config: SimConfig,
    count: int,
    produced: float,
    costs: dict[str, StageCost],
    scan: ScanRun,
    rates: dict[int, Throughput],
    lats: list[Latency],
    args: argparse.Namespace,
    began: float,
    load_at_start: float,
) -> str:
    code = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    total_us = sum(c.cpu_us for c in costs.values())
    stage_rows = "\n".join(
        f"| {stage} | {c.cpu_us:,.0f} µs (store writer {c.store_us:,.0f} µs) | "
        f"{c.per_core:,.0f} | {c.records:,.0f} ({c.us_per_record:,.0f} µs each) | "
        f"{c.seconds:.1f} s | {c.others_cores:.2f} |"
        for stage, c in costs.items()
    )
    one, two = rates[1], rates[2]
    base = scan.rate.events_per_second
    keys = (*KEYINGS, "all", "actions")

    def cell(key: str, run: Latency) -> str:
        p50, p99, n = run.percentiles[key]
        return f"{p50:,.0f} / {p99:,.0f} ({n})" if n else "—"

    runs = sorted(lats, key=lambda r: r.percentiles["all"][1])
    mid = runs[(len(runs) - 1) // 2]
    lat_rows = "\n".join(
        f"| {key} | {cell(key, mid)} | "
        + ", ".join(f"{r.percentiles[key][1]:,.0f}" for r in lats if r.percentiles[key][2])
        + " |"
        for key in keys
    )
    met = "met" if mid.percentiles["all"][1] < TARGET_MS else "**not met**"
    peak = ", ".join(f"{k} {v:,.0f}" for k, v in sorted(mid.peak_lag.items()))
    return f"""# Kafka benchmark

Command: `{command.strip()})`, {(time.perf_counter() - began) / 60:.0f} minutes, on commit {code}
Machine: {describe_machine()}, kafka-python {kafka.__version__}; load average at start \
{load_at_start:.1f} (other engineers' jobs share the 2 cores: see "others")
Run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, single-node Kafka 4.1.1 broker on the same machine,
{PARTITIONS} partitions per topic (`<group>-keyed` as many). Traffic: `railbird simulate` seed \
{config.seed}, {config.tournaments} tournaments of {config.players_per_tournament} and \
{config.cash_tables} cash tables over {config.hours:g} h: {count:,} events, produced at \
{produced:,.0f} records/s before each run.

## Each stage alone: CPU per input event of the day

The stage's processes (the table stage's store writer included) over the time it took to
process and commit everything the stages before it sent; "others": cores other jobs on the
machine used meanwhile (outside this benchmark).

| stage | CPU per input event | input events/s a core | records read | wall time | others (cores) |
|---|---|---|---|---|---|
{stage_rows}
| **all three** | **{total_us:,.0f} µs** | **{1e6 / total_us:,.0f}** | | | |

## Throughput, every stage, pre-produced day (first record processed to everything committed)

The baseline, `railbird scan EVENTS --store` on the same file into a fresh SQLite file, ran just
before the workers (its whole wall time, start-up included; CPU from its rusage).

| run | events/s | against `scan --store` | CPU per event (all processes) | others (cores) |
|---|---|---|---|---|
| `scan --store` | {scan.rate.events_per_second:,.0f} | 1.00x \
| {scan.rate.cpu_us_per_event:,.0f} µs | {scan.rate.others_cores:.2f} |
| 1 worker | {one.events_per_second:,.0f} | {one.events_per_second / base:.2f}x \
| {one.cpu_us:,.0f} µs | {one.others_cores:.2f} |
| 2 workers | {two.events_per_second:,.0f} | {two.events_per_second / base:.2f}x \
| {two.cpu_us:,.0f} µs | {two.others_cores:.2f} |

## Produce-to-flag latency at {args.rate:,.0f} events/s ({args.rate * args.seconds:,.0f} \
events a run, {len(lats)} runs, one fresh worker each)

From the send of the newest record a flag cites to the flag's arrival on `moderation.flags`,
by the keying of the detector that raised it; "actions" from the same send to the action's
arrival. The run with the median all-flags p99 is shown, then every run's p99.

| flags of | p50 / p99 ms (flags timed), median run | p99 of each run, ms |
|---|---|---|
{lat_rows}

All flags p99 {mid.percentiles["all"][1]:,.0f} ms: target < {TARGET_MS:.0f} ms {met}. Peak lag
while sending in that run (records): {peak}; lag 3 s after the last send: \
{mid.lag_after:,.0f}.
"""


if __name__ == "__main__":
    raise SystemExit(main())
