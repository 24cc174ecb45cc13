"""One function per CLI command: build the pieces from settings, run, report on stderr."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from typing import IO

from railbird.ingest.decode import Rejected
from railbird.ingest.files.jsonl import read_jsonl
from railbird.ingest.files.scan import scan_records
from railbird.ingest.gc_tuning import tune_for_streaming
from railbird.rules.detector_settings import detectors_for
from railbird.rules.pipeline import Pipeline
from railbird.rules.policy import RuleBook
from railbird.rules.policy_file import PolicyError, policy_at
from railbird.rules.settings import PolicySettings
from railbird.store.database import make_engine, migrate
from railbird.store.settings import StoreSettings
from railbird.store.writer import StoreSink, StoreWriter


def _report_reject(rejected: Rejected) -> None:
    print(f"rejected {rejected.describe()}", file=sys.stderr)  # noqa: T201


def scan(args: argparse.Namespace) -> int:
    if str(args.events) != "-" and not args.events.is_file():
        print(f"railbird scan: no such file: {args.events}", file=sys.stderr)  # noqa: T201
        return 2
    try:
        policy = policy_at(PolicySettings().policy)
    except PolicyError as exc:
        print(f"railbird scan: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    sink = None
    if args.store:
        engine = make_engine(StoreSettings().database_url)
        migrate(engine)
        sink = StoreSink(StoreWriter(engine))
    pipeline = Pipeline(detectors_for(policy.detectors), RuleBook(policy))
    tune_for_streaming()
    with ExitStack() as stack:
        flags_out: IO[bytes] = (
            stack.enter_context(args.out.open("wb")) if args.out else sys.stdout.buffer
        )
        actions_out = stack.enter_context(args.actions.open("wb")) if args.actions else None
        report = scan_records(
            read_jsonl(args.events),
            pipeline,
            flags_out,
            on_reject=_report_reject,
            sink=sink,
            actions_out=actions_out,
        )
    print(f"railbird scan: {report.summary()}", file=sys.stderr)  # noqa: T201
    return 0


def simulate(args: argparse.Namespace) -> int:
    from railbird.simulate_command import run_simulate

    return run_simulate(args)


def demo(args: argparse.Namespace) -> int:
    from railbird.demo import run_demo

    return run_demo(args)


def import_phh(args: argparse.Namespace) -> int:
    from railbird.import_phh_command import run_import_phh

    return run_import_phh(args)
