"""A stage of `railbird run` in a child process: the worker's CPU-bound loops on every core.

Each stage is CPU-bound Python. On threads of one process they take turns on the interpreter
lock: a worker running both stages in one process (9.3k events/s) was slower than either
stage alone (13.8k tables, 11.5k site, one run in docs/benchmarks-kafka.md). So the site stage
runs in a child process, and so does every table-stage member past the first (the
worker's own process runs that one): `RAILBIRD_KAFKA_TABLE_PROCESSES`, one per CPU by default.
A child is the same code as `railbird run --stage site` / `--stage tables`.

A child is tied to its parent, so a worker is still one unit to start and stop:
- it stops (finishing its batch and committing, as on SIGTERM) when the parent stops it, and
  when the parent's end of their pipe closes, which is how it learns that the parent died,
  even by `kill -9`: a stage must not run on as an orphan that nobody supervises;
- the parent stops when a child fails, and exits non-zero;
- the child sends a snapshot of its metrics every `PUBLISH_SECONDS`, so the parent's `/metrics`
  shows every stage and member, as if they all ran in one process;
- the table stage's members join their group one after the other, each as soon as the one
  before has joined (`join_in_turn`): a child says `READY` once it has its clients, waits for
  the parent's `GO`, and says `JOINED` once it is a member; no member processes anything
  before the last has joined (the parent then says `START`). Started freely, the parent, ready a
  second or two before its spawned children, took every partition, processed, and lost most of
  them to the next rebalance with its commits failing (records done twice, flags sent twice);
  started at the same instant, two kafka-python 3.0.12 members can leave a new group stuck
  mid-rebalance (see tests/integration/test_kafka_pipeline.py).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import multiprocessing
import signal
import sys
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from detectors.registry import build_detectors
from ingest.kafka_metrics import Samples, WorkerMetrics
from ingest.kafka_settings import KafkaSettings
from ingest.kafka_stages import StageName, stage_detectors

log = logging.getLogger(__name__)

PUBLISH_SECONDS = 0.25
READY, GO, JOINED, START = "ready", "go", "joined", "start"
# How long the parent waits for a child's READY, then its JOINED, before it goes on without
# (a child that never gets there fails, and its failure stops the worker).
START_TIMEOUT_SECONDS = 60.0
# The command-line options the child needs; the rest come from the same environment.
_CHILD_OPTIONS = ("no_store", "exit_when_idle", "verbose")


class RemoteMetrics:
    """The child's latest metrics snapshot, read by the parent's `/metrics` like its own."""

    def __init__(self, stage: str, member: str = "") -> None:
        self.stage = stage
        self.member = member
        self._samples: Samples = []

    def samples(self) -> Samples:
        return self._samples  # replaced whole, never mutated: a reader sees one snapshot

    def update(self, samples: Samples) -> None:
        self._samples = samples


class StageProcess:
    """Starts a stage (the site stage, or a table-stage member) in a spawned child and follows
    it. `member` names a table-stage member in the metrics' labels ("" for the site stage)."""

    def __init__(
        self,
        args: argparse.Namespace,
        stage: StageName = "site",
        member: str = "",
        target: Callable[[dict[str, Any], Connection], None] | None = None,
    ) -> None:
        """`target` runs in the child (default: the stage; tests pass a stand-in)."""
        context = multiprocessing.get_context("spawn")
        self._conn, child_end = context.Pipe()
        options = {name: getattr(args, name, None) for name in _CHILD_OPTIONS}
        options.update(stage=stage, member=member)
        self.stage = stage
        self.name = f"{stage} stage" + (f" (member {member})" if member else "")
        self._process = context.Process(
            target=target or _child_main,
            args=(options, child_end),
            name=f"railbird-{stage}{member}",
            daemon=False,
        )
        self._process.start()
        child_end.close()  # ours closed: the child's end alone keeps the pipe open
        self.metrics = RemoteMetrics(stage, member)
        self._stopping = False
        self._exited = threading.Event()
        self._ready, self._joined = threading.Event(), threading.Event()
        self._on_failure: list[Callable[[], None]] = []
        listener = threading.Thread(target=self._listen, name=f"{self._process.name}-listen")
        listener.daemon = True
        listener.start()

    def _listen(self) -> None:
        while True:
            try:
                message = self._conn.recv()
            except (EOFError, OSError):
                break
            if message == READY:
                self._ready.set()
            elif message == JOINED:
                self._joined.set()
            else:
                self.metrics.update(message)
        self._process.join()
        self._exited.set()
        self._ready.set()  # nothing more to wait for
        self._joined.set()
        if self.failed():
            log.error("%s process exited with code %s", self.name, self._process.exitcode)
            for callback in self._on_failure:
                callback()

    def wait_ready(self, timeout: float) -> bool:
        """Whether the child said it is ready to consume (or ended) within `timeout` s."""
        return self._ready.wait(timeout)

    def wait_joined(self, timeout: float) -> bool:
        """Whether the child said it joined its group (or ended) within `timeout` s."""
        return self._joined.wait(timeout)

    def go(self) -> None:
        self._send(GO)

    def start(self) -> None:
        self._send(START)

    def _send(self, message: str) -> None:
        with contextlib.suppress(OSError):
            self._conn.send(message)

    def on_failure(self, callback: Callable[[], None]) -> None:
        """Call `callback` if the child ends with an error (now, if it already has)."""
        self._on_failure.append(callback)
        if self.failed():
            callback()

    def failed(self) -> bool:
        return self._exited.is_set() and self._exit_code() != 0

    def stop(self) -> None:
        """SIGTERM: the child finishes its batch, commits and exits (idempotent)."""
        self._stopping = True
        if self._process.is_alive():
            self._process.terminate()

    def wait(self) -> int:
        # The listener joins the child when its pipe closes, which is when the child ends. Not
        # joined here as well: two threads reaping one child race, and the loser reads no exit
        # code ("exited with code None").
        self._exited.wait()
        return self._exit_code()

    def _exit_code(self) -> int:
        code = self._process.exitcode
        if code is None:
            return 1
        # Stopped while still starting (spawn re-imports the program before the child's own
        # SIGTERM handler exists): it had consumed nothing, so nothing was lost.
        if code == -signal.SIGTERM and self._stopping:
            return 0
        return code


def join_in_turn(
    children: list[StageProcess],
    all_joined: threading.Event,
    timeout: float = START_TIMEOUT_SECONDS,
) -> None:
    """Let each child join once it is ready, the next only once this one has joined its
    group (or ended, or `timeout` passed); then let every member process (`all_joined`, and
    `START` to the children). Called once the caller's own member has joined."""
    for child in children:
        if not child.wait_ready(timeout):
            log.warning("%s not ready after %.0f s: going on", child.name, timeout)
        child.go()
        if not child.wait_joined(timeout):
            log.warning("%s not joined after %.0f s: going on", child.name, timeout)
    all_joined.set()
    for child in children:
        child.start()


def release(child: StageProcess, timeout: float = START_TIMEOUT_SECONDS) -> None:
    """Let a child that joins a group of its own (the site stage) start as soon as it is ready."""
    if not child.wait_ready(timeout):
        log.warning("%s not ready after %.0f s: going on", child.name, timeout)
    child.go()
    child.start()


def _child_main(options: dict[str, Any], conn: Connection) -> None:
    from railbird.run_command import run_stage  # imports this module: not at the top

    logging.basicConfig(
        level=logging.INFO if options.get("verbose") else logging.WARNING,
        format=f"%(asctime)s %(levelname)s %(name)s [{options['stage']}{options['member']}]: "
        "%(message)s",
        stream=sys.stderr,
    )
    stage: StageName = options["stage"]
    stop, go, start = threading.Event(), threading.Event(), threading.Event()
    lock = threading.Lock()
    published: list[WorkerMetrics] = []  # the stage's metrics, once it has them

    def watch_parent() -> None:
        with contextlib.suppress(EOFError, OSError):
            while True:  # ends in an error when the parent's end closes
                (go if conn.recv() == GO else start).set()
        if not stop.is_set():
            log.warning("parent worker gone: stopping the %s stage", stage)
            stop.set()
        go.set()
        start.set()

    def tell(message: str) -> None:
        with lock, contextlib.suppress(OSError):
            conn.send(message)

    def ready() -> None:
        tell(READY)
        while not go.wait(0.2) and not stop.is_set():  # stopped while waiting: go on, to end
            pass

    def send() -> None:
        with lock:
            try:
                conn.send(published[0].samples())
            except OSError:
                stop.set()

    def publish(metrics: WorkerMetrics) -> None:
        published.append(metrics)

        def loop() -> None:
            while not stop.wait(PUBLISH_SECONDS):
                send()

        threading.Thread(target=loop, name="railbird-publish", daemon=True).start()

    threading.Thread(target=watch_parent, name="railbird-parent", daemon=True).start()
    settings = KafkaSettings()
    settings.metrics_port = 0  # the parent serves /metrics, with this stage's snapshots
    detectors = stage_detectors(build_detectors(only=settings.detector_names()), stage)
    args = argparse.Namespace(**options, metrics_port=None)
    code = run_stage(
        args,
        settings,
        (stage, detectors),
        stop=stop,
        on_metrics=publish,
        on_ready=ready,
        on_joined=lambda: tell(JOINED),
        hold=start,
    )
    if published:
        send()  # the final counts
    conn.close()
    sys.exit(code)
