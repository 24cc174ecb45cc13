"""`railbird produce EVENTS.jsonl`: a file (or `railbird simulate` output) into the topics."""

from __future__ import annotations

import argparse
import sys

from kafka.errors import KafkaError

from ingest.jsonl_source import read_jsonl
from ingest.kafka_clients import make_producer, unreachable
from ingest.kafka_producer import produce_records
from ingest.kafka_settings import KafkaSettings


def run_produce(args: argparse.Namespace) -> int:
    if str(args.events) != "-" and not args.events.is_file():
        print(f"railbird produce: no such file: {args.events}", file=sys.stderr)  # noqa: T201
        return 2
    settings = KafkaSettings()
    try:
        producer = make_producer(settings)
    except KafkaError as exc:
        print(f"railbird produce: {unreachable(settings, exc)}", file=sys.stderr)  # noqa: T201
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
