"""The one path every mode runs: event -> detectors -> flags -> rules -> actions.

`scan`, the demo and the Kafka workers all call `Pipeline.process`, so a file replay and a live
stream produce the same flags. A detector that raises is caught here, counted and logged with the
event id, and skipped for that event: one bug must not stop moderation of the whole site.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from railbird.detectors import state_codec
from railbird.detectors.detector import EVENT_TYPES, Detector, consumed_types
from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.findings import SEVERITY_RANK, Finding
from railbird.detectors.state import EventClock, TtlState
from railbird.rules.actions import Action
from railbird.rules.flags import Flag
from railbird.rules.policy import RuleBook

log = logging.getLogger(__name__)


def changed_settings(old: Detector, new: Detector) -> list[str]:
    """The constructor fields whose values differ between two builds of one detector."""
    if not dataclasses.is_dataclass(old) or type(old) is not type(new):
        return []
    return [
        f.name
        for f in dataclasses.fields(old)
        if f.init and getattr(old, f.name) != getattr(new, f.name)
    ]


def medium_of(event: AnyEvent) -> str:
    """The kind of message that raised a flag (text, emoji, snapcam); "text" for non-chat."""
    return event.kind if isinstance(event, ChatEvent) else "text"


# How long the pipeline remembers a flag it emitted, to suppress repeats of the same finding.
EMITTED_MEMORY = timedelta(days=2)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one event produced."""

    flags: tuple[Flag, ...] = ()
    actions: tuple[Action, ...] = ()


_NOTHING = Outcome()  # immutable, so most events can share one


@dataclass
class PipelineMetrics:
    """Counts since start: events by type, flags by category, actions by kind, detector errors."""

    events: Counter[str] = field(default_factory=Counter)
    flags: Counter[str] = field(default_factory=Counter)
    actions: Counter[str] = field(default_factory=Counter)
    detector_errors: Counter[str] = field(default_factory=Counter)


class Pipeline:
    """The detectors, each with its own state, then the rulebook: every mode's event -> actions.

    Detector names must be unique, since each names its state; a duplicate is a `ValueError`.
    With `decide` False the rules are left to an escalation stage (`rules.escalation`): the
    pipeline returns flags and no actions, as each Kafka stage does.
    """

    def __init__(
        self,
        detectors: Sequence[Detector],
        rulebook: RuleBook | None = None,
        *,
        decide: bool = True,
    ) -> None:
        names = [d.name for d in detectors]
        if len(set(names)) != len(names):
            raise ValueError(f"detector names must be unique: {names}")
        self.detectors = tuple(detectors)
        self.rulebook = rulebook if rulebook is not None else RuleBook()
        self.decides = decide
        # One event clock for every detector's state: moved once per event, not per detector.
        self.clock = EventClock()
        self.states: dict[str, TtlState] = {d.name: TtlState(self.clock) for d in detectors}
        self._emitted = TtlState()
        self._metrics = PipelineMetrics()
        # Events seen per type, in a plain dict: a `Counter` increment is dearer (a dict
        # subclass), once per event. `metrics` copies it into `events` when read.
        self._seen: dict[str, int] = dict.fromkeys(EVENT_TYPES, 0)
        self._runs = self._runs_by_type()

    def _runs_by_type(self) -> dict[str, tuple[tuple[Any, TtlState, str], ...]]:
        """Per event type, the detectors that read it, each beside its state: the loop in
        `detect` is the hot path, and a chat message need not visit the hand-only detectors.
        Bound methods are looked up once here rather than twice per detector per event."""
        return {
            kind: tuple(
                (d.detect, self.states[d.name], d.name)
                for d in self.detectors
                if kind in consumed_types(d)
            )
            for kind in EVENT_TYPES
        }

    def reconfigure(self, detectors: Sequence[Detector]) -> list[str]:
        """Run `detectors` from the next event on in place of the ones of the same names: the
        same detectors with a reloaded policy's settings. Each keeps what it remembers unless
        a setting that changed is one its `state_reset_by` names (its memory was shaped by
        the old value); returns the names whose memory starts over. Other names are a
        `ValueError`: adding or removing a detector is a restart, not a reload."""
        running = sorted(d.name for d in self.detectors)
        given = sorted(d.name for d in detectors)
        if given != running:
            raise ValueError(f"reconfigure needs the same detectors: {given} is not {running}")
        by_name = {d.name: d for d in detectors}
        reset: list[str] = []
        for old in self.detectors:
            new = by_name[old.name]
            resets: frozenset[str] = getattr(new, "state_reset_by", frozenset())
            if resets & set(changed_settings(old, new)):
                self.states[old.name] = TtlState(self.clock)
                reset.append(old.name)
        self.detectors = tuple(by_name[d.name] for d in self.detectors)
        self._runs = self._runs_by_type()
        return reset

    @property
    def metrics(self) -> PipelineMetrics:
        """The counts so far: one object, its `events` brought up to date on each read."""
        events = self._metrics.events
        for kind, seen in self._seen.items():
            if seen:
                events[kind] = seen
        return self._metrics

    def process(self, event: AnyEvent) -> Outcome:
        """Run `event` through the detectors that read its type, then the rules.

        Returns the flags that are new (or more severe than when last emitted) and the actions
        the rules take on them; most events return the shared empty outcome.
        """
        found = self.detect(event)
        if found is None:
            return _NOTHING
        flags: list[Flag] | None = None
        for finding in found:
            flag = Flag.from_finding(finding)
            if self._is_new_or_worse(flag):
                if flags is None:
                    flags = []
                flags.append(flag)
        if flags is None:
            return _NOTHING
        metrics = self._metrics
        actions: list[Action] = []
        medium = medium_of(event)
        for flag in flags:
            metrics.flags[flag.category] += 1
            decided = self.rulebook.decide(flag, medium) if self.decides else []
            for action in decided:
                metrics.actions[action.kind] += 1
            actions.extend(decided)
            log.info(
                "flag %s %s %s -> %s",
                flag.flag_id,
                flag.category,
                flag.severity,
                ",".join(a.kind for a in decided) or "none",
            )
        return Outcome(tuple(flags), tuple(actions))

    def detect(self, event: AnyEvent) -> list[Finding] | None:
        """The detectors' findings on `event`, before flags and rules (None: there are none).

        What a pre-moderation check needs, and the first half of `process`. A detector that
        raises is counted in `metrics.detector_errors`, logged with the event id and skipped.
        """
        kind = event.type
        self._seen[kind] += 1
        now = event.time
        clock = self.clock
        if now > clock.now:
            clock.now = now
        found: list[Finding] | None = None
        for detect, state, name in self._runs[kind]:
            try:
                findings = detect(event, state)
            except Exception:
                self._metrics.detector_errors[name] += 1
                log.exception("detector %s failed on event %s", name, event.event_id)
                continue
            if findings:  # nearly always empty: the test is cheaper than extending
                if found is None:
                    found = list(findings)
                else:
                    found.extend(findings)
        return found

    def run(self, events: Iterable[AnyEvent]) -> Iterable[Outcome]:
        """`process` each event, yielding only the outcomes that flag something."""
        for event in events:
            outcome = self.process(event)
            if outcome.flags:
                yield outcome

    def snapshot(self, routes: Callable[[Hashable], bool] | None = None) -> bytes:
        """Everything the pipeline remembers, as bytes (`state_codec`, no pickle): each
        detector's state (the entries whose routing key `routes` accepts, or all), the
        emitted-flag memory, the rulebook's strikes, the event clock, and the routing keys held.
        `restore` of these bytes into a pipeline of the same detectors resumes exactly where
        this one is."""
        keep = None if routes is None else (lambda key: routes(key[0]))
        states = {name: state.live_entries(keep) for name, state in self.states.items()}
        held = sorted({key[0] for entries in states.values() for key, _, _ in entries}, key=repr)
        return state_codec.encode(
            {
                "clock": self.clock.now,
                "states": states,
                "routes": held,
                "emitted": self._emitted.live_entries(),
                "strikes": self.rulebook.strikes.live_entries(),
            }
        )

    def restore(self, data: bytes) -> list[Hashable]:
        """Merge a `snapshot` into this pipeline's memory (a taken-over partition's state): a
        key held here and in the snapshot keeps the copy that expires later. Decoded whole
        before anything changes, so a snapshot that cannot be read changes nothing
        (`StateCodecError`). A detector the snapshot has and this pipeline lacks (removed or
        renamed since) is skipped. Returns the routing keys the snapshot held."""
        saved = state_codec.decode(data)
        for name in sorted(set(saved["states"]) - set(self.states)):
            log.warning("snapshot holds state of detector %r, which is not running: skipped", name)
        self.clock.advance(saved["clock"])
        for name, entries in saved["states"].items():
            state = self.states.get(name)
            if state is not None:
                state.load(entries)
        self._emitted.advance(saved["clock"])
        self._emitted.load(saved["emitted"])
        self.rulebook.strikes.load(saved["strikes"])
        routes: list[Hashable] = saved.get("routes", [])
        return routes

    def drop_routing_keys(self, routing_keys: Iterable[Hashable]) -> int:
        """Forget detector state for tables this worker no longer owns (Kafka rebalance)."""
        keys = set(routing_keys)
        return sum(state.drop_routing_keys(keys) for state in self.states.values())

    def state_size(self) -> int:
        """Entries in the detectors' states and the emitted-flag memory; expired ones excluded."""
        return sum(len(s) for s in self.states.values()) + len(self._emitted)

    def _is_new_or_worse(self, flag: Flag) -> bool:
        """A re-found flag is re-emitted (same id) only if its severity went up."""
        self._emitted.advance(flag.finding.ts)
        key = (flag.flag_id,)
        rank = SEVERITY_RANK[flag.severity]
        previous = self._emitted.get(key)
        if previous is not None and previous >= rank:
            return False
        self._emitted.put(key, rank, EMITTED_MEMORY)
        return True
