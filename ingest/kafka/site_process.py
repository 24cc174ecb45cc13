"""The site stage of `railbird run` in a child process: two stages on two cores, not one GIL.

Both stages are CPU-bound Python. On two threads of one process they took turns on the
interpreter lock, so a worker running both was slower than either stage alone (measured in
docs/benchmarks-kafka.md, numbers in docs/design-numbers.md). In a child process the site
stage has a core of its own; it is the same code as `railbird run --stage site`.

The child is tied to its parent, so a worker is still one unit to start and stop:
- it stops (finishing its batch and committing, as on SIGTERM) when the parent stops it, and
  when the parent's end of their pipe closes, which is how it learns that the parent died,
  even by `kill -9`: a site stage must not run on as an orphan that nobody supervises;
- the parent stops when the child fails, and exits non-zero;
- the child sends a snapshot of its metrics every `PUBLISH_SECONDS`, so the parent's `/metrics`
  shows both stages, as it did when both ran in one process.
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

from railbird.detectors.registry import build_detectors
from railbird.ingest.kafka.metrics import Samples, WorkerMetrics
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.kafka.stages import stage_detectors

log = logging.getLogger(__name__)

PUBLISH_SECONDS = 0.25
# The command-line options the child needs; the rest come from the same environment.
_CHILD_OPTIONS = ("no_store", "exit_when_idle", "verbose")


class RemoteMetrics:
    """The child's latest metrics snapshot, read by the parent's `/metrics` like its own."""

    def __init__(self, stage: str) -> None:
        self.stage = stage
        self._samples: Samples = []

    def samples(self) -> Samples:
        return self._samples  # replaced whole, never mutated: a reader sees one snapshot

    def update(self, samples: Samples) -> None:
        self._samples = samples


class SiteStageProcess:
    """Starts the site stage in a spawned child and follows it."""

    def __init__(
        self,
        args: argparse.Namespace,
        target: Callable[[dict[str, object], Connection], None] | None = None,
    ) -> None:
        """`target` runs in the child (default: the site stage; tests pass a stand-in)."""
        context = multiprocessing.get_context("spawn")
        self._conn, child_end = context.Pipe()
        options = {name: getattr(args, name, None) for name in _CHILD_OPTIONS}
        self._process = context.Process(
            target=target or _child_main,
            args=(options, child_end),
            name="railbird-site",
            daemon=False,
        )
        self._process.start()
        child_end.close()  # ours closed: the child's end alone keeps the pipe open
        self.metrics = RemoteMetrics("site")
        self._stopping = False
        self._exited = threading.Event()
        self._on_failure: list[Callable[[], None]] = []
        threading.Thread(target=self._listen, name="railbird-site-listen", daemon=True).start()

    def _listen(self) -> None:
        while True:
            try:
                self.metrics.update(self._conn.recv())
            except (EOFError, OSError):
                break
        self._process.join()
        self._exited.set()
        if self.failed():
            log.error("site stage process exited with code %s", self._process.exitcode)
            for callback in self._on_failure:
                callback()

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


def _child_main(options: dict[str, object], conn: Connection) -> None:
    from railbird.ingest.kafka.stage_runner import run_stage  # imports this module: not at the top

    logging.basicConfig(
        level=logging.INFO if options.get("verbose") else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s [site]: %(message)s",
        stream=sys.stderr,
    )
    stop = threading.Event()
    lock = threading.Lock()
    published: list[WorkerMetrics] = []  # the stage's metrics, once it has them

    def watch_parent() -> None:
        with contextlib.suppress(EOFError, OSError):
            conn.recv()  # the parent never sends: this returns only when its end closes
        if not stop.is_set():
            log.warning("parent worker gone: stopping the site stage")
            stop.set()

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

        threading.Thread(target=loop, name="railbird-site-publish", daemon=True).start()

    threading.Thread(target=watch_parent, name="railbird-site-parent", daemon=True).start()
    settings = KafkaSettings()
    settings.metrics_port = 0  # the parent serves /metrics, with this stage's snapshots
    detectors = stage_detectors(build_detectors(only=settings.detector_names()), "site")
    args = argparse.Namespace(**options, stage="site", metrics_port=None)
    code = run_stage(args, settings, ("site", detectors), stop=stop, on_metrics=publish)
    if published:
        send()  # the final counts
    conn.close()
    sys.exit(code)
