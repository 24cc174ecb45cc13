"""A stage of `railbird run` in a child process: two CPU-bound stages on two cores, not one GIL.

Both the table stage and the keyed stage are CPU-bound Python. On two threads of one process
they take turns on the interpreter lock (docs/benchmarks-kafka.md); in a child process the
second one has a core of its own, and it is the same code as `railbird run --stage keyed`.

The child is tied to its parent, so a worker is still one unit to start and stop:
- it stops (finishing its batch and committing, as on SIGTERM) when the parent stops it, and
  when the parent's end of their pipe closes, which is how it learns that the parent died,
  even by `kill -9`: a stage must not run on as an orphan nobody supervises;
- the parent stops when the child fails, and exits non-zero;
- the child sends its metric families every `PUBLISH_SECONDS` (JSON over the pipe, nothing
  pickled), so the parent's `/metrics` shows every stage of the worker.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import signal
import sys
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection

import orjson

from railbird.ingest.kafka.metrics import RemoteFamilies, StageMetrics

log = logging.getLogger(__name__)

PUBLISH_SECONDS = 0.25
# What runs in the child: (the options as JSON, the stage's name, a metrics hook, a stop
# event) -> exit code. `kafka.launch` gives its stage runner.
ChildMain = Callable[[bytes, str, Callable[[StageMetrics], None], threading.Event], int]


class StageProcess:
    """Starts one stage in a spawned child and follows it."""

    def __init__(self, stage: str, options: bytes, main: ChildMain) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child_end = context.Pipe()
        self._process = context.Process(
            target=_child, args=(main, stage, options, child_end), name=f"railbird-{stage}"
        )
        self._process.start()
        child_end.close()  # ours closed: the child's end alone keeps the pipe open
        log.info("%s stage runs in process %s", stage, self._process.pid)
        self.stage = stage
        self.metrics = RemoteFamilies()
        self._stopping = False
        self._exited = threading.Event()
        self._on_failure: list[Callable[[], None]] = []
        threading.Thread(target=self._listen, name=f"railbird-{stage}-listen", daemon=True).start()

    def _listen(self) -> None:
        while True:
            try:
                self.metrics.update(orjson.loads(self._conn.recv_bytes()))
            except (EOFError, OSError, orjson.JSONDecodeError):
                break
        self._process.join()
        self._exited.set()
        if self.failed():
            log.error("%s stage process exited with code %s", self.stage, self._process.exitcode)
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


def _child(main: ChildMain, stage: str, options: bytes, conn: Connection) -> None:
    stop = threading.Event()
    lock = threading.Lock()
    published: list[StageMetrics] = []

    def watch_parent() -> None:
        with contextlib.suppress(EOFError, OSError):
            conn.recv_bytes()  # the parent never sends: this returns only when its end closes
        if not stop.is_set():
            log.warning("parent worker gone: stopping the %s stage", stage)
            stop.set()

    def send() -> None:
        with lock:
            try:
                conn.send_bytes(orjson.dumps(published[0].families()))
            except OSError:
                stop.set()

    def publish(metrics: StageMetrics) -> None:
        published.append(metrics)

        def loop() -> None:
            while not stop.wait(PUBLISH_SECONDS):
                send()

        threading.Thread(target=loop, name=f"railbird-{stage}-publish", daemon=True).start()

    threading.Thread(target=watch_parent, name=f"railbird-{stage}-parent", daemon=True).start()
    code = main(options, stage, publish, stop)
    if published:
        send()  # the final counts
    conn.close()
    sys.exit(code)
