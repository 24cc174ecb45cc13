"""`railbird run`: one Kafka worker; start as many as there are partitions to share."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from types import FrameType

from detectors.registry import DETECTOR_TYPES, build_detectors
from ingest.kafka_clients import (
    TopicLayoutError,
    check_copartitioned,
    make_consumer,
    make_producer,
    warm_up,
)
from ingest.kafka_metrics import WorkerMetrics, serve_metrics
from ingest.kafka_settings import KafkaSettings
from ingest.kafka_worker import KafkaWorker
from ingest.store_process import StoreProcess
from railbird.gc_tuning import tune_for_streaming
from rules.pipeline import Pipeline
from store.database import make_engine, migrate
from store.settings import StoreSettings

log = logging.getLogger(__name__)


def run_worker(args: argparse.Namespace) -> int:
    settings = KafkaSettings()
    only = settings.detector_names()
    unknown = (only or set()) - {t.name for t in DETECTOR_TYPES}
    if unknown:
        print(f"railbird run: unknown detectors {sorted(unknown)}", file=sys.stderr)  # noqa: T201
        return 2
    if getattr(args, "metrics_port", None) is not None:
        settings.metrics_port = args.metrics_port
    store = None
    if not getattr(args, "no_store", False):
        database_url = StoreSettings().database_url
        engine = make_engine(database_url)
        migrate(engine)
        engine.dispose()
        # The store writes in its own process, off the worker's core (see ingest.store_process).
        store = StoreProcess(database_url)
    consumer = make_consumer(settings)
    try:
        partitions = check_copartitioned(consumer, settings.input_topics)
    except TopicLayoutError as exc:
        consumer.close()
        if store is not None:
            store.close()
        print(f"railbird run: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    producer = make_producer(settings)
    warm_up(producer, (settings.flags_topic, settings.actions_topic))
    metrics = WorkerMetrics()
    server = (
        serve_metrics(metrics, settings.metrics_host, settings.metrics_port)
        if settings.metrics_port
        else None
    )
    stop = threading.Event()

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        log.info("signal %d: finishing the batch, committing, exiting", signum)
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    worker = KafkaWorker(
        settings,
        Pipeline(build_detectors(only=only)),
        consumer,
        producer,
        store,
        metrics,
    )
    tune_for_streaming()
    log.info(
        "railbird run: group %s, %d partitions per topic, %s",
        settings.group_id,
        partitions,
        ", ".join(settings.input_topics),
    )
    try:
        worker.run(stop, exit_when_idle=getattr(args, "exit_when_idle", None))
    finally:
        if store is not None:
            store.close()  # also after a failure: the child must not outlive the worker
        producer.flush()
        producer.close()
        consumer.close(autocommit=False)
        if server is not None:
            server.shutdown()
    print(f"railbird run: {metrics.summary()}", file=sys.stderr)  # noqa: T201
    return 0
