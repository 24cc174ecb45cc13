"""Store writes on their own thread, so a Kafka worker's loop never stalls on a transaction.

Why: the worker stores what it processed every `commit_interval_ms`; done inline, that write
(hundreds of rows, an fsync) holds up the next poll, and every record arriving meanwhile waits
for it: a latency spike per checkpoint. Here writes queue up (bounded, so a slow store slows the
worker instead of growing memory) and run in submission order; each gets a ticket, and the
worker commits a batch's offsets only once its ticket is done (at-least-once is kept).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


class StoreFailedError(RuntimeError):
    """A background store write raised; the worker must stop without committing past it."""


class StoreThread:
    def __init__(self, max_pending: int = 4) -> None:
        self._queue: queue.Queue[tuple[int, Callable[[], None]] | None] = queue.Queue(max_pending)
        self._lock = threading.Condition()
        self._submitted = 0
        self._done = 0
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="railbird-store", daemon=True)
        self._thread.start()

    def submit(self, write: Callable[[], None]) -> int:
        """Queue `write`; blocks while `max_pending` writes are waiting. Returns its ticket."""
        self._raise_if_failed()
        self._submitted += 1
        self._queue.put((self._submitted, write))
        return self._submitted

    @property
    def submitted(self) -> int:
        return self._submitted

    def done(self) -> int:
        """The highest ticket whose write (and every earlier one) is durable."""
        self._raise_if_failed()
        return self._done

    def wait(self, ticket: int | None = None) -> None:
        """Block until `ticket` (default: everything submitted) is durable."""
        target = self._submitted if ticket is None else ticket
        with self._lock:
            self._lock.wait_for(lambda: self._done >= target or self._error is not None)
        self._raise_if_failed()

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join()

    def _raise_if_failed(self) -> None:
        if self._error is not None:
            raise StoreFailedError("store write failed") from self._error

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            ticket, write = item
            if self._error is None:
                try:
                    write()
                except Exception as exc:
                    log.exception("store write failed; nothing after it will be committed")
                    with self._lock:
                        self._error = exc
                        self._lock.notify_all()
                    continue
            with self._lock:
                if self._error is None:
                    self._done = ticket
                self._lock.notify_all()
