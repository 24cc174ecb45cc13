"""`railbird demo` end to end: a real server process serves flags from live simulated traffic."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

KEY = "demo-test-key-0123456789"


def _get(url: str, key: str | None = None) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(url, headers={"X-API-Key": key} if key else {})
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.status, json.loads(response.read())


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_demo_serves_flags_within_a_minute(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "RAILBIRD_API_KEYS": json.dumps({KEY: "analyst"})}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "railbird",
            "demo",
            "--port",
            str(port),
            "--database",
            str(tmp_path / "demo.db"),
            "--speed",
            "1",
        ],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    flags: list[dict[str, object]] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not flags:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            try:
                status, _ = _get(f"{base}/health")
                if status == 200:
                    status, page = _get(f"{base}/v1/flags", KEY)
                    assert status == 200, page
                    flags = page["items"]  # type: ignore[assignment]
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.5)
        assert flags, "no flag served within a minute"
        _, docs = _get(f"{base}/openapi.json")
        paths = docs["paths"]
        assert isinstance(paths, dict)
        assert "/v1/flags" in paths and "/v1/chat/check" in paths
    finally:
        process.terminate()
        try:
            out = process.communicate(timeout=15)[1]
        except subprocess.TimeoutExpired:
            process.kill()
            out = process.communicate()[1]
    assert f"{base}/docs" in out, "the demo prints what to open"
