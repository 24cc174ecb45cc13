"""One stage of `railbird run` in this process: its consumer, store, producer and worker loop.

Here rather than in the command so that the site stage's child process (`site_process`) runs
the very same loop without importing the command line.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType

from kafka.errors import KafkaError

from railbird.detectors.detector import Detector
from railbird.ingest.gc_tuning import tune_for_streaming
from railbird.ingest.kafka.clients import (
    TopicLayoutError,
    check_copartitioned,
    make_producer,
    unreachable,
)
from railbird.ingest.kafka.internals import warm_up
from railbird.ingest.kafka.metrics import StageSamples, WorkerMetrics, serve_metrics
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.kafka.site_process import SiteStageProcess
from railbird.ingest.kafka.stages import (
    StageName,
    make_stage_consumer,
)
from railbird.ingest.kafka.worker import KafkaWorker
from railbird.rules.pipeline import Pipeline
from railbird.store.settings import StoreSettings
from railbird.store.writer_process import StoreProcess

log = logging.getLogger(__name__)

# Called with the stage's metrics once they exist (the site child publishes them to its parent).
MetricsHook = Callable[[WorkerMetrics], None]


def run_stage(
    args: argparse.Namespace,
    settings: KafkaSettings,
    stage_and_detectors: tuple[StageName, list[Detector]],
    *,
    site: SiteStageProcess | None = None,
    stop: threading.Event | None = None,
    on_metrics: MetricsHook | None = None,
) -> int:
    """Run one stage in this process until stopped (or idle); `site`, the other stage's child
    process, is watched (its failure stops this one) and its metrics served with ours."""
    stage, detectors = stage_and_detectors
    try:
        consumer = make_stage_consumer(settings, stage)
    except KafkaError as exc:
        print(f"railbird run ({stage} stage): {unreachable(settings, exc)}", file=sys.stderr)  # noqa: T201
        return 2
    try:
        partitions = check_copartitioned(consumer, settings.input_topics)
    except TopicLayoutError as exc:
        consumer.close()
        print(f"railbird run: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    store = _start_store() if not getattr(args, "no_store", False) else None
    producer = make_producer(settings)
    warm_up(producer, (settings.flags_topic, settings.actions_topic))
    metrics = WorkerMetrics(stage)
    if on_metrics is not None:
        on_metrics(metrics)
    served: list[StageSamples] = [metrics, *([site.metrics] if site is not None else [])]
    server = (
        serve_metrics(served, settings.metrics_host, settings.metrics_port)
        if settings.metrics_port
        else None
    )
    stop = stop or threading.Event()

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        log.info("signal %d: finishing the batch, committing, exiting", signum)
        stop.set()
        if site is not None:
            site.stop()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    if site is not None:
        site.on_failure(stop.set)
    worker = KafkaWorker(
        settings, Pipeline(detectors), consumer, producer, store, metrics, stage=stage
    )
    tune_for_streaming()
    log.info(
        "railbird run: %s stage (group %s), %d partitions per topic, %s",
        stage,
        settings.group_id if stage == "tables" else settings.site_group_id,
        partitions,
        ", ".join(settings.input_topics),
    )
    exit_when_idle = getattr(args, "exit_when_idle", None)
    try:
        worker.run(stop, exit_when_idle=exit_when_idle)
    finally:
        if store is not None:
            store.close()  # also after a failure: the child must not outlive the worker
        producer.flush()
        producer.close()
        consumer.close(autocommit=False)
        if server is not None:
            server.shutdown()
    print(f"railbird run ({stage} stage): {metrics.summary()}", file=sys.stderr)  # noqa: T201
    return 1 if site is not None and site.failed() else 0


def _start_store() -> StoreProcess:
    # The store writes in its own process, off the worker's core (see store.writer_process).
    return StoreProcess(StoreSettings().database_url)
