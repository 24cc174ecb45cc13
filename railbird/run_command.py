"""`railbird run`: one Kafka worker; start as many as there are partitions to share.

It runs both stages (`ingest.kafka.stages`) by default: the table stage in this process and the
site stage in a child process (`ingest.kafka.site_process`), so that the two CPU-bound loops use two
cores instead of taking turns on one interpreter lock. `--stage` (or `RAILBIRD_KAFKA_STAGE`)
runs one stage only, to place them on different machines.
"""

from __future__ import annotations

import argparse
import logging
import sys

from railbird.detectors.detector import Detector
from railbird.detectors.registry import DETECTOR_TYPES, build_detectors
from railbird.ingest.kafka.clients import BrokerUnreachable
from railbird.ingest.kafka.escalation import escalation_sources, input_partitions
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.kafka.site_process import SiteStageProcess
from railbird.ingest.kafka.stage_runner import run_escalation_stage, run_stage
from railbird.ingest.kafka.stages import (
    ESCALATION,
    STAGES,
    chosen_stages,
    stage_detectors,
)
from railbird.rules.policy_file import PolicyError, configured_policy
from railbird.store.database import make_engine, migrate
from railbird.store.settings import StoreSettings

log = logging.getLogger(__name__)


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
    try:
        configured_policy()  # checked before anything starts: an error names its line
    except PolicyError as exc:
        print(f"railbird run: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    detectors = build_detectors(only=only)
    escalate = ESCALATION in stages
    # A stage none of the chosen detectors belongs to is not run (`RAILBIRD_KAFKA_DETECTORS`).
    by_stage = {stage: stage_detectors(detectors, stage) for stage in stages if stage in STAGES}
    by_stage = {stage: found for stage, found in by_stage.items() if found}
    if not by_stage and not (escalate and len(stages) == 1):
        by_stage = {"tables": []}  # no detectors at all: the framework alone, for the benchmark
    if getattr(args, "metrics_port", None) is not None:
        settings.metrics_port = args.metrics_port
    if not getattr(args, "no_store", False):
        _migrate()  # once, before any stage's store process writes
    try:
        sources = _escalation_sources(settings, detectors) if escalate else None
    except BrokerUnreachable as exc:  # the first call to the broker: the ladders' layout
        print(f"railbird run (escalation stage): {exc}", file=sys.stderr)  # noqa: T201
        return 2
    if not by_stage:  # `--stage escalation`
        return run_escalation_stage(args, settings, sources or [])
    if len(by_stage) == 1:
        return run_stage(args, settings, *by_stage.items(), escalation=sources)
    site = SiteStageProcess(args)
    code = 1
    try:
        code = run_stage(
            args, settings, ("tables", by_stage["tables"]), site=site, escalation=sources
        )
    finally:
        if code != 0:
            site.stop()  # it finishes its batch, commits and exits (a signal has done so too)
        # Else this stage ended idle (`--exit-when-idle`): the site stage ends on its own.
        site_code = site.wait()  # a failure is logged by `site` itself
    return code or (1 if site_code != 0 else 0)


def _escalation_sources(settings: KafkaSettings, detectors: list[Detector]) -> list[str]:
    """What each ladder waits for: every input partition's table stage when any table detector
    runs, and the site stage when any site detector does (wherever they run)."""
    partitions = input_partitions(settings)
    if partitions == 0:
        raise BrokerUnreachable(
            f"input topic {settings.chat_topic!r} does not exist (create it first)"
        )
    # No detector at all: the table stage still runs (the framework alone, for the benchmark).
    tables = partitions if stage_detectors(detectors, "tables") or not detectors else 0
    return escalation_sources(tables, site=bool(stage_detectors(detectors, "site")))


def _migrate() -> None:
    engine = make_engine(StoreSettings().database_url)
    migrate(engine)
    engine.dispose()
