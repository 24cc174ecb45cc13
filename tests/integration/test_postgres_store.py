"""The store on real PostgreSQL: migrations apply, replays are idempotent, the API reads it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from railbird.api.app import create_app
from railbird.store.database import make_engine
from tests.api.conftest import KEYS, auth
from tests.ingest.test_scan import _replay, store_counts
from tests.integration.postgres_server import postgres_url
from tests.paths import EXAMPLES

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    yield from postgres_url()


def test_replay_twice_into_postgres_changes_nothing(pg_url: str) -> None:
    _replay(EXAMPLES / "events.jsonl", pg_url)
    first = store_counts(pg_url)
    _replay(EXAMPLES / "events.jsonl", pg_url)
    assert store_counts(pg_url) == first
    assert first["flags"] >= 1 and first["chat_messages"] == 18


def test_api_reads_flags_from_postgres(pg_url: str) -> None:
    _replay(EXAMPLES / "events.jsonl", pg_url)
    engine = make_engine(pg_url)
    with TestClient(create_app(engine, KEYS)) as client:
        assert client.get("/health").json()["database"] == "ok"
        page = client.get("/v1/flags", params={"limit": 1}, headers=auth("analyst")).json()
        assert len(page["items"]) == 1
        assert page["items"][0]["ts"].endswith("Z") or "+00:00" in page["items"][0]["ts"]
    engine.dispose()


def test_console_sessions_end_on_every_process_over_postgres(pg_url: str) -> None:
    """The console's sessions and sign-in throttle on PostgreSQL: two apps over one database
    (two server processes share nothing else) see one sign-in and one logout."""
    from railbird.api.console.config import ConsoleConfig
    from railbird.store.database import migrate
    from tests.console.conftest import FORM, ORIGIN, page_csrf, sign_in_client

    engine = make_engine(pg_url)
    migrate(engine)
    analyst = next(k for k, r in KEYS.items() if r == "analyst")
    config = ConsoleConfig(origins=(ORIGIN,))
    with (
        TestClient(create_app(engine, KEYS, console_config=config), base_url=ORIGIN) as first,
        TestClient(create_app(engine, KEYS, console_config=config), base_url=ORIGIN) as second,
    ):
        assert sign_in_client(first, analyst).status_code == 303
        second.cookies.set("__Host-railbird_console", first.cookies["__Host-railbird_console"])
        assert second.get("/console/queue").status_code == 200
        first.post("/console/logout", data={"csrf": page_csrf(first)}, headers=FORM)
        assert second.get("/console/queue", follow_redirects=False).status_code == 303
    engine.dispose()
