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
from railbird.rules.actions import Action
from railbird.rules.flags import Flag
from railbird.rules.pipeline import Pipeline
from railbird.store.writer import StoreWriter

log = logging.getLogger(__name__)


def _event_time(record: dict[str, Any]) -> str:
    return str(record.get("ended_at") if record.get("type") == "hand" else record.get("ts"))


class LiveFeed(threading.Thread):
    def __init__(
        self,
        records: Iterable[dict[str, Any]],
        pipeline: Pipeline,
        writer: StoreWriter,
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
        self.writer = writer
        self.speed = speed
        self.flush_every = flush_every
        # Records before `live_from` are history: processed at once, without pacing.
        self.live_from = live_from
        self.stopping = threading.Event()
        self.events_done = 0
        self.flags_done = 0

    def stop(self) -> None:
        self.stopping.set()

    def run(self) -> None:
        events: list[AnyEvent] = []
        flags: list[Flag] = []
        actions: list[Action] = []
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
                if events and time.monotonic() - last_flush >= self.flush_every:
                    self._flush(events, flags, actions)
                    last_flush = time.monotonic()
                time.sleep(min(delay, self.flush_every))
            outcome = self.pipeline.process(event)
            events.append(event)
            flags.extend(outcome.flags)
            actions.extend(outcome.actions)
            if time.monotonic() - last_flush >= self.flush_every:
                self._flush(events, flags, actions)
                last_flush = time.monotonic()
        self._flush(events, flags, actions)

    def _flush(self, events: list[AnyEvent], flags: list[Flag], actions: list[Action]) -> None:
        if not events:
            return
        self.writer.write(events, flags, actions)
        self.events_done += len(events)
        self.flags_done += len(flags)
        events.clear()
        flags.clear()
        actions.clear()
