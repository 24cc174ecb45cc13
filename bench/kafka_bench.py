"""Kafka benchmark (`make bench-kafka`): raw consume vs `railbird run`, and produce-to-flag latency.

One run on this machine, against a fresh single-node broker (or `--bootstrap`):
1. raw kafka-python consume rate of the chat topic, no processing;
2. `railbird run` end to end (decode, every registered detector, rules, SQLite store, flags out,
   commit) on the same records, with and without the store, and the ratio to (1), timed from
   the first record processed to the last one committed (so stored); by default a worker runs
   both stages (`ingest.kafka_stages`), so also `--stage tables` alone (what scales out with
   more workers) and `--stage site` alone (one owner reads the whole stream);
   and with no detectors at all (`RAILBIRD_KAFKA_DETECTORS=none`): the worker's own overhead
   (Kafka, decoding, merge, store, commits), separated from the detectors' cost;
3. produce-to-flag latency at a paced rate: from sending a chat message to its flag arriving on
   `moderation.flags`, p50 / p99.
Results go to docs/benchmarks-kafka.md with the command and the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import kafka
import orjson
from kafka import KafkaConsumer, TopicPartition

from detectors.detector import detector_scope
from detectors.registry import DETECTOR_TYPES
from ingest.kafka_clients import make_producer, warm_up
from ingest.kafka_codec import event_key
from ingest.kafka_settings import KafkaSettings
from rules.flags import format_ts
from sim.config import SimConfig
from sim.run import simulate
from tests.integration.kafka_broker import create_topics, start_broker
from tests.integration.net import free_port, scrape_metrics

REPO = Path(__file__).resolve().parents[1]
RAILBIRD = REPO / ".venv" / "bin" / "railbird"
PARTITIONS = 6


def chat_messages(count: int, seed: int) -> list[dict[str, Any]]:
    """Realistic chat (with the simulator's violations), repeated with fresh ids up to `count`."""
    config = SimConfig(
        seed=seed, tournaments=2, cash_tables=4, hours=2.0, players_per_tournament=90
    )
    base = [e for kind, e in simulate(config) if kind == "event" and e["type"] == "chat"]
    out: list[dict[str, Any]] = []
    span = _when(base[-1]) - _when(base[0]) + timedelta(minutes=1)
    for rep in range(count // len(base) + 1):
        # Later rounds: fresh players and message ids, and later times, so a repeat reads as
        # new traffic (not as one spammer, and not as time running backwards).
        out.extend(
            {
                **e,
                "message_id": f"{e['message_id']}-r{rep}",
                "player_id": f"{e['player_id']}-r{rep}",
                "ts": format_ts(_when(e) + rep * span),
            }
            for e in base
        )
    return out[:count]


def _when(event: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(event["ts"])


def settings_for(bootstrap: str, prefix: str) -> KafkaSettings:
    s = KafkaSettings(
        bootstrap_servers=bootstrap,
        group_id=f"{prefix}-railbird",
        chat_topic=f"{prefix}.chat.messages",
        table_topic=f"{prefix}.poker.table-events",
        hand_topic=f"{prefix}.poker.hands",
        flags_topic=f"{prefix}.moderation.flags",
        actions_topic=f"{prefix}.moderation.actions",
    )
    inputs = list(s.input_topics)
    topics = [*inputs, *(s.dlq_topic(t) for t in inputs), s.flags_topic, s.actions_topic]
    create_topics(bootstrap, topics, partitions=PARTITIONS)
    return s


def produce(settings: KafkaSettings, messages: list[dict[str, Any]]) -> float:
    producer = make_producer(settings)
    started = time.perf_counter()
    for m in messages:
        producer.send(settings.chat_topic, key=event_key(m), value=orjson.dumps(m))
    producer.flush()
    seconds = time.perf_counter() - started
    producer.close()
    return len(messages) / seconds


def raw_consume(settings: KafkaSettings, count: int) -> float:
    consumer = KafkaConsumer(bootstrap_servers=settings.bootstrap_servers, max_poll_records=2000)
    tps = [TopicPartition(settings.chat_topic, p) for p in range(PARTITIONS)]
    consumer.assign(tps)
    consumer.seek_to_beginning(*tps)
    got = 0
    started = time.perf_counter()
    while got < count:
        got += sum(len(b) for b in consumer.poll(timeout_ms=500).values())
    seconds = time.perf_counter() - started
    consumer.close()
    return count / seconds


def start_worker(settings: KafkaSettings, workdir: Path, port: int, *args: str) -> Any:
    env = {**os.environ, "RAILBIRD_DATABASE_URL": f"sqlite:///{workdir / 'store.db'}"}
    env.update({f"RAILBIRD_KAFKA_{k.upper()}": str(v) for k, v in settings.model_dump().items()})
    log = (workdir / "worker.log").open("wb")
    return subprocess.Popen(
        [str(RAILBIRD), "run", "--metrics-port", str(port), *args],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def committed(settings: KafkaSettings, consumer: KafkaConsumer) -> int:
    """Chat records the worker's group has committed: stored, flags flushed, offsets durable."""
    tps = [TopicPartition(settings.chat_topic, p) for p in range(PARTITIONS)]
    return sum(consumer.committed(tp) or 0 for tp in tps)


def stages_of(settings: KafkaSettings) -> dict[str, str]:
    """The stages a worker with `settings` runs, each with its consumer group (a stage without
    detectors is not run: `RAILBIRD_KAFKA_DETECTORS=none` runs the table stage alone)."""
    groups = {"tables": settings.group_id, "site": settings.site_group_id}
    chosen = list(groups) if settings.stage == "all" else [settings.stage]
    if settings.detectors == "none":
        chosen = chosen[:1]
    return {stage: groups[stage] for stage in chosen}


def worker_rate(settings: KafkaSettings, workdir: Path, count: int, *args: str) -> float:
    """Events/s from the first processed record to the last one *committed* (so stored: the
    store runs in its own process and may trail the worker's processing by a few batches),
    by every stage the worker runs: each of them reads every record."""
    port = free_port()
    worker = start_worker(settings, workdir, port, *args)
    stages = stages_of(settings)
    groups = {
        stage: KafkaConsumer(
            bootstrap_servers=settings.bootstrap_servers, group_id=group, enable_auto_commit=False
        )
        for stage, group in stages.items()
    }
    first: tuple[float, float] | None = None
    try:
        while True:
            m = scrape_metrics(port)
            done = min(
                sum(
                    v
                    for k, v in m.items()
                    if k.startswith(f'railbird_kafka_records_total{{stage="{stage}"')
                )
                for stage in stages
            )
            now = time.perf_counter()
            if done and first is None:
                first = (now, done)
            if (
                done >= count
                and first is not None
                and all(committed(settings, g) >= count for g in groups.values())
            ):
                return (count - first[1]) / (time.perf_counter() - first[0])
            if worker.poll() is not None:
                raise RuntimeError(f"worker exited: {(workdir / 'worker.log').read_text()[-2000:]}")
            time.sleep(0.05 if done < count else 0.01)
    finally:
        for group in groups.values():
            group.close(autocommit=False)
        worker.send_signal(signal.SIGTERM)
        worker.wait(60)


Percentiles = tuple[float, float, int]  # p50 ms, p99 ms, flags timed
STAGE_OF_DETECTOR = {
    t.name: "site" if detector_scope(t) == "site" else "tables" for t in DETECTOR_TYPES
}


def latency(
    settings: KafkaSettings, workdir: Path, messages: list[dict[str, Any]], rate: float
) -> tuple[dict[str, Percentiles], float]:
    """Produce-to-flag percentiles of each stage's flags, and the worker's lag at the end,
    producing `rate` messages/s (the site stage holds live records: see kafka_merge)."""
    port = free_port()
    worker = start_worker(settings, workdir, port)
    try:
        deadline = time.monotonic() + 60
        # Both stages own every partition (one worker): 18 each.
        while sum(k.startswith("railbird_kafka_consumer_lag{") for k in scrape_metrics(port)) < 36:
            assert time.monotonic() < deadline, "worker never got its partitions"
            time.sleep(0.1)
        sent: dict[str, float] = {}
        arrived: list[tuple[float, list[str], str]] = []
        stop = threading.Event()

        def watch() -> None:
            consumer = KafkaConsumer(bootstrap_servers=settings.bootstrap_servers)
            tps = [TopicPartition(settings.flags_topic, p) for p in range(PARTITIONS)]
            consumer.assign(tps)
            consumer.seek_to_end(*tps)
            while not stop.is_set():
                for batch in consumer.poll(timeout_ms=50).values():
                    now = time.time()
                    flags = [orjson.loads(r.value) for r in batch]
                    arrived.extend(
                        (now, f["message_ids"], STAGE_OF_DETECTOR[f["detector"]]) for f in flags
                    )
            consumer.close()

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        time.sleep(1.0)
        producer = make_producer(settings, linger_ms=0)
        # The first send would block on the topic's metadata: not part of produce-to-flag.
        warm_up(producer, [settings.chat_topic])
        started = time.perf_counter()
        for i, m in enumerate(messages):
            delay = started + i / rate - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            sent[m["message_id"]] = time.time()
            producer.send(settings.chat_topic, key=event_key(m), value=orjson.dumps(m))
        producer.flush()
        producer.close()
        time.sleep(3.0)
        stop.set()
        watcher.join(5)
        lag = sum(
            v for k, v in scrape_metrics(port).items() if k.startswith("railbird_kafka_consumer_l")
        )
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(60)
    by_stage: dict[str, Percentiles] = {}
    for stage in ("tables", "site"):
        waits = sorted(
            (at - max(sent[i] for i in ids)) * 1000
            for at, ids, of in arrived
            if of == stage and ids and all(i in sent for i in ids)
        )
        by_stage[stage] = (
            (waits[len(waits) // 2], waits[min(len(waits) - 1, int(len(waits) * 0.99))], len(waits))
            if waits
            else (float("nan"), float("nan"), 0)
        )
    return by_stage, lag


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap", help="use this broker instead of starting one")
    # Enough for the worker's end-to-end rate (first record -> last one committed) not to be
    # dominated by start-up and the final commit; more than 5,000 a partition, so the merge's
    # fetch pausing is exercised too.
    parser.add_argument("--messages", type=int, default=60000)
    parser.add_argument("--rate", type=float, default=1000.0)
    parser.add_argument("--seconds", type=float, default=20.0, help="latency phase length")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "benchmarks-kafka.md")
    args = parser.parse_args(argv)
    host = machine()
    with tempfile.TemporaryDirectory(prefix="kafka-bench-") as tmp:
        work = Path(tmp)
        broker = None if args.bootstrap else start_broker(work / "broker")
        bootstrap = args.bootstrap or (broker.bootstrap if broker else "")
        try:
            messages = chat_messages(args.messages + int(args.rate * args.seconds), seed=5)
            bulk, paced = messages[: args.messages], messages[args.messages :]
            s = settings_for(bootstrap, f"bench{os.getpid()}")
            produced = produce(s, bulk)
            print(f"produce {produced:,.0f} msgs/s", flush=True)
            raw = raw_consume(s, len(bulk))
            print(f"raw consume {raw:,.0f} msgs/s", flush=True)
            (work / "a").mkdir()
            stored = worker_rate(s, work / "a", len(bulk))
            print(f"railbird run {stored:,.0f} events/s", flush=True)
            s5 = s.model_copy(update={"group_id": s.group_id + "-tables", "stage": "tables"})
            (work / "f").mkdir()
            tables = worker_rate(s5, work / "f", len(bulk))
            print(f"railbird run, --stage tables {tables:,.0f} events/s", flush=True)
            s6 = s.model_copy(update={"group_id": s.group_id + "-site", "stage": "site"})
            (work / "g").mkdir()
            site = worker_rate(s6, work / "g", len(bulk))
            print(f"railbird run, --stage site {site:,.0f} events/s", flush=True)
            s2 = s.model_copy(update={"group_id": s.group_id + "-nostore"})
            (work / "b").mkdir()
            nostore = worker_rate(s2, work / "b", len(bulk), "--no-store")
            print(f"railbird run --no-store {nostore:,.0f} events/s", flush=True)
            s3 = s.model_copy(update={"group_id": s.group_id + "-bare", "detectors": "none"})
            (work / "d").mkdir()
            bare = worker_rate(s3, work / "d", len(bulk))
            print(f"railbird run, no detectors {bare:,.0f} events/s", flush=True)
            s4 = s.model_copy(update={"group_id": s.group_id + "-bare-ns", "detectors": "none"})
            (work / "e").mkdir()
            bare_ns = worker_rate(s4, work / "e", len(bulk), "--no-store")
            print(f"railbird run, no detectors, --no-store {bare_ns:,.0f} events/s", flush=True)
            (work / "c").mkdir()
            lat, lag = latency(
                settings_for(bootstrap, f"lat{os.getpid()}"), work / "c", paced, args.rate
            )
        finally:
            if broker is not None:
                broker.stop()
    command = "make bench-kafka  (python -m bench.kafka_bench " + " ".join(argv or sys.argv[1:])
    rates = "\n".join(
        f"| {label} | {rate:,.0f} events/s ({rate / raw:.1%} of raw consume) |"
        for label, rate in (
            ("`railbird run` (both stages: what one worker does), SQLite store", stored),
            ("`--stage tables` (the part more workers share), SQLite store", tables),
            ("`--stage site` (one owner, whole stream), SQLite store", site),
            ("`railbird run` (both stages), `--no-store`", nostore),
            ("framework overhead: no detectors (one stage), SQLite store", bare),
            ("framework overhead: no detectors (one stage), `--no-store`", bare_ns),
        )
    )
    hold = KafkaSettings().site_merge_hold_ms
    (t50, t99, tn), (s50, s99, sn) = lat["tables"], lat["site"]
    at = f"produce-to-flag latency at {args.rate:,.0f} msgs/s"
    latency_rows = "\n".join(
        [
            f"| {at}, table-stage flags, p50 | {t50:,.0f} ms |",
            f"| {at}, table-stage flags, p99 | {t99:,.0f} ms (target < 250 ms) |",
            f"| {at}, site-stage flags (held {hold:,} ms), p50 / p99 "
            f"| {s50:,.0f} / {s99:,.0f} ms |",
            f"| flags timed (tables / site) / worker lag after the paced phase "
            f"| {tn} / {sn} / {lag:,.0f} records |",
        ]
    )
    split = f"{1e6 / bare:,.0f} µs / {1e6 / tables - 1e6 / bare:,.0f} µs"
    report = f"""# Kafka benchmark

Command: `{command.strip()})`
Machine: {host}
Run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, single-node Kafka 4.1.1 broker on the same machine,
{PARTITIONS} partitions per topic, one `railbird run` worker, {len(bulk):,} simulated chat messages.

| measure | value |
|---|---|
| produce (`railbird produce` settings) | {produced:,.0f} msgs/s |
| raw kafka-python consume, chat topic, no processing | {raw:,.0f} msgs/s |
{rates}
| per event, table stage: worker overhead (no detectors, store) / detectors + rules | {split} |
{latency_rows}
"""
    # The hand-written reading below the table survives a re-run.
    old = args.out.read_text() if args.out.exists() else ""
    reading = old[old.find("\n## Reading it") :] if "\n## Reading it" in old else ""
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report + reading)
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
