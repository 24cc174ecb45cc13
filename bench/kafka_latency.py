"""The latency phase of the Kafka benchmark: produce-to-flag time at a paced rate, per stage.

Apart from `bench.kafka_bench` because it is its own experiment: one worker, chat sent at a
fixed rate instead of all at once, and a consumer on `moderation.flags` timing each flag from
the send of the newest message it names. The site stage holds live records for a moment (see
`ingest.kafka.merge`), so its flags are reported apart from the table stage's.
"""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path
from typing import Any

import orjson
from kafka import KafkaConsumer, TopicPartition

from bench.kafka_runs import PARTITIONS, start_worker
from railbird.detectors.detector import detector_scope
from railbird.detectors.registry import DETECTOR_TYPES
from railbird.ingest.kafka.clients import make_producer
from railbird.ingest.kafka.codec import event_key
from railbird.ingest.kafka.internals import warm_up
from railbird.ingest.kafka.settings import KafkaSettings
from tests.integration.net import free_port, scrape_metrics

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
        owned = "railbird_kafka_assigned_partition{"
        while sum(k.startswith(owned) for k in scrape_metrics(port)) < 36:
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
    for stage in ("tables", "site", "all"):
        waits = sorted(
            (at - max(sent[i] for i in ids)) * 1000
            for at, ids, of in arrived
            if stage in (of, "all") and ids and all(i in sent for i in ids)
        )
        by_stage[stage] = (
            (waits[len(waits) // 2], waits[min(len(waits) - 1, int(len(waits) * 0.99))], len(waits))
            if waits
            else (float("nan"), float("nan"), 0)
        )
    return by_stage, lag
