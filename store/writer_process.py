"""Store writes in a child process, so the Kafka worker's core only consumes and detects.

Why a process and not a thread: the write (decode again, redact, build rows, upsert) is mostly
Python, so on a thread it still holds the worker's GIL: a large share of the worker's time even
with no detectors (docs/design-numbers.md). Here the worker hands over the records' raw bytes
(nothing to build, cheap to pickle) plus the few flags and actions; the child decodes them
exactly as the worker did, writes them in one transaction per batch, and acknowledges each
batch's ticket once it is durable. The worker commits a batch's offsets only after that ack, so
at-least-once is kept: a crash of either side replays from the last commit, and every write is
an upsert keyed by a deterministic id. A record the store cannot write is set aside in the
dead-letter table and the rest of its batch stored (`store.batches`); a failing database stops the
worker instead.

Pipes, not `multiprocessing.Queue`: each side holds only its own end, so the child sees EOF the
moment the worker dies (even by SIGKILL) and exits, and the worker sees EOF if the child dies. A
sender thread does the pickling and the (possibly blocking) pipe writes, off the worker's loop;
at most `max_pending` batches wait for it, beyond that a slow store slows the worker down.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import queue
import signal
import threading
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any

from railbird.rules.actions import Action
from railbird.rules.flags import Flag
from railbird.store.batches import Request, SetAsideBudget, write_requests
from railbird.store.database import make_engine
from railbird.store.writer import StoreWriter

log = logging.getLogger(__name__)

# Messages to the child: a `store.batches.Request`, or None = finish and exit.
# Messages back: a ticket (durable), ("set_aside", ticket, n) (durable, n records of it set
# aside in the dead-letter table), or ("error", description).
_Request = Request | None


class StoreFailedError(RuntimeError):
    """A store write failed (or the store process died); the worker must stop without
    committing past it."""


class StoreProcess:
    def __init__(self, database_url: str, max_pending: int = 4) -> None:
        ctx = multiprocessing.get_context("spawn")
        child_requests, self._requests = ctx.Pipe(duplex=False)
        self._acks, child_acks = ctx.Pipe(duplex=False)
        self._process = ctx.Process(
            target=_serve,
            args=(database_url, child_requests, child_acks, logging.getLogger().level),
            name="railbird-store",
            daemon=True,
        )
        self._process.start()
        # Only the child may hold its ends: then a death on either side is an EOF on the other.
        child_requests.close()
        child_acks.close()
        self._outbox: queue.Queue[_Request] = queue.Queue(max_pending)
        # Added, not yet flushed (`add`); only the thread that adds flushes them.
        self._events: list[tuple[str, bytes]] = []
        self._flags: list[Flag] = []
        self._actions: list[Action] = []
        self._submitted = 0
        self._done = 0
        self.set_aside = 0  # records the store could not write, dead-lettered (`store.batches`)
        self._error: str | None = None
        # `railbird run` shares one store between its stages' threads: tickets must be
        # handed out, and acks read, by one thread at a time.
        self._lock = threading.Lock()
        self._sender = threading.Thread(target=self._send, name="railbird-store-send", daemon=True)
        self._sender.start()

    # ---- the Sink the worker writes through ---------------------------------------------------

    def add(
        self,
        events: Sequence[tuple[str, bytes]],
        flags: Sequence[Flag],
        actions: Sequence[Action],
    ) -> None:
        """Take a batch's (event type, raw record) pairs, flags and actions until `flush`."""
        self._events.extend(events)
        self._flags.extend(flags)
        self._actions.extend(actions)

    def add_dead_letter(self, source: str, position: str, reason: str, raw: str | None) -> None:
        """Queued at once, ahead of the batch: the next `flush`'s ticket covers it."""
        self._submit("dead", source, position, reason, raw)

    @property
    def pending(self) -> int:
        return len(self._events)

    def flush(self) -> int:
        """Queue everything added as one write (blocks while `max_pending` writes wait to be
        sent); returns the ticket that covers it and everything queued before."""
        if self._events or self._flags or self._actions:
            self._submit("batch", self._events, self._flags, self._actions)
            self._events, self._flags, self._actions = [], [], []
        return self._submitted

    def durable(self) -> int:
        """The highest ticket whose write (and every earlier one) is durable; never blocks
        (beyond another thread's `wait`)."""
        with self._lock:
            while self._error is None and self._acks.poll():
                self._receive()
            self._raise_if_failed()
            return self._done

    def wait(self, ticket: int | None = None) -> None:
        """Block until `ticket` (default: everything submitted) is durable."""
        with self._lock:
            target = self._submitted if ticket is None else ticket
            while self._done < target and self._error is None:
                self._receive()
            self._raise_if_failed()

    def close(self, timeout: float = 30.0) -> None:
        """Let the child finish what it was sent, then stop it; safe after a failure too.

        Closing our end of the request pipe is what ends the child (EOF), so it ends even if
        the sender thread died; one stuck beyond `timeout` is killed (it ignores SIGTERM).
        """
        if self._sender.is_alive():
            with contextlib.suppress(queue.Full):
                self._outbox.put(None, timeout=timeout)
            self._sender.join(timeout)
        self._requests.close()
        self._process.join(timeout)
        if self._process.is_alive():  # pragma: no cover - a store stuck for `timeout`
            log.error("store process did not exit; killing it")
            self._process.kill()
            self._process.join(5)
        self._acks.close()

    # ---- internals ----------------------------------------------------------------------------

    def _submit(self, *request: Any) -> int:
        with self._lock:
            self._raise_if_failed()
            self._submitted += 1
            # In ticket order: the child acknowledges tickets in the order it receives them.
            self._outbox.put((self._submitted, *request))
            return self._submitted

    def _receive(self) -> None:
        try:
            message = self._acks.recv()
        except (EOFError, OSError):
            self._error = "the store process exited"
            return
        if isinstance(message, int):
            self._done = message
        elif message[0] == "set_aside":
            self._done = message[1]
            self.set_aside += message[2]
        else:
            self._error = str(message[1])

    def _raise_if_failed(self) -> None:
        if self._error is not None:
            raise StoreFailedError(f"store write failed: {self._error}")

    def _send(self) -> None:
        while True:
            request = self._outbox.get()
            try:
                self._requests.send(request)
            except (BrokenPipeError, OSError):
                # The child is gone; `_receive` reports it from the ack pipe's EOF.
                log.error("store process is gone; dropping queued writes")
                return
            if request is None:
                self._requests.close()
                return


def _serve(database_url: str, requests: Connection, acks: Connection, log_level: int) -> None:
    """The child: write what arrived in one transaction, then acknowledge its last ticket.

    Batches that queued up while the previous write ran are written together (up to
    `_COALESCE_EVENTS` events): under load, fewer and larger transactions; when idle, a batch
    is written the moment it arrives.
    """
    # Ctrl-C and a service manager's SIGTERM reach the whole process group: the worker decides
    # when the store ends (it sends None after its last batch, or closes the pipe), so the
    # child goes on until then instead of dying under the worker's last checkpoint.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    logging.basicConfig(level=log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    writer = StoreWriter(make_engine(database_url))
    budget = SetAsideBudget()
    finished = False
    while not finished:
        try:
            requests_ = [requests.recv()]
            size = _events_in(requests_[0])
            while requests_[-1] is not None and size < _COALESCE_EVENTS and requests.poll():
                requests_.append(requests.recv())
                size += _events_in(requests_[-1])
        except EOFError:
            log.info("worker gone: store process exiting")
            return
        if requests_[-1] is None:
            finished = True
            requests_.pop()
        if not requests_:
            return
        try:
            set_aside = write_requests(writer, requests_)  # records it cannot write
            budget.spend(sum(map(_events_in, requests_)), set_aside)
        except Exception as exc:
            log.exception("store write failed; nothing after it will be committed")
            acks.send(("error", f"{type(exc).__name__}: {exc}"))
            return
        ticket = requests_[-1][0]
        acks.send(("set_aside", ticket, set_aside) if set_aside else ticket)


_COALESCE_EVENTS = 20000


def _events_in(request: _Request) -> int:
    return len(request[2]) if request is not None and request[1] == "batch" else 1
