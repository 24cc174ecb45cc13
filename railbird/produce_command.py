"""`railbird produce EVENTS.jsonl`: a file (or `railbird simulate` output) into the topics."""

from __future__ import annotations

import argparse
import sys

from railbird.ingest.files.jsonl import read_jsonl
from railbird.ingest.kafka.clients import BrokerUnreachable, connect_producer
from railbird.ingest.kafka.producer import produce_records
from railbird.ingest.kafka.settings import KafkaSettings


def run_produce(args: argparse.Namespace) -> int:
    if str(args.events) != "-" and not args.events.is_file():
        print(f"railbird produce: no such file: {args.events}", file=sys.stderr)  # noqa: T201
        return 2
    settings = KafkaSettings()
    try:
        producer = connect_producer(settings)
    except BrokerUnreachable as exc:
        print(f"railbird produce: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    try:
        report = produce_records(
            read_jsonl(args.events), settings, producer, rate=getattr(args, "rate", None)
        )
    finally:
        producer.close()
    for line in report.skipped:
        print(f"skipped {line}", file=sys.stderr)  # noqa: T201
    print(f"railbird produce: {report.summary()}", file=sys.stderr)  # noqa: T201
    return 1 if report.failed else 0
