"""With no broker or no database to reach, a command says so in one line and exits 2.

Real processes and real clients (kafka-python, psycopg, sqlite3) against a port nothing listens
on or a file that cannot be created; the Kafka bootstrap wait is shortened to a second
(`RAILBIRD_KAFKA_BOOTSTRAP_TIMEOUT_MS`; 30 s by default).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.net import free_port
from tests.paths import EXAMPLES


def railbird(
    tmp_path: Path, *args: str, database: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "RAILBIRD_KAFKA_BOOTSTRAP_SERVERS": f"127.0.0.1:{free_port()}",
        "RAILBIRD_KAFKA_BOOTSTRAP_TIMEOUT_MS": "1000",
        "RAILBIRD_DATABASE_URL": database or f"sqlite:///{tmp_path / 'store.db'}",
    }
    return subprocess.run(
        [sys.executable, "-m", "railbird", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "prefix"),
    [
        # The deployment's layout is checked once, before any stage starts: one line for all.
        (("run",), "railbird run: "),
        (("run", "--stage", "tables", "--no-store"), "railbird run: "),
        (("run", "--stage", "keyed", "--no-store"), "railbird run: "),
        (("produce", str(EXAMPLES / "events.jsonl")), "railbird produce: "),
    ],
)
def test_an_unreachable_broker_is_one_clear_line(
    tmp_path: Path, args: tuple[str, ...], prefix: str
) -> None:
    done = railbird(tmp_path, *args)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    [line] = [x for x in done.stderr.splitlines() if x.startswith(prefix)]
    assert "cannot reach Kafka at 127.0.0.1:" in line
    assert "within 1 s" in line
    assert "make kafka-up" in line


@pytest.mark.parametrize(
    ("database", "cause"),
    [
        ("sqlite:///{tmp}/no/such/dir/store.db", "unable to open database file"),
        ("postgresql://railbird@127.0.0.1:{port}/railbird", "Connection refused"),
    ],
)
def test_an_unreachable_database_is_one_clear_line(
    tmp_path: Path, database: str, cause: str
) -> None:
    url = database.format(tmp=tmp_path, port=free_port())
    done = railbird(tmp_path, "scan", str(EXAMPLES / "events.jsonl"), "--store", database=url)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    [line] = [x for x in done.stderr.splitlines() if x.startswith("railbird scan: ")]
    assert line.startswith("railbird scan: database unavailable (")
    assert cause in line
    assert "RAILBIRD_DATABASE_URL" in line
