"""A simulated day split into its events and its truth, for the simulator's own tests."""

from __future__ import annotations

from typing import Any

from railbird.sim.config import SimConfig
from railbird.sim.run import simulate

Records = list[dict[str, Any]]


def events_and_truth(config: SimConfig) -> tuple[Records, Records]:
    events: Records = []
    truth: Records = []
    for kind, record in simulate(config):
        (events if kind == "event" else truth).append(record)
    return events, truth
