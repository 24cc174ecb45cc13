"""One stage of `railbird run` in this process: its consumer, store, producer and worker loop.

Here rather than in the command so that the site stage's child process (`site_process`) runs
the very same loop without importing the command line.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from kafka.errors import KafkaError

from railbird.detectors.detector import Detector
from railbird.ingest.gc_tuning import tune_for_streaming
from railbird.ingest.kafka.clients import (
    TopicLayoutError,
    check_copartitioned,
    make_consumer,
    make_producer,
    unreachable,
)
from railbird.ingest.kafka.escalation import EscalationWorker
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
from railbird.rules.policy_watch import PolicyWatch
from railbird.store.database import make_engine
from railbird.store.settings import StoreSettings
from railbird.store.writer import StoreSink, StoreWriter
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
    escalation: list[str] | None = None,
) -> int:
    """Run one stage in this process until stopped (or idle); `site`, the other stage's child
    process, is watched (its failure stops this one) and its metrics served with ours; with
    `escalation` (its sources), the escalation stage runs beside it on a thread (it handles
    only offences, a small share of the records: no core of its own needed)."""
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
    ladders = EscalationThread(args, settings, escalation) if escalation is not None else None
    if ladders is not None:
        served.append(ladders.metrics)
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
    # The stages decide no actions: the escalation stage does, one ladder per player.
    worker = KafkaWorker(
        settings,
        Pipeline(detectors, decide=False),
        consumer,
        producer,
        store,
        metrics,
        stage=stage,
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
    if ladders is not None:
        ladders.start(stop)
    try:
        worker.run(stop, exit_when_idle=exit_when_idle)
        if ladders is not None:
            ladders.join()  # idle: it ends once every ladder has; stopped: at once
    finally:
        if ladders is not None and ladders.is_alive():
            stop.set()
            ladders.join()
        if store is not None:
            store.close()  # also after a failure: the child must not outlive the worker
        producer.flush()
        producer.close()
        consumer.close(autocommit=False)
        if server is not None:
            server.shutdown()
    print(f"railbird run ({stage} stage): {metrics.summary()}", file=sys.stderr)  # noqa: T201
    if ladders is not None:
        print(f"railbird run (escalation stage): {ladders.metrics.summary()}", file=sys.stderr)  # noqa: T201
    failed = (site is not None and site.failed()) or (ladders is not None and ladders.failed)
    return 1 if failed else 0


def run_escalation_stage(
    args: argparse.Namespace, settings: KafkaSettings, sources: list[str]
) -> int:
    """`railbird run --stage escalation`: the ladders alone, in this process."""
    stop = threading.Event()

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        log.info("signal %d: finishing the batch, committing, exiting", signum)
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    ladders = EscalationThread(args, settings, sources)
    server = (
        serve_metrics([ladders.metrics], settings.metrics_host, settings.metrics_port)
        if settings.metrics_port
        else None
    )
    try:
        ladders.run(stop)
    finally:
        if server is not None:
            server.shutdown()
    print(f"railbird run (escalation stage): {ladders.metrics.summary()}", file=sys.stderr)  # noqa: T201
    return 1 if ladders.failed else 0


class EscalationThread:
    """The escalation stage's consumer, producer, store and loop, on a thread of its own."""

    def __init__(self, args: argparse.Namespace, settings: KafkaSettings, sources: list[str]):
        self.args = args
        self.settings = settings
        self.sources = sources
        self.metrics = WorkerMetrics("escalation")
        self.failed = False
        self._thread: threading.Thread | None = None

    def start(self, stop: threading.Event) -> None:
        self._thread = threading.Thread(
            target=self.run, args=(stop,), name="railbird-escalation", daemon=True
        )
        self._thread.start()

    def join(self) -> None:
        if self._thread is not None:
            self._thread.join()

    def is_alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def run(self, stop: threading.Event) -> None:
        settings = self.settings
        try:
            consumer = make_consumer(
                settings,
                group_id=settings.escalation_group_id,
                client_id=f"{settings.client_id}-escalation",
            )
        except KafkaError as exc:
            log.error("escalation stage: %s", unreachable(settings, exc))
            self.failed = True
            stop.set()
            return
        producer = make_producer(settings)
        engine = (
            None
            if getattr(self.args, "no_store", False)
            else make_engine(StoreSettings().database_url)
        )
        store = StoreSink(StoreWriter(engine)) if engine is not None else None
        try:
            policy = os.environ.get("RAILBIRD_POLICY")
            watch = PolicyWatch(Path(policy) if policy else None)
            EscalationWorker(
                settings, consumer, producer, store, self.sources, self.metrics, watch
            ).run(stop, exit_when_idle=getattr(self.args, "exit_when_idle", None))
        except Exception:
            log.exception("escalation stage failed")
            self.failed = True
            stop.set()
        finally:
            producer.flush()
            producer.close()
            consumer.close(autocommit=False)
            if engine is not None:
                engine.dispose()


def _start_store() -> StoreProcess:
    # The store writes in its own process, off the worker's core (see store.writer_process).
    return StoreProcess(StoreSettings().database_url)
