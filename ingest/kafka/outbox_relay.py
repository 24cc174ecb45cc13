"""The outbox relay: restriction changes from the store's outbox to `moderation.actions`.

Each pass writes the expiries that came due (`store.outbox.sweep_expired`), sends the oldest
pending changes keyed by player (the contract's key for the topic, so one player's changes
stay in order on one partition), waits for the broker's acknowledgement of each, and only then
marks those rows sent. A failure anywhere leaves the rows pending for the next pass, after a
back-off: nothing is lost. A crash between the acknowledgement and the mark re-sends rows with
the same content and `revision`, which an upserting consumer absorbs: nothing is doubled.

One relay per database does the sending: on PostgreSQL a session advisory lock elects it, and
the others wait to take over; SQLite serves one host, where `railbird serve` runs one relay.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime

import orjson
from sqlalchemy import Engine, text

from railbird.ingest.kafka.client_types import Producer
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.store.outbox import mark_sent, pending, prune_sent, sweep_expired

log = logging.getLogger(__name__)

_RELAY_LOCK_KEY = 0x7262_6F75_7462_6F78  # "rboutbox"
ACK_TIMEOUT_S = 30.0
MAX_BACKOFF_S = 30.0
PRUNE_EVERY_S = 3600.0


@dataclass
class RelayCounts:
    """What the relay has done since it started (logged, and read by tests)."""

    sent: int = 0
    failed: int = 0
    expired: int = 0
    passes: int = 0
    errors: list[str] = field(default_factory=list)


class OutboxRelay:
    """Sends the outbox's pending changes; `relay_once` is one pass, `run` loops until told."""

    def __init__(
        self,
        engine: Engine,
        producer: Producer,
        settings: KafkaSettings,
        *,
        batch: int = 500,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._engine = engine
        self._producer = producer
        self._topic = settings.actions_topic
        self._batch = batch
        self._clock = clock
        self._pruned_at = 0.0
        self.counts = RelayCounts()

    def relay_once(self) -> int:
        """Sweep expiries, send one batch, mark what the broker acknowledged; how many were
        sent. Raises on a store error (the caller backs off); a send that fails is counted and
        stays pending."""
        now = self._clock()
        self.counts.passes += 1
        self.counts.expired += sweep_expired(self._engine, now)
        records = pending(self._engine, self._batch)
        if not records:
            self._maybe_prune(now)
            return 0
        sent = [
            (
                r.seq,
                self._producer.send(self._topic, key=r.key.encode(), value=orjson.dumps(r.value)),
            )
            for r in records
        ]
        self._producer.flush(timeout=ACK_TIMEOUT_S)
        acknowledged: list[int] = []
        for seq, future in sent:
            try:
                future.get(timeout=ACK_TIMEOUT_S)
            except Exception as exc:
                self.counts.failed += 1
                self.counts.errors.append(f"{type(exc).__name__}: {exc}")
                del self.counts.errors[:-20]
                continue
            acknowledged.append(seq)
        mark_sent(self._engine, acknowledged, self._clock())
        self.counts.sent += len(acknowledged)
        if len(acknowledged) < len(sent):
            log.warning(
                "outbox relay: %d of %d changes not acknowledged; retried next pass (%s)",
                len(sent) - len(acknowledged),
                len(sent),
                self.counts.errors[-1],
            )
        return len(acknowledged)

    def drain(self, max_passes: int = 1000) -> int:
        """Pass until nothing is pending (or a pass sends nothing); how many were sent."""
        total = 0
        for _ in range(max_passes):
            sent = self.relay_once()
            total += sent
            if sent < self._batch:
                break
        return total

    def run(self, stop: threading.Event, idle_s: float = 0.5) -> None:
        """Pass until `stop` is set, backing off (doubling to `MAX_BACKOFF_S`) after errors."""
        backoff = idle_s
        with _leader(self._engine, stop):
            while not stop.is_set():
                try:
                    sent = self.relay_once()
                except Exception as exc:
                    log.warning("outbox relay: %s; retrying in %.1f s", exc, backoff)
                    stop.wait(backoff)
                    backoff = min(backoff * 2, MAX_BACKOFF_S)
                    continue
                backoff = idle_s
                if sent < self._batch:
                    stop.wait(idle_s)

    def _maybe_prune(self, now: datetime) -> None:
        if time.monotonic() - self._pruned_at >= PRUNE_EVERY_S:
            self._pruned_at = time.monotonic()
            prune_sent(self._engine, now)


@contextmanager
def _leader(engine: Engine, stop: threading.Event) -> Iterator[None]:
    """Hold the relay's advisory lock on PostgreSQL (waiting for it while another relay holds
    it); nothing to hold on SQLite."""
    if engine.dialect.name != "postgresql":
        yield
        return
    conn = engine.connect()
    try:
        while not stop.is_set():
            got = conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": _RELAY_LOCK_KEY})
            conn.commit()
            if got.scalar():
                break
            stop.wait(2.0)
        yield
    finally:
        conn.close()  # ends the session, which releases the lock


class RelayThread:
    """The relay on a daemon thread of a process that does something else (`railbird serve`)."""

    def __init__(self, relay: OutboxRelay) -> None:
        self._relay = relay
        self._stop = threading.Event()
        self._thread = threading.Thread(target=relay.run, args=(self._stop,), daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Finish the pass in progress, then return."""
        self._stop.set()
        self._thread.join(timeout)
