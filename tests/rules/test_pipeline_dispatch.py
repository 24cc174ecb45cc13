"""`Pipeline.process` gives what its former loop gave: outcomes, metrics, clock.

The loop was trimmed (events counted in a plain dict, the event's time read without the
property, empty findings not iterated, the flag list made only when needed). The reference is
the former `process`, verbatim; a simulated hour through every detector, with events locally
out of order, a detector that fails on some events and one that re-finds with rising severity,
must match event by event.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

import pytest

from railbird.detectors.events import AnyEvent, ChatEvent, event_from_dict
from railbird.detectors.findings import Evidence, Finding, Severity
from railbird.detectors.registry import build_detectors
from railbird.detectors.state import State
from railbird.rules.actions import Action
from railbird.rules.flags import Flag
from railbird.rules.pipeline import _NOTHING, Outcome, Pipeline, log, medium_of
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate
from tests.builders import chat, table


class OldPipeline(Pipeline):
    def process(self, event: AnyEvent) -> Outcome:
        now = event.time
        self.metrics.events[event.type] += 1
        flags: list[Flag] = []
        if now > self.clock.now:
            self.clock.now = now
        for detect, state, name in self._runs[event.type]:
            try:
                findings = detect(event, state)
            except Exception:
                self.metrics.detector_errors[name] += 1
                log.exception("detector %s failed on event %s", name, event.event_id)
                continue
            for finding in findings:
                flag = Flag.from_finding(finding)
                if self._is_new_or_worse(flag):
                    flags.append(flag)
        if not flags:
            return _NOTHING
        actions: list[Action] = []
        for flag in flags:
            self.metrics.flags[flag.category] += 1
            decided = self.rulebook.decide(flag, medium_of(event))
            for action in decided:
                self.metrics.actions[action.kind] += 1
            actions.extend(decided)
            log.info(
                "flag %s %s %s -> %s",
                flag.flag_id,
                flag.category,
                flag.severity,
                ",".join(a.kind for a in decided) or "none",
            )
        return Outcome(tuple(flags), tuple(actions))


@dataclass(frozen=True, slots=True)
class Flaky:
    """Fails on every seventh event it sees, whatever its type."""

    name: ClassVar[str] = "flaky"

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if sum(map(ord, event.event_id)) % 7 == 0:
            raise RuntimeError("bug in a detector")
        return []


@dataclass(frozen=True, slots=True)
class Climbing:
    """Re-finds one thing on chat, severity from the message id: repeats, rises, falls."""

    name: ClassVar[str] = "climbing"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        assert isinstance(event, ChatEvent)
        levels: list[Severity] = ["low", "medium", "high", "critical"]
        severity = levels[sum(map(ord, event.message_id)) % 4]
        return [
            Finding(
                detector=self.name,
                category="spam",
                severity=severity,
                score=0.5,
                ts=event.ts,
                player_ids=(event.player_id,),
                evidence=Evidence(kind="test", summary="same finding"),
                dedupe_key=f"burst-{event.player_id}",
            )
        ]


@pytest.fixture(scope="module")
def hour() -> list[AnyEvent]:
    config = SimConfig(seed=2, tournaments=1, cash_tables=2, hours=1.0, players_per_tournament=45)
    events = [event_from_dict(e) for kind, e in simulate(config) if kind == "event"]
    rng = random.Random(2)
    for i in range(len(events) - 1):  # locally out of order: the clock must not go back
        if rng.random() < 0.1:
            events[i], events[i + 1] = events[i + 1], events[i]
    return events


def test_an_hour_through_every_detector_matches_the_former_loop(hour: list[AnyEvent]) -> None:
    detectors = [*build_detectors(), Flaky(), Climbing()]
    new, old = Pipeline(detectors), OldPipeline(detectors)
    kinds: Counter[str] = Counter()
    for event in hour:
        got, expected = new.process(event), old.process(event)
        assert got == expected, event
        assert new.clock.now == old.clock.now
        kinds[event.type] += 1
    assert kinds["hand"] > 0 and kinds["table"] > 0 and kinds["chat"] > 0
    assert new.metrics == old.metrics
    assert new.metrics.detector_errors["flaky"] > 0 and sum(new.metrics.flags.values()) > 20
    assert new.state_size() == old.state_size()


def test_events_are_counted_per_type_and_only_types_seen() -> None:
    pipeline = Pipeline([])
    assert pipeline.metrics.events == Counter() and not list(pipeline.metrics.events)
    pipeline.process(chat("hi", t=1))
    pipeline.process(chat("hi", t=2))
    pipeline.process(table("join", t=3, player="p-2"))
    assert dict(pipeline.metrics.events) == {"chat": 2, "table": 1}  # no zero "hand" entry
    pipeline.process(chat("hi", t=4))
    assert pipeline.metrics.events["chat"] == 3


def test_the_clock_takes_the_time_property_of_each_event_type(hour: list[AnyEvent]) -> None:
    """A hand's time is its end; a late event never moves the clock back (near miss)."""
    firsts = {e.type: e for e in reversed(hour)}
    assert set(firsts) == {"chat", "table", "hand"}
    for event in firsts.values():
        pipeline = Pipeline([])
        pipeline.process(event)
        assert pipeline.clock.now == event.time
    pipeline = Pipeline([])
    pipeline.process(chat("later", t=100))
    pipeline.process(chat("earlier", t=99))
    assert pipeline.clock.now == chat("x", t=100).time
