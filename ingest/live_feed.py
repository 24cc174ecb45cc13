"""Feeds a stream of event records into the pipeline and the store at wall-clock pace.

This is the demo's stand-in for the Kafka topics: same decode -> pipeline -> store path, but the
records come from the simulator and are released when their event time comes due.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from railbird.detectors.events import AnyEvent, EventError, event_from_dict
from railbird.ingest.sink import Sink
from railbird.rules.pipeline import Pipeline

log = logging.getLogger(__name__)


def _event_time(record: dict[str, Any]) -> str:
    return str(record.get("ended_at") if record.get("type") == "hand" else record.get("ts"))


class LiveFeed(threading.Thread):
    def __init__(
        self,
        records: Iterable[dict[str, Any]],
        pipeline: Pipeline,
        sink: Sink[AnyEvent],
        *,
        speed: float = 1.0,
        flush_every: float = 0.5,
        live_from: datetime | None = None,
    ) -> None:
        super().__init__(name="railbird-live-feed", daemon=True)
        if speed <= 0:
            raise ValueError("speed must be positive")
        self.records = records
        self.pipeline = pipeline
        self.sink = sink
        self.speed = speed
        self.flush_every = flush_every
        # Records before `live_from` are history: processed at once, without pacing.
        self.live_from = live_from
        self.stopping = threading.Event()
        self.events_done = 0
        self.flags_done = 0
        self._flags_pending = 0  # flags added to the sink since its last flush

    def stop(self) -> None:
        self.stopping.set()

    def run(self) -> None:
        wall_start = time.monotonic()
        sim_start: datetime | None = None
        last_flush = wall_start
        for number, record in enumerate(self.records, start=1):
            if self.stopping.is_set():
                break
            try:
                event = event_from_dict(record, where=f"simulated record {number}")
            except EventError as exc:
                log.warning("skipping %s", exc)
                continue
            sim_start = sim_start or max(event.time, self.live_from or event.time)
            due = wall_start + (event.time - sim_start).total_seconds() / self.speed
            while (delay := due - time.monotonic()) > 0 and not self.stopping.is_set():
                if self.sink.pending and time.monotonic() - last_flush >= self.flush_every:
                    self._flush()
                    last_flush = time.monotonic()
                time.sleep(min(delay, self.flush_every))
            outcome = self.pipeline.process(event)
            self.sink.add((event,), outcome.flags, outcome.actions)
            self._flags_pending += len(outcome.flags)
            if time.monotonic() - last_flush >= self.flush_every:
                self._flush()
                last_flush = time.monotonic()
        self._flush()

    def _flush(self) -> None:
        events = self.sink.pending
        if not events:
            return
        self.sink.flush()
        self.events_done += events
        self.flags_done += self._flags_pending
        self._flags_pending = 0
