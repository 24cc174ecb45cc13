"""A stage's child process is supervised: these run real spawned children (stand-ins
for the Kafka stage, which the integration tests run for real) to pin what the parent does."""

from __future__ import annotations

import argparse
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from railbird.stage_process import GO, JOINED, READY, START, StageProcess, join_in_turn


def _publishes_then_exits(options: dict[str, Any], conn: Connection) -> None:
    conn.send([("flags_total", "counter", [("", 3)])])
    conn.close()
    sys.exit(3 if options.get("no_store") else 0)


def _sleeps(_options: dict[str, Any], _conn: Connection) -> None:
    time.sleep(60)  # no SIGTERM handler, like a child still importing the program


def test_a_failing_child_is_reported_and_calls_back_with_its_exit_code() -> None:
    failed = threading.Event()
    child = StageProcess(argparse.Namespace(no_store=True), target=_publishes_then_exits)
    child.on_failure(failed.set)
    assert child.wait() == 3
    assert failed.wait(5) and child.failed()
    assert child.metrics.samples() == [("flags_total", "counter", [("", 3)])]


def test_a_child_that_ends_cleanly_is_not_a_failure() -> None:
    failed = threading.Event()
    child = StageProcess(argparse.Namespace(no_store=False), target=_publishes_then_exits)
    child.on_failure(failed.set)
    assert child.wait() == 0
    assert not child.failed() and not failed.is_set()


def test_a_child_stopped_before_it_could_handle_sigterm_counts_as_a_clean_stop() -> None:
    """Spawn re-imports the program before the child's handler exists; SIGTERM then kills it
    outright. It had consumed nothing, so the worker's SIGTERM must still end in exit 0."""
    child = StageProcess(argparse.Namespace(), target=_sleeps)
    time.sleep(0.5)
    child.stop()
    assert child.wait() == 0
    assert not child.failed()


def _member(_options: dict[str, Any], conn: Connection) -> None:
    """A table-stage member's side of the start: READY, wait for GO, JOINED 0.3 s later (its
    join taking time), wait for START; then report when GO and START came."""
    conn.send(READY)
    assert conn.recv() == GO
    go_at = time.time()
    time.sleep(0.3)
    joined_at = time.time()
    conn.send(JOINED)
    assert conn.recv() == START
    conn.send([("times", "gauge", [("go", go_at), ("joined", joined_at), ("start", time.time())])])
    conn.close()


def test_members_join_one_after_the_other_and_start_only_once_all_have_joined() -> None:
    """Members joining a new group at the same instant can leave kafka-python stuck
    mid-rebalance; one processing before the others joined would redo work after the next
    rebalance. So: each GO only after the previous member's JOINED; START after the last."""
    args = argparse.Namespace()
    members = [StageProcess(args, "tables", str(n), target=_member) for n in (2, 3)]
    all_joined = threading.Event()
    join_in_turn(members, all_joined, timeout=30)
    assert all_joined.is_set()
    assert [member.wait() for member in members] == [0, 0]
    second, third = (
        {label: float(value or 0) for label, value in member.metrics.samples()[0][2]}
        for member in members
    )
    assert third["go"] >= second["joined"]  # the next joins once this one has
    last_joined = max(second["joined"], third["joined"])
    assert second["start"] >= last_joined and third["start"] >= last_joined
