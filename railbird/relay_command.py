"""`railbird relay`: restriction changes from the store's outbox to `moderation.actions`.

`railbird serve` runs the same relay on a thread when `RAILBIRD_KAFKA_BOOTSTRAP_SERVERS` is set;
this command is for a deployment that runs the API elsewhere, or to drain the outbox once
(`--once`). SIGTERM or Ctrl-C finishes the pass in progress and exits 0.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading

from railbird.ingest.kafka.clients import BrokerUnreachable, connect_producer
from railbird.ingest.kafka.outbox_relay import OutboxRelay
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.store.database import make_engine, migrate
from railbird.store.settings import StoreSettings


def run_relay(args: argparse.Namespace) -> int:
    settings = KafkaSettings()
    engine = make_engine(StoreSettings().database_url)
    migrate(engine)
    try:
        producer = connect_producer(settings)
    except BrokerUnreachable as exc:
        print(f"railbird relay: {exc}", file=sys.stderr)  # noqa: T201
        return 1
    relay = OutboxRelay(engine, producer, settings)
    try:
        if args.once:
            sent = relay.drain()
            print(  # noqa: T201
                f"railbird relay: {sent} changes sent to {settings.actions_topic}, "
                f"{relay.counts.expired} expiries written, {relay.counts.failed} sends failed",
                file=sys.stderr,
            )
            return 0 if relay.counts.failed == 0 else 1
        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
        relay.run(stop)
        return 0
    finally:
        producer.close(timeout=10)
        engine.dispose()
