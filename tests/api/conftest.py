from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from railbird.api.app import create_app
from railbird.detectors.registry import build_detectors
from railbird.ingest.decode import RawRecord
from railbird.ingest.files.jsonl import read_jsonl
from railbird.ingest.files.scan import scan_records
from railbird.rules.pipeline import Pipeline
from railbird.store.database import make_engine, migrate
from railbird.store.writer import StoreSink, StoreWriter
from tests.paths import EXAMPLES

KEYS = {
    "analyst-key-0123456789": "analyst",
    "investigator-key-012345": "investigator",
    "chat-service-key-012345": "chat_service",
    "lobby-service-key-012345": "lobby_service",
    "reports-key-0123456789ab": "reports",
    "admin-key-0123456789ab": "admin",
}
# A Prometheus scraper's key: /metrics and nothing else. Kept out of KEYS, which the schema
# fuzz runs once per role: no documented route admits it, and `test_api_metrics` shows that.
METRICS_KEY = "metrics-key-0123456789ab"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    engine = make_engine(f"sqlite:///{tmp_path / 'api.db'}")
    migrate(engine)
    store_as_scan_does(engine, read_jsonl(EXAMPLES / "events.jsonl"))
    with TestClient(create_app(engine, {**KEYS, METRICS_KEY: "metrics"})) as test_client:
        yield test_client
    engine.dispose()


def store_as_scan_does(engine: Engine, records: Iterable[RawRecord]) -> None:
    """Run `records` through every detector and the rules into the store, as `scan --store`."""
    scan_records(
        records,
        Pipeline(build_detectors()),
        None,
        on_reject=lambda r: None,
        sink=StoreSink(StoreWriter(engine)),
    )


def auth(role: str) -> dict[str, str]:
    key = next(k for k, r in KEYS.items() if r == role)
    return {"X-API-Key": key}
