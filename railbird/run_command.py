"""`railbird run`: one Kafka worker; start as many as there are partitions to share.

It runs both stages (`ingest.kafka_stages`) by default: the table stage in this process and the
site stage in a child process (`railbird.site_process`), so that the two CPU-bound loops use two
cores instead of taking turns on one interpreter lock. `--stage` (or `RAILBIRD_KAFKA_STAGE`)
runs one stage only, to place them on different machines.
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

from detectors.detector import Detector
from detectors.registry import DETECTOR_TYPES, build_detectors
from ingest.kafka_clients import (
    TopicLayoutError,
    check_copartitioned,
    make_producer,
    unreachable,
    warm_up,
)
from ingest.kafka_metrics import StageSamples, WorkerMetrics, serve_metrics
from ingest.kafka_settings import KafkaSettings
from ingest.kafka_stages import (
    StageName,
    chosen_stages,
    make_stage_consumer,
    stage_detectors,
)
from ingest.kafka_worker import KafkaWorker
from ingest.store_process import StoreProcess
from railbird.gc_tuning import tune_for_streaming
from railbird.site_process import SiteStageProcess
from rules.pipeline import Pipeline
from store.database import make_engine, migrate
from store.settings import StoreSettings

log = logging.getLogger(__name__)

# Called with the stage's metrics once they exist (the site child publishes them to its parent).
MetricsHook = Callable[[WorkerMetrics], None]


def run_worker(args: argparse.Namespace) -> int:
    settings = KafkaSettings()
    only = settings.detector_names()
    unknown = (only or set()) - {t.name for t in DETECTOR_TYPES}
    if unknown:
        print(f"railbird run: unknown detectors {sorted(unknown)}", file=sys.stderr)  # noqa: T201
        return 2
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
    if getattr(args, "metrics_port", None) is not None:
        settings.metrics_port = args.metrics_port
    if not getattr(args, "no_store", False):
        _migrate()  # once, before any stage's store process writes
    if len(by_stage) == 1:
        return run_stage(args, settings, *by_stage.items())
    site = SiteStageProcess(args)
    code = 1
    try:
        code = run_stage(args, settings, ("tables", by_stage["tables"]), site=site)
    finally:
        if code != 0:
            site.stop()  # it finishes its batch, commits and exits (a signal has done so too)
        # Else this stage ended idle (`--exit-when-idle`): the site stage ends on its own.
        site_code = site.wait()  # a failure is logged by `site` itself
    return code or (1 if site_code != 0 else 0)


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


def _migrate() -> None:
    engine = make_engine(StoreSettings().database_url)
    migrate(engine)
    engine.dispose()


def _start_store() -> StoreProcess:
    # The store writes in its own process, off the worker's core (see ingest.store_process).
    return StoreProcess(StoreSettings().database_url)
