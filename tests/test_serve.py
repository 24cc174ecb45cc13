"""`railbird serve`: the API in its own server processes, over a database `scan --store` filled."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from railbird.sim.config import SimConfig
from railbird.sim.run import write_simulation
from tests.integration.procs import descendants

KEY = "serve-test-key-0123456789"
RAILBIRD = [sys.executable, "-m", "railbird"]


def _get(url: str, key: str | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(url, headers={"X-API-Key": key} if key else {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[dict[str, Any]]]:
    """A database `railbird scan --store` filled, and the flags scan wrote."""
    base = tmp_path_factory.mktemp("serve")
    events, flags = base / "events.jsonl", base / "flags.jsonl"
    write_simulation(
        SimConfig(seed=3, tournaments=1, cash_tables=1, hours=0.5, players_per_tournament=27),
        events,
        base / "truth.jsonl",
    )
    url = f"sqlite:///{base / 'store.db'}"
    subprocess.run(
        [*RAILBIRD, "scan", str(events), "--store", "--out", str(flags)],
        check=True,
        capture_output=True,
        env={**os.environ, "RAILBIRD_DATABASE_URL": url},
    )
    found = [json.loads(line) for line in flags.read_text().splitlines()]
    assert found, "the simulated half hour should raise flags"
    return url, found


def test_two_server_processes_serve_what_scan_stored_and_stop_on_sigterm(
    filled: tuple[str, list[dict[str, Any]]],
) -> None:
    url, scanned = filled
    port = _free_port()
    env = {
        **os.environ,
        "RAILBIRD_DATABASE_URL": url,
        "RAILBIRD_API_KEYS": json.dumps({KEY: "analyst"}),
        "RAILBIRD_PORT": str(port),
    }
    server = subprocess.Popen(
        [*RAILBIRD, "serve", "--workers", "2"], env=env, stderr=subprocess.PIPE, text=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            assert time.monotonic() < deadline, "the server did not answer within a minute"
            try:
                if _get(f"{base}/health")[0] == 200:
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.3)
        served: list[dict[str, Any]] = []
        cursor = ""
        while True:
            status, page = _get(f"{base}/v1/flags?limit=200{cursor}", KEY)
            assert status == 200, page
            served.extend(page["items"])
            if not page.get("next_cursor"):
                break
            cursor = "&cursor=" + urllib.parse.quote(page["next_cursor"])
        assert {f["flag_id"] for f in served} == {f["flag_id"] for f in scanned}
        assert _get(f"{base}/v1/flags", None)[0] == 401
        # A supervisor and its two server processes.
        assert len(descendants(server.pid)) >= 2
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
        if server.stderr is not None:
            server.stderr.close()


def test_serve_without_keys_says_what_to_set_and_exits_2(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "RAILBIRD_DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}",
        "RAILBIRD_API_KEYS": "{}",
    }
    done = subprocess.run(
        [*RAILBIRD, "serve"], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert "RAILBIRD_API_KEYS is empty" in done.stderr
