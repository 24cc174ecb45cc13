"""`railbird demo`: simulated live traffic -> pipeline -> SQLite -> API, on one machine.

Everything a new user needs to see railbird work, with nothing to install or configure: the
simulator plays a tournament and cash tables in real time (or faster with --speed), and the API
serves the flags as they appear.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import uvicorn

from railbird.api.app import create_app
from railbird.api.settings import ApiSettings
from railbird.detectors.registry import build_detectors
from railbird.ingest.live_feed import LiveFeed
from railbird.rules.pipeline import Pipeline
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate
from railbird.store.database import make_engine, migrate
from railbird.store.writer import StoreSink, StoreWriter


def _events_only(config: SimConfig) -> Iterator[dict[str, Any]]:
    for kind, record in simulate(config):
        if kind == "event":
            yield record


HISTORY = timedelta(minutes=20)


def demo_config(seed: int, now: datetime) -> SimConfig:
    """A small, lively day that began 20 minutes ago: the history is processed at once, so the
    API has flags to show immediately, and the rest plays live from now."""
    start = now.replace(microsecond=0) - HISTORY
    return SimConfig(
        seed=seed,
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
    args.database.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):  # a fresh demo every time: the simulation starts now
        args.database.with_name(args.database.name + suffix).unlink(missing_ok=True)
    engine = make_engine(f"sqlite:///{args.database}")
    migrate(engine)
    api_keys = dict(settings.api_keys)
    demo_key = None
    if not api_keys:
        demo_key = "demo-" + secrets.token_urlsafe(18)
        api_keys[demo_key] = "admin"
    now = datetime.now(UTC)
    feed = LiveFeed(
        _events_only(demo_config(args.seed, now)),
        Pipeline(build_detectors()),
        StoreSink(StoreWriter(engine)),
        speed=args.speed,
        live_from=now,
    )
    feed.start()
    base = f"http://{settings.host}:{args.port}"
    _say(f"railbird demo: simulated traffic is flowing into the pipeline and {args.database}")
    _say(f"  (the simulated day began {HISTORY} ago; that history is loaded first, then live)")
    _say(f"  API docs (OpenAPI):  {base}/docs")
    _say(f"  health:              {base}/health")
    _say(f"  flags:               {base}/v1/flags   (header X-API-Key)")
    if demo_key:
        _say(f"  demo API key (admin, this run only): {demo_key}")
        _say(f"  try: curl -H 'X-API-Key: {demo_key}' {base}/v1/flags?limit=5")
    _say("  Ctrl-C stops the demo.")
    try:
        uvicorn.run(
            create_app(engine, api_keys), host=settings.host, port=args.port, log_level="warning"
        )
    finally:
        feed.stop()
        feed.join(timeout=5)
        engine.dispose()
    return 0
