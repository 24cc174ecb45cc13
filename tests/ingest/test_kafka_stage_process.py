"""A stage in a child process is supervised: these run real spawned children (stand-ins for
a Kafka stage, which the integration tests run for real) to pin what the parent does."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from railbird.ingest.kafka.metrics import StageMetrics
from railbird.ingest.kafka.stage_process import StageProcess


def _publishes_then_exits(
    options: bytes, stage: str, publish: Callable[[StageMetrics], None], stop: threading.Event
) -> int:
    metrics = StageMetrics(stage)
    publish(metrics)
    return 3 if options == b"fail" else 0


def _sleeps(
    options: bytes, stage: str, publish: Callable[[StageMetrics], None], stop: threading.Event
) -> int:
    time.sleep(60)  # no SIGTERM handler, like a child still importing the program
    return 0


def test_a_failing_child_is_reported_and_calls_back_with_its_exit_code() -> None:
    failed = threading.Event()
    child = StageProcess("keyed", b"fail", _publishes_then_exits)
    child.on_failure(failed.set)
    assert child.wait() == 3
    assert failed.wait(5) and child.failed()
    # Its last metric families came over the pipe (as JSON) before it exited.
    names = [family[0] for family in child.metrics.families()]
    assert "records" in names and "assigned_partition" in names


def test_a_child_that_ends_cleanly_is_not_a_failure() -> None:
    failed = threading.Event()
    child = StageProcess("keyed", b"ok", _publishes_then_exits)
    child.on_failure(failed.set)
    assert child.wait() == 0
    assert not child.failed() and not failed.is_set()


def test_a_child_stopped_before_it_could_handle_sigterm_counts_as_a_clean_stop() -> None:
    """Spawn re-imports the program before the child's handler exists; SIGTERM then kills it
    outright. It had consumed nothing, so the worker's SIGTERM must still end in exit 0."""
    child = StageProcess("keyed", b"", _sleeps)
    time.sleep(0.5)
    child.stop()
    assert child.wait() == 0
    assert not child.failed()
