"""The site stage's child process is supervised: these run real spawned children (stand-ins
for the Kafka stage, which the integration tests run for real) to pin what the parent does."""

from __future__ import annotations

import argparse
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from railbird.ingest.kafka.site_process import SiteStageProcess


def _publishes_then_exits(options: dict[str, Any], conn: Connection) -> None:
    conn.send([("flags_total", "counter", [("", 3)])])
    conn.close()
    sys.exit(3 if options.get("no_store") else 0)


def _sleeps(_options: dict[str, Any], _conn: Connection) -> None:
    time.sleep(60)  # no SIGTERM handler, like a child still importing the program


def test_a_failing_child_is_reported_and_calls_back_with_its_exit_code() -> None:
    failed = threading.Event()
    child = SiteStageProcess(argparse.Namespace(no_store=True), target=_publishes_then_exits)
    child.on_failure(failed.set)
    assert child.wait() == 3
    assert failed.wait(5) and child.failed()
    assert child.metrics.samples() == [("flags_total", "counter", [("", 3)])]


def test_a_child_that_ends_cleanly_is_not_a_failure() -> None:
    failed = threading.Event()
    child = SiteStageProcess(argparse.Namespace(no_store=False), target=_publishes_then_exits)
    child.on_failure(failed.set)
    assert child.wait() == 0
    assert not child.failed() and not failed.is_set()


def test_a_child_stopped_before_it_could_handle_sigterm_counts_as_a_clean_stop() -> None:
    """Spawn re-imports the program before the child's handler exists; SIGTERM then kills it
    outright. It had consumed nothing, so the worker's SIGTERM must still end in exit 0."""
    child = SiteStageProcess(argparse.Namespace(), target=_sleeps)
    time.sleep(0.5)
    child.stop()
    assert child.wait() == 0
    assert not child.failed()
