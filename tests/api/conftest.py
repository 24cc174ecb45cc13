from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from detectors.registry import build_detectors
from ingest.jsonl_source import read_jsonl
from ingest.scan import scan_records
from ingest.store_writer import StoreWriter
from rules.pipeline import Pipeline
from store.database import make_engine, migrate
from tests.paths import EXAMPLES

KEYS = {
    "analyst-key-0123456789": "analyst",
    "investigator-key-012345": "investigator",
    "chat-service-key-012345": "chat_service",
    "admin-key-0123456789ab": "admin",
}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    engine = make_engine(f"sqlite:///{tmp_path / 'api.db'}")
    migrate(engine)
    scan_records(
        read_jsonl(EXAMPLES / "events.jsonl"),
        Pipeline(build_detectors()),
        None,
        on_reject=lambda r: None,
        writer=StoreWriter(engine),
    )
    with TestClient(create_app(engine, KEYS)) as test_client:
        yield test_client
    engine.dispose()


def auth(role: str) -> dict[str, str]:
    key = next(k for k, r in KEYS.items() if r == role)
    return {"X-API-Key": key}
