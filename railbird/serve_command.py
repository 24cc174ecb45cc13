"""`railbird serve`: the API alone, over the database the workers or `scan --store` fill.

The schema is migrated once here, before any server process starts (the migration lock makes
concurrent starts safe anyway); then uvicorn runs `api.factory.app_from_environment` in
`--workers` processes, each with its own engine and chat-check cache. SIGTERM or Ctrl-C lets
requests in flight finish (at most `GRACE_SECONDS`) before the processes exit.
"""

from __future__ import annotations

import argparse
import os
import sys

import uvicorn
from pydantic import ValidationError

from railbird.api.console.config import ConsoleConfig, OriginError
from railbird.api.settings import ApiSettings
from railbird.ingest.kafka.clients import BrokerUnreachable, connect_producer
from railbird.ingest.kafka.outbox_relay import OutboxRelay, RelayThread
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.rules.policy_file import PolicyError, policy_at
from railbird.store.database import make_engine, migrate

GRACE_SECONDS = 10


def run_serve(args: argparse.Namespace) -> int:
    try:
        settings = ApiSettings()
    except ValidationError as exc:
        print(f"railbird serve: bad setting: {exc.errors()[0]['msg']}", file=sys.stderr)  # noqa: T201
        return 2
    if not settings.api_keys:
        print(  # noqa: T201
            "railbird serve: RAILBIRD_API_KEYS is empty; set it to a JSON object of "
            'key -> role, e.g. \'{"<32 random characters>": "analyst"}\'',
            file=sys.stderr,
        )
        return 2
    if any(len(key) < 16 for key in settings.api_keys):
        print("railbird serve: API keys must be at least 16 characters", file=sys.stderr)  # noqa: T201
        return 2
    try:
        policy_at(settings.policy)  # checked before any server process starts: names the line
    except PolicyError as exc:
        print(f"railbird serve: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    engine = make_engine(settings.database_url)
    try:
        migrate(engine)
    finally:
        engine.dispose()
    host = args.host or settings.host
    port = args.port if args.port is not None else settings.port
    try:
        console = ConsoleConfig.for_server(settings.public_origin, host, port)
    except OriginError as exc:
        print(f"railbird serve: bad RAILBIRD_PUBLIC_ORIGIN: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    # The server processes build the app from the environment (`api.factory`): they serve the
    # address chosen here, and derive the console's default origin from it.
    os.environ["RAILBIRD_HOST"] = host
    os.environ["RAILBIRD_PORT"] = str(port)
    docs = "OpenAPI UI at /docs" if settings.api_docs else "OpenAPI UI off (RAILBIRD_API_DOCS)"
    print(  # noqa: T201
        f"railbird serve: http://{host}:{port} ({args.workers} worker(s)); {docs}; console "
        f"for {', '.join(console.origins)}",
        file=sys.stderr,
    )
    if not console.secure_cookies:
        print(  # noqa: T201
            f"railbird serve: the console is served over plain HTTP at {console.origins[0]}: "
            "its session cookie crosses the network in clear; serve it over HTTPS and set "
            "RAILBIRD_PUBLIC_ORIGIN=https://...",
            file=sys.stderr,
        )
    relay = _relay_thread(settings.database_url) if not getattr(args, "no_relay", False) else None
    try:
        uvicorn.run(
            "railbird.api.factory:app_from_environment",
            factory=True,
            host=host,
            port=port,
            workers=args.workers,
            log_level="info" if args.verbose else "warning",
            timeout_graceful_shutdown=GRACE_SECONDS,
            proxy_headers=False,
        )
    finally:
        if relay is not None:
            relay.stop()
    return 0


def _relay_thread(database_url: str) -> RelayThread | None:
    """The outbox relay on a thread of this (supervising) process, when Kafka is configured:
    one relay for all the server processes."""
    if not os.environ.get("RAILBIRD_KAFKA_BOOTSTRAP_SERVERS"):
        return None
    settings = KafkaSettings()
    try:
        producer = connect_producer(settings)
    except BrokerUnreachable as exc:
        print(f"railbird serve: not relaying restriction changes: {exc}", file=sys.stderr)  # noqa: T201
        return None
    thread = RelayThread(OutboxRelay(make_engine(database_url), producer, settings))
    thread.start()
    print(  # noqa: T201
        f"railbird serve: relaying restriction changes to {settings.actions_topic}",
        file=sys.stderr,
    )
    return thread
