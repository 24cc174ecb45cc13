"""`railbird demo`: simulated live traffic -> pipeline -> SQLite -> API, on one machine.

Everything a new user needs to see railbird work, with nothing to install or configure: the
simulator plays a tournament and cash tables in real time (or faster with --speed), and the API
serves the flags as they appear.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import uvicorn

from railbird.api.app import create_app
from railbird.api.console.config import ConsoleConfig
from railbird.api.settings import ApiSettings
from railbird.ingest.live_feed import LiveFeed
from railbird.rules.detector_settings import detectors_for
from railbird.rules.pipeline import Pipeline
from railbird.rules.policy import RuleBook
from railbird.rules.policy_file import PolicyError, policy_at
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate
from railbird.store.database import make_engine, migrate
from railbird.store.writer import StoreSink, StoreWriter


def _events_only(config: SimConfig) -> Iterator[dict[str, Any]]:
    for kind, record in simulate(config):
        if kind == "event":
            yield record


HISTORY = timedelta(minutes=20)
DEFAULT_DATABASE = Path("var/demo.db")


def demo_config(seed: int, now: datetime, id_prefix: str = "") -> SimConfig:
    """A small, lively day that began 20 minutes ago: the history is processed at once, so the
    API has flags to show immediately, and the rest plays live from now. `id_prefix` keeps this
    run's ids apart from an earlier run's in the same database."""
    start = now.replace(microsecond=0) - HISTORY
    return SimConfig(
        seed=seed,
        id_prefix=id_prefix,
        tournaments=1,
        cash_tables=2,
        hours=4.0,
        start=start,
        players_per_tournament=54,
        tournament_stagger_minutes=0.0,
        violation_scale=4.0,
    )


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)  # noqa: T201


def run_demo(args: argparse.Namespace) -> int:
    settings = ApiSettings()
    try:
        policy = policy_at(settings.policy)
    except PolicyError as exc:
        _say(f"railbird demo: {exc}")
        return 2
    port = args.port if args.port is not None else settings.port
    url = _database_url(args, settings)
    engine = make_engine(url)
    migrate(engine)
    api_keys = dict(settings.api_keys)
    demo_key = None
    if not api_keys:
        demo_key = "demo-" + secrets.token_urlsafe(18)
        api_keys[demo_key] = "admin"
    now = datetime.now(UTC)
    run_tag = f"{int(now.timestamp()):x}-"  # this run's ids: an earlier run's stay as they were
    feed = LiveFeed(
        _events_only(demo_config(args.seed, now, run_tag)),
        Pipeline(detectors_for(policy.detectors), RuleBook(policy)),
        StoreSink(StoreWriter(engine)),
        speed=args.speed,
        live_from=now,
    )
    feed.start()
    base = f"http://{settings.host}:{port}"
    _say(f"railbird demo: simulated traffic is flowing into the pipeline and {_shown(url)}")
    _say(f"  (the simulated day began {HISTORY} ago; that history is loaded first, then live)")
    _say(f"  analysts' console:   {base}/console   (sign in with an API key)")
    _say(f"  API docs (OpenAPI):  {base}/docs")
    _say(f"  health:              {base}/health")
    _say(f"  flags:               {base}/v1/flags   (header X-API-Key)")
    if demo_key:
        _say(f"  demo API key (admin, this run only): {demo_key}")
        _say(f"  try: curl -H 'X-API-Key: {demo_key}' {base}/v1/flags?limit=5")
    _say("  Ctrl-C stops the demo.")
    try:
        uvicorn.run(
            create_app(
                engine,
                api_keys,
                policy_path=settings.policy,
                console_config=ConsoleConfig.for_server(
                    settings.public_origin, settings.host, port
                ),
                docs=True,  # a local demo: the OpenAPI UI is what it shows first
            ),
            host=settings.host,
            port=port,
            log_level="warning",
        )
    finally:
        feed.stop()
        feed.join(timeout=5)
        engine.dispose()
    return 0


def _database_url(args: argparse.Namespace, settings: ApiSettings) -> str:
    """`--database`, else `RAILBIRD_DATABASE_URL` when set, else the demo's own file; only
    the demo's own SQLite file is ever emptied, and only with `--fresh`."""
    if args.database is None and "RAILBIRD_DATABASE_URL" in os.environ:
        return settings.database_url
    database: Path = args.database or DEFAULT_DATABASE
    database.parent.mkdir(parents=True, exist_ok=True)
    if args.fresh:
        for suffix in ("", "-wal", "-shm", ".migrate-lock"):
            database.with_name(database.name + suffix).unlink(missing_ok=True)
    return f"sqlite:///{database}"


def _shown(url: str) -> str:
    """The database for the console: a URL's password is never printed."""
    head, at, tail = url.rpartition("@")
    if not at:
        return url
    scheme, sep, credentials = head.partition("://")
    user = credentials.split(":", 1)[0]
    return f"{scheme}{sep}{user}:***@{tail}"
