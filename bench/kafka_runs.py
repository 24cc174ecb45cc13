"""The Kafka benchmark's timed runs: the chat workload, raw consume, one `railbird run` worker.

`bench.kafka_bench` composes them into the report; the rates come with the CPU that produced
them (every process of the worker), since on a small machine CPU, not wall time, is what a
second stage or another worker competes for.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
from kafka import KafkaConsumer, TopicPartition

from railbird.ingest.kafka.clients import make_producer
from railbird.ingest.kafka.codec import event_key
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.rules.flags import format_ts
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate
from tests.integration.net import free_port, scrape_metrics
from tests.integration.procs import tree_cpu_seconds, tree_rss_mib
from tests.integration.topics import prefixed_settings

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


# Plain table-talk words for `with_distinct_texts` (written for this benchmark).
_FILLER_TEXT = """
    the a and but so then now again today tonight really just still maybe sure okay ok yes no
    nice good great bad lucky unlucky sick cooler wow lol haha hmm well oh man guys all you me
    we they this that there here what why how when who call fold raise check bet shove jam
    limp flop turn river board pot hand hands stack chips blinds ante level break table seat
    button dealer cards pair set straight flush kings queens aces jacks tens suited gutshot
    draw outs odds read tell bluff value tilt run deep short big small early late final push
    time bank think sorry thanks ty np gl gg nh wp vnh brb back home coffee tea late night
"""
_FILLER = tuple(_FILLER_TEXT.split())


def with_distinct_texts(messages: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """The same messages, each text made (nearly always) unique by three plain words appended.

    The simulator's chat repeats itself (about a thousand distinct texts in 60,000 messages),
    so the detectors' per-text caches hit far more often than on a real room's chat; this
    stream is the other bound, where they almost never hit. The words are ordinary table talk,
    so what the detectors find stays about the same (made-up strings would take the lexicons'
    slowest paths, which real chat rarely does).
    """
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for m in messages:
        text = m.get("text")
        if isinstance(text, str) and text:
            m = {**m, "text": f"{text} {' '.join(rng.choices(_FILLER, k=3))}"}
        out.append(m)
    return out


def _when(event: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(event["ts"])


def settings_for(bootstrap: str, prefix: str) -> KafkaSettings:
    return prefixed_settings(bootstrap, prefix, PARTITIONS)


def produce(settings: KafkaSettings, messages: list[dict[str, Any]]) -> float:
    producer = make_producer(settings)
    started = time.perf_counter()
    for m in messages:
        producer.send(settings.chat_topic, key=event_key(m), value=orjson.dumps(m))
    producer.flush()
    seconds = time.perf_counter() - started
    producer.close()
    return len(messages) / seconds


def raw_consume(settings: KafkaSettings, count: int) -> Rate:
    consumer = KafkaConsumer(bootstrap_servers=settings.bootstrap_servers, max_poll_records=2000)
    tps = [TopicPartition(settings.chat_topic, p) for p in range(PARTITIONS)]
    consumer.assign(tps)
    consumer.seek_to_beginning(*tps)
    got = 0
    started, cpu = time.perf_counter(), time.process_time()  # this process: its only consumer
    while got < count:
        got += sum(len(b) for b in consumer.poll(timeout_ms=500).values())
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    consumer.close()
    return Rate(count / seconds, cpu / count * 1e6, cpu / seconds)


def warm_broker(settings: KafkaSettings, workdir: Path, count: int) -> None:
    """One raw consume and one worker run, not measured: a broker just started runs its
    fetch and produce paths in the JVM's interpreter and first JIT tier for a while, spending
    CPU that on a small machine is taken from whatever is being measured; a production broker
    has been up for days."""
    raw_consume(settings, count)
    where = workdir / "warm-up"
    where.mkdir()
    worker_rate(settings.model_copy(update={"group_id": f"{settings.group_id}-warm"}), where, count)


def median_rate(samples: list[Rate]) -> Rate:
    """The sample with the median events/s (the middle one of an odd count): a baseline that
    one lucky or unlucky sample cannot move."""
    if not samples:
        raise ValueError("no samples")
    return sorted(samples, key=lambda r: r.events_per_second)[(len(samples) - 1) // 2]


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


@dataclass(frozen=True)
class Rate:
    """A timed run: events/s, and the CPU all of the worker's processes spent meanwhile."""

    events_per_second: float
    cpu_us_per_event: float  # both stages and their store writers, start-up excluded
    cores: float  # CPU seconds per wall second over the timed span
    peak_rss_mib: float = 0.0  # the worker's processes together, sampled while it ran


def worker_rate(settings: KafkaSettings, workdir: Path, count: int, *args: str) -> Rate:
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
    first: tuple[float, float, float] | None = None  # wall time, records done, CPU seconds
    peak = 0.0
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
            peak = max(peak, tree_rss_mib(worker.pid))
            if done and first is None:
                first = (now, done, tree_cpu_seconds(worker.pid))
            if (
                done >= count
                and first is not None
                and all(committed(settings, g) >= count for g in groups.values())
            ):
                seconds, cpu = time.perf_counter() - first[0], tree_cpu_seconds(worker.pid)
                events = count - first[1]
                spent = cpu - first[2]
                if events <= 0:
                    raise RuntimeError(
                        f"the worker had done all {count} records by the first sample: too few "
                        f"to time (use more messages)"
                    )
                return Rate(events / seconds, spent / events * 1e6, spent / seconds, peak)
            if worker.poll() is not None:
                raise RuntimeError(f"worker exited: {(workdir / 'worker.log').read_text()[-2000:]}")
            time.sleep(0.05 if done < count else 0.01)
    finally:
        for group in groups.values():
            group.close(autocommit=False)
        worker.send_signal(signal.SIGTERM)
        worker.wait(60)
