"""`railbird run`: one Kafka worker; start as many as there are partitions to share.

It runs both stages (`ingest.kafka_stages`) by default, each on its own thread with its own
consumer group, sharing the producer and the store process; `--stage` (or
`RAILBIRD_KAFKA_STAGE`) runs one, to split them across processes.
"""

from __future__ import annotations

import argparse
import functools
import logging
import signal
import sys
import threading
from types import FrameType

from detectors.registry import DETECTOR_TYPES, build_detectors
from ingest.kafka_clients import (
    TopicLayoutError,
    check_copartitioned,
    make_producer,
    warm_up,
)
from ingest.kafka_metrics import WorkerMetrics, serve_metrics
from ingest.kafka_settings import KafkaSettings
from ingest.kafka_stages import (
    StageName,
    chosen_stages,
    make_stage_consumer,
    run_in_threads,
    stage_detectors,
)
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
    try:
        stages = chosen_stages(getattr(args, "stage", None) or settings.stage)
    except ValueError as exc:
        print(f"railbird run: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    detectors = build_detectors(only=only)
    # A stage none of the chosen detectors belongs to is not run (`RAILBIRD_KAFKA_DETECTORS`).
    by_stage = {stage: stage_detectors(detectors, stage) for stage in stages}
    by_stage = {stage: found for stage, found in by_stage.items() if found} or {
        stages[0]: []  # no detectors at all: the framework alone, for the benchmark
    }
    consumers = {stage: make_stage_consumer(settings, stage) for stage in by_stage}
    try:
        partitions = check_copartitioned(next(iter(consumers.values())), settings.input_topics)
    except TopicLayoutError as exc:
        for consumer in consumers.values():
            consumer.close()
        if store is not None:
            store.close()
        print(f"railbird run: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    producer = make_producer(settings)
    warm_up(producer, (settings.flags_topic, settings.actions_topic))
    metrics = {stage: WorkerMetrics(stage) for stage in by_stage}
    server = (
        serve_metrics(list(metrics.values()), settings.metrics_host, settings.metrics_port)
        if settings.metrics_port
        else None
    )
    stop = threading.Event()

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        log.info("signal %d: finishing the batch, committing, exiting", signum)
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    # One producer and one store process serve both stages (both are thread-safe).
    workers = {
        stage: KafkaWorker(
            settings,
            Pipeline(found),
            consumers[stage],
            producer,
            store,
            metrics[stage],
            stage=stage,
        )
        for stage, found in by_stage.items()
    }
    tune_for_streaming()
    log.info(
        "railbird run: stages %s (groups %s), %d partitions per topic, %s",
        ", ".join(by_stage),
        ", ".join(_group(settings, stage) for stage in by_stage),
        partitions,
        ", ".join(settings.input_topics),
    )
    exit_when_idle = getattr(args, "exit_when_idle", None)
    try:
        run_in_threads(
            {
                stage: functools.partial(worker.run, stop, exit_when_idle=exit_when_idle)
                for stage, worker in workers.items()
            },
            stop,
        )
    finally:
        if store is not None:
            store.close()  # also after a failure: the child must not outlive the worker
        producer.flush()
        producer.close()
        for consumer in consumers.values():
            consumer.close(autocommit=False)
        if server is not None:
            server.shutdown()
    for stage, stage_metrics in metrics.items():
        print(f"railbird run ({stage} stage): {stage_metrics.summary()}", file=sys.stderr)  # noqa: T201
    return 0


def _group(settings: KafkaSettings, stage: StageName) -> str:
    return settings.group_id if stage == "tables" else settings.site_group_id
