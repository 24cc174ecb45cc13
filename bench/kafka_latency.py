"""The latency phase of the Kafka benchmark: produce-to-flag time at a paced rate, per stage.

Apart from `bench.kafka_bench` because it is its own experiment: one worker, the simulator's
mixed traffic (chat, table events, hand histories) sent at a fixed rate instead of all at once,
each record to its type's topic as `railbird produce` sends it, and a consumer on
`moderation.flags` timing each flag two ways:
- from the send of the newest message it names (`message_ids`), as the benchmark always has;
- from the send of the newest record it cites at all (`message_ids` and `evidence.event_ids`:
  chat, table events and hands), the record that let the flag be raised. A flag about a
  message read against its hand (`in_hand_influence`) is raised when the hand ends, and a
  coordinated sit-out when the episode is complete: at 1,000 events/s the simulated day runs
  ~175x faster than real time, so the first timing counts a minute of the hand's play as
  ~0.35 s of "latency" that no pipeline could avoid.
Flags that cite nothing that was sent are counted, not timed. Flags are reported by the keying
of the detector that raised them (`ingest.kafka.topology`): "table" (the table stage reads
them as they come), "hand" (the table stage's hand lane, which waits for the players tasks'
marks: a join away), "tournament" and "text" (the keyed stage: a re-keying away). The same
consumer reads `moderation.actions`: an action is timed from the same send as its newest flag
(by cited record; the escalation stage decides it once every source's mark has passed the
offence). While the records are sent, the worker's consumer lag and the records waiting in
each stage's merges and lanes are sampled every 0.25 s: their peaks say whether the worker
kept up or queued (both are updated once a batch, so a batch in progress is not seen).
"""

from __future__ import annotations

import re
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from kafka import KafkaConsumer, TopicPartition

from bench.kafka_runs import PARTITIONS, start_worker
from railbird.detectors.detector import KEYINGS, keying
from railbird.detectors.registry import DETECTOR_TYPES
from railbird.ingest.kafka.clients import make_producer
from railbird.ingest.kafka.codec import event_key, seq_header
from railbird.ingest.kafka.internals import warm_up
from railbird.ingest.kafka.settings import KafkaSettings
from tests.integration.net import free_port, scrape_metrics

Percentiles = tuple[float, float, int]  # p50 ms, p99 ms, flags timed
STAGE_OF_DETECTOR: dict[str, str] = {t.name: keying(t) for t in DETECTOR_TYPES}


def _percentiles(waits: list[float]) -> Percentiles:
    waits = sorted(waits)
    if not waits:
        return (float("nan"), float("nan"), 0)
    return (waits[len(waits) // 2], waits[min(len(waits) - 1, int(len(waits) * 0.99))], len(waits))


@dataclass
class Latency:
    """What the paced phase measured (percentiles by key: each keying and "all" by cited
    record; the same with "-named" by named message; "actions")."""

    percentiles: dict[str, Percentiles]
    lag_after: float  # records behind, every stage, 3 s after the last send
    # The most records behind while sending, by stage; "merge:<stage>": the most fetched but
    # still waiting in the stage's event-time merge.
    peak_lag: dict[str, float]
    untimed: int  # flags citing nothing that was sent


def _record_id(event: dict[str, Any]) -> str | None:
    key = {"chat": "message_id", "table": "event_id", "hand": "hand_id"}.get(event["type"], "")
    found = event.get(key)
    return found if isinstance(found, str) else None


def latency(
    settings: KafkaSettings, workdir: Path, events: list[dict[str, Any]], rate: float
) -> Latency:
    """Produce-to-flag percentiles of each keying's flags and produce-to-action ones, producing
    `rate` events/s."""
    port = free_port()
    worker = start_worker(settings, workdir, port)
    try:
        deadline = time.monotonic() + 90
        # Every stage owns all its partitions (one worker): the table stage the inputs and the
        # joined private messages, the keyed stage the re-keyed topic, the ladders theirs.
        wanted = 4 * PARTITIONS + PARTITIONS + PARTITIONS

        def owned() -> int:
            return sum(
                1
                for k in scrape_metrics(port)
                if k.startswith("railbird_kafka_assigned_partition{")
            )

        while owned() < wanted:
            assert time.monotonic() < deadline, "worker never got its partitions"
            time.sleep(0.1)
        sent: dict[str, float] = {}
        # arrived, named message ids, cited record ids, stage, flag id
        flags: list[tuple[float, list[str], list[str], str, str]] = []
        actions: list[tuple[float, list[str]]] = []  # arrived, flag ids
        peak_lag: dict[str, float] = {}
        stop, sending = threading.Event(), threading.Event()

        def watch() -> None:
            consumer = KafkaConsumer(bootstrap_servers=settings.bootstrap_servers)
            tps = [
                TopicPartition(topic, p)
                for topic in (settings.flags_topic, settings.actions_topic)
                for p in range(PARTITIONS)
            ]
            consumer.assign(tps)
            consumer.seek_to_end(*tps)
            while not stop.is_set():
                for tp, batch in consumer.poll(timeout_ms=50).items():
                    now = time.time()
                    records = [orjson.loads(r.value) for r in batch]
                    if tp.topic == settings.actions_topic:
                        actions.extend((now, a["flag_ids"]) for a in records)
                        continue
                    flags.extend(
                        (
                            now,
                            f["message_ids"],
                            [*f["message_ids"], *f["evidence"].get("event_ids", [])],
                            STAGE_OF_DETECTOR[f["detector"]],
                            f["flag_id"],
                        )
                        for f in records
                    )
            consumer.close()

        def sample_lag() -> None:
            while not sending.wait(0.25):
                lags: dict[str, float] = {}
                for k, v in scrape_metrics(port).items():
                    for metric, prefix in (("consumer_lag", ""), ("buffered_records", "merge:")):
                        if k.startswith(f"railbird_kafka_{metric}{{"):
                            stage = prefix + _label(k, "stage")
                            lags[stage] = lags.get(stage, 0.0) + v
                for stage, lag in lags.items():
                    peak_lag[stage] = max(peak_lag.get(stage, 0.0), lag)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        time.sleep(1.0)
        producer = make_producer(settings, linger_ms=0)
        # The first send would block on the topic's metadata: not part of produce-to-flag.
        warm_up(producer, settings.input_topics)
        sampler = threading.Thread(target=sample_lag, daemon=True)
        sampler.start()
        started = time.perf_counter()
        for seq, e in enumerate(events):
            delay = started + seq / rate - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            topic = settings.topic_for_type(e["type"])
            assert topic is not None, e["type"]
            record_id = _record_id(e)
            if record_id is not None:
                sent.setdefault(record_id, time.time())
            producer.send(topic, key=event_key(e), value=orjson.dumps(e), headers=seq_header(seq))
        producer.flush()
        producer.close()
        sending.set()
        sampler.join(5)
        time.sleep(3.0)
        stop.set()
        watcher.join(5)
        lag = sum(
            v for k, v in scrape_metrics(port).items() if k.startswith("railbird_kafka_consumer_l")
        )
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(60)
    # A flag re-sent (its severity rose) is timed at each arrival; its basis for the actions
    # is the newest record it cited in any of them.
    basis: dict[str, float] = {}
    waits: dict[str, list[float]] = {
        f"{stage}{how}": [] for stage in (*KEYINGS, "all") for how in ("", "-named")
    }
    untimed = 0
    for at, named, cited, stage, flag_id in flags:
        known = [sent[i] for i in cited if i in sent]
        if not known:
            untimed += 1
            continue
        newest = max(known)
        basis[flag_id] = max(basis.get(flag_id, 0.0), newest)
        for key in (stage, "all"):
            waits[key].append((at - newest) * 1000)
            if named and all(i in sent for i in named):
                waits[f"{key}-named"].append((at - max(sent[i] for i in named)) * 1000)
    percentiles = {key: _percentiles(w) for key, w in waits.items()}
    percentiles["actions"] = _percentiles(
        [
            (at - max(basis[f] for f in flag_ids)) * 1000
            for at, flag_ids in actions
            if flag_ids and all(f in basis for f in flag_ids)
        ]
    )
    return Latency(percentiles, lag, peak_lag, untimed)


def _label(sample: str, name: str) -> str:
    """A label's value in a scraped sample name (`metric{a="x",b="y"}`)."""
    found = re.search(rf'[{{,]{name}="([^"]*)"', sample)
    return found.group(1) if found else ""
