"""Starts a throwaway PostgreSQL (Debian's packages) through scripts/postgres.sh for tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.net import free_port
from tests.paths import REPO

SCRIPT = REPO / "scripts" / "postgres.sh"


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"PostgreSQL is required under CI=true: {reason}")
    pytest.skip(f"PostgreSQL not available locally: {reason}")


def postgres_url() -> Iterator[str]:
    """Yield a URL to a fresh database; stop the server and remove its files afterwards.

    The data directory is not under pytest's tmp_path: that is private to root (0700) and the
    server runs as the `postgres` account, which must be able to reach its directory.
    """
    workdir = Path(tempfile.mkdtemp(prefix="railbird-pg-"))
    workdir.chmod(0o755)
    data_dir = workdir / "pg"
    port = str(free_port())
    try:
        done = subprocess.run(
            [str(SCRIPT), "up", str(data_dir), port],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        _unavailable(str(exc))
    if done.returncode != 0:
        _unavailable(done.stderr.strip() or f"postgres.sh exited {done.returncode}")
    try:
        yield done.stdout.strip().splitlines()[-1]
    finally:
        subprocess.run([str(SCRIPT), "down", str(data_dir)], timeout=60, check=False)
        shutil.rmtree(workdir, ignore_errors=True)
