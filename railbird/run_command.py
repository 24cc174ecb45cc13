"""`railbird run`: one Kafka worker; start as many as there are partitions to share.

It reads the settings and the command line into one typed `RunOptions` and hands it to the
Kafka edge (`ingest.kafka.launch`): the table stage in this process, the keyed stage in a
child process, the escalation stage on a thread. `--stage` (or `RAILBIRD_KAFKA_STAGE`) runs
a subset, to place the stages on different machines.
"""

from __future__ import annotations

import argparse
import sys

from railbird.detectors.registry import DETECTOR_TYPES
from railbird.ingest.kafka.launch import STAGES, RunOptions, run
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.rules.policy_file import PolicyError, policy_at
from railbird.rules.settings import PolicySettings
from railbird.store.database import make_engine, migrate
from railbird.store.settings import StoreSettings


def run_worker(args: argparse.Namespace) -> int:
    settings = KafkaSettings()
    unknown = (settings.detector_names() or set()) - {t.name for t in DETECTOR_TYPES}
    if unknown:
        print(f"railbird run: unknown detectors {sorted(unknown)}", file=sys.stderr)  # noqa: T201
        return 2
    policy_path = PolicySettings().policy
    try:
        policy_at(policy_path)  # checked before anything starts: an error names its line
    except PolicyError as exc:
        print(f"railbird run: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    if args.metrics_port is not None:
        settings.metrics_port = args.metrics_port
    choice = args.stage or settings.stage
    database_url = None if args.no_store else StoreSettings().database_url
    if database_url is not None:
        _migrate(database_url)  # once, before any stage's store writer writes
    options = RunOptions(
        settings=settings,
        stages=STAGES if choice == "all" else (choice,),
        database_url=database_url,
        policy_path=policy_path,
        exit_when_idle=args.exit_when_idle,
        verbose=args.verbose,
    )
    return run(options)


def _migrate(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    engine.dispose()
