"""A real `railbird serve` over a simulated day, and Debian's Chromium driven by Playwright.

Under `CI=true` a missing Chromium is a failure (`.ci/run` installs it); locally the browser
tests skip with the reason.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NoReturn

import orjson
import pytest
from fastapi.testclient import TestClient

from railbird.ingest.decode import RawRecord
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate
from railbird.store.database import make_engine, migrate
from tests.api.conftest import KEYS, store_as_scan_does
from tests.integration.net import free_port

REPO = Path(__file__).resolve().parents[2]
ARTEFACTS = Path(os.environ.get("RAILBIRD_ARTEFACTS", REPO / "var" / "artefacts")) / "console"
CHROMIUM = os.environ.get("RAILBIRD_CHROMIUM", "/usr/bin/chromium")


def _unavailable(reason: str) -> NoReturn:
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests need {reason} under CI (.ci/run installs chromium)")
    pytest.skip(reason)


@dataclass(frozen=True)
class Server:
    url: str
    db_url: str
    process: subprocess.Popen[bytes]


@pytest.fixture(scope="session")
def console_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`railbird serve` (one process, as the chat check's cache is per process) over an hour
    simulated up to now, stored as `scan --store` stores it."""
    base = tmp_path_factory.mktemp("console")
    db_url = f"sqlite:///{base / 'console.db'}"
    engine = make_engine(db_url)
    migrate(engine)
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=65)
    config = SimConfig(
        seed=8,
        tournaments=1,
        cash_tables=2,
        hours=1.0,
        players_per_tournament=45,
        start=start,
    )
    records = (
        RawRecord("sim", f"event {n}", orjson.dumps(record))
        for n, (kind, record) in enumerate(simulate(config))
        if kind == "event"
    )
    store_as_scan_does(engine, records)
    engine.dispose()
    server = _serve(db_url, base / "serve.log")
    yield server
    _stop(server)


@pytest.fixture(scope="session")
def second_server(
    console_server: Server, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """Another `railbird serve` process over the same database, with the OpenAPI UI turned
    on: what one process does to a session, the other must see (they share only the store)."""
    base = tmp_path_factory.mktemp("console-second")
    server = _serve(console_server.db_url, base / "serve.log", {"RAILBIRD_API_DOCS": "true"})
    yield server
    _stop(server)


def _serve(db_url: str, log_path: Path, extra: dict[str, str] | None = None) -> Server:
    port = free_port()
    env = {
        **os.environ,
        "RAILBIRD_DATABASE_URL": db_url,
        "RAILBIRD_API_KEYS": json.dumps(KEYS),
        **(extra or {}),
    }
    env.pop("RAILBIRD_KAFKA_BOOTSTRAP_SERVERS", None)
    env.pop("RAILBIRD_PUBLIC_ORIGIN", None)
    log = log_path.open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "railbird", "serve", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=REPO,
    )
    log.close()  # the child has its own descriptor
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2):
                break
        except OSError:
            assert process.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, "railbird serve did not answer in 60 s"
            time.sleep(0.2)
    return Server(url, db_url, process)


def _stop(server: Server) -> None:
    server.process.terminate()
    server.process.wait(20)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        _unavailable(f"Chromium at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package")
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            headless=True,
            args=["--no-sandbox"],
        )
        yield launched
        launched.close()


def key_of(role: str) -> str:
    return next(k for k, r in KEYS.items() if r == role)


def sign_in(browser: Any, server: Server, role: str) -> Any:
    """A fresh browser context signed in with `role`'s key through the login form."""
    context = browser.new_context(base_url=server.url, accept_downloads=True)
    page = context.new_page()
    page.goto("/console/queue")
    assert "/console/login" in page.url, "an anonymous visit should be sent to sign in"
    page.get_by_label("API key").fill(key_of(role))
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state()
    return page


def banner(page: Any) -> str:
    """The banner the page shows after a form (from the session, never from the URL)."""
    message = page.locator("p.message")
    message.wait_for(timeout=10_000)
    return str(message.inner_text())


def screenshot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)


# What the TestClient-based console tests are served at: HTTPS, so the session cookie is a
# `__Host-` one, as in production behind TLS.
ORIGIN = "https://testserver"
FORM = {"Origin": ORIGIN}


def login_nonce(client: TestClient) -> str:
    """Open the sign-in page (which sets its nonce cookie) and read the form's copy."""
    page = client.get("/console/login")
    found = re.search(r'name="login_csrf" value="([^"]+)"', page.text)
    assert found, page.text[:500]
    return found.group(1)


def sign_in_client(client: TestClient, key: str) -> Any:
    """Sign `client` in with `key` through the form, as a browser does (nonce and Origin)."""
    client.cookies.clear()
    nonce = login_nonce(client)
    return client.post(
        "/console/login",
        data={"api_key": key, "login_csrf": nonce},
        headers=FORM,
        follow_redirects=False,
    )


def page_csrf(client: TestClient, path: str = "/console/account") -> str:
    """The CSRF token the signed-in session's forms carry."""
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    assert found, f"no form on {path}"
    return found.group(1)
