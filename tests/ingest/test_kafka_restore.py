"""Exact under faults, without a broker (`tests.ingest.kafka_memory`): the whole topology on an
in-memory log gives `scan`'s flags and actions however its partitions are handed over; and a
run cut at random points (snapshots taken at one, commits at a later one, a crash later still),
restored from those snapshots and replayed, ends with the state of a run that never stopped:
every task of every stage, every detector's state (not only the flags), every lane and view.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import itertools
import random
from collections import Counter, OrderedDict, defaultdict, deque
from datetime import datetime, timedelta
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from railbird.detectors import state_codec
from railbird.detectors.events import event_from_dict
from railbird.detectors.registry import build_detectors
from railbird.rules.pipeline import Pipeline
from railbird.sim.config import ChatRates, SimConfig
from railbird.sim.run import simulate

from .kafka_memory import STAGES, Cut, MemoryRun

Outputs = dict[str, dict[str, Any]]


@dataclasses.dataclass(frozen=True)
class Day:
    events: list[dict[str, Any]]
    flags: Outputs  # scan's, each id's last version
    actions: Outputs


@functools.cache
def _day() -> Day:
    """Three quarters of an hour of two tournaments and a cash table, with every keying's
    violations: tournament collusion, lobby bot waves, private in-hand talk."""
    config = SimConfig(
        seed=7,
        tournaments=2,
        cash_tables=1,
        hours=0.75,
        players_per_tournament=36,
        violation_scale=4.0,
        team_intensity=0.9,
        rates=ChatRates(bot_waves_per_hour=4.0),
    )
    events = [e for kind, e in simulate(config) if kind == "event"]
    pipeline = Pipeline(build_detectors())
    flags: Outputs = {}
    actions: Outputs = {}
    for event in events:
        outcome = pipeline.process(event_from_dict(event))
        flags.update((f.flag_id, orjson.loads(orjson.dumps(f.to_dict()))) for f in outcome.flags)
        actions.update(
            (a.action_id, {**orjson.loads(orjson.dumps(a.to_dict())), "status": "applied"})
            for a in outcome.actions
        )
    detectors = {f["detector"] for f in flags.values()}
    assert {"coordinated_sit_out", "lobby_waves", "in_hand_influence"} <= detectors
    assert any(f["evidence"]["measures"].get("private") for f in flags.values())
    return Day(events, flags, actions)


@pytest.fixture
def day() -> Day:
    return _day()


@functools.cache
def _uninterrupted() -> MemoryRun:
    run = MemoryRun(_day().events)
    run.run(random.Random(0), most=25)
    return run


def _assert_scans(run: MemoryRun, day: Day) -> None:
    flags = run.outputs(run.settings.flags_topic, "flag_id")
    actions = run.outputs(run.settings.actions_topic, "action_id")
    assert sorted(set(day.flags) - set(flags)) == [], "missing flags"
    assert sorted(set(flags) - set(day.flags)) == [], "extra flags"
    assert [k for k in day.flags if flags[k] != day.flags[k]] == [], "changed flags"
    assert sorted(set(day.actions) ^ set(actions)) == [], "missing or extra actions"
    assert [k for k in day.actions if actions[k] != day.actions[k]] == [], "changed actions"


@pytest.mark.parametrize(("seed", "most"), [(1, 3), (2, 40), (3, 500)])
def test_the_topology_gives_scans_flags_and_actions_however_records_arrive(
    day: Day, seed: int, most: int
) -> None:
    """Chunks of 0-3 records a partition a poll, or whole partitions at once: the stages'
    interleaving changes, what they find does not."""
    run = MemoryRun(day.events)
    run.run(random.Random(seed), most)
    _assert_scans(run, day)


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 1000),
    snapshot_at=st.integers(0, 60),
    commit_after=st.integers(0, 30),
    crash_after=st.integers(0, 30),
)
def test_restored_snapshots_and_replay_end_with_the_state_of_a_run_that_never_stopped(
    seed: int,
    snapshot_at: int,
    commit_after: int,
    crash_after: int,
) -> None:
    day = _day()
    rng = random.Random(seed)
    run = MemoryRun(day.events)
    cut = Cut()
    run.run(rng, most=25, steps=snapshot_at)
    run.take_snapshots(cut)
    run.run(rng, most=25, steps=commit_after)
    run.take_commits(cut)
    run.run(rng, most=25, steps=crash_after)  # what these send is out, uncommitted: sent again
    run.crash(cut)
    run.run(rng, most=25)
    assert _states(run) == _states(_uninterrupted())  # every detector's, every lane's
    _assert_scans(run, day)


def _states(run: MemoryRun) -> dict[tuple[str, int], Any]:
    """Every task's state, decoded to comparable data."""
    found: dict[tuple[str, int], Any] = {}
    for name in STAGES:
        stage = run.stages[name]
        for task in run.tasks(name):
            taken = stage.snapshot(task)
            assert taken is not None
            state, _covered = taken  # offsets differ: a crash sends some records twice
            found[(name, task)] = _decode(name, state)
    return found


def _decode(stage: str, state: bytes) -> Any:
    if stage == "escalation":
        ladder = state_codec.decode(state)
        # Its memory of offences seen (to drop copies sent again) lives 2 days from when each
        # arrived, and arrival interleaves the sources as the network pleases: the same keys
        # and values, not the same expiries, whoever sent first.
        ladder["seen"] = [(key, None, value) for key, _expires, value in ladder["seen"]]
        return _canon(ladder, top=True)
    parts = orjson.loads(state)
    for name in ("table", "hand"):
        if name in parts:
            parts[name] = _canon(state_codec.decode(base64.b64decode(parts[name])), top=True)
    for name, data in parts.get("pipelines", {}).items():
        parts["pipelines"][name] = _canon(state_codec.decode(base64.b64decode(data)), top=True)
    return parts


def _canon(value: Any, top: bool = False) -> Any:
    """Plain comparable data. A state's entries are listed in the order they were put, which a
    restore cannot keep for keys that had expired (and been re-put) in the uninterrupted run:
    `top` lists of (key, expiry, value) entries are sorted by key."""
    kind = type(value)
    if kind in (dict, Counter, OrderedDict, defaultdict):
        return {repr(_canon(k)): _canon(v, top=top) for k, v in value.items()}
    if kind in (list, deque):
        items = [_canon(v) for v in value]
        if top and all(type(v) is tuple and len(v) == 3 for v in value):
            items.sort(key=repr)
        return items
    if kind is tuple:
        return ("t", [_canon(v) for v in value])
    if kind in (set, frozenset):
        return ("s", sorted((_canon(v) for v in value), key=repr))
    if isinstance(value, datetime | timedelta | itertools.count):
        return repr(value)
    if value is None or isinstance(value, bool | int | float | str | bytes):
        return value
    # One of railbird's state classes (a dataclass, a slotted class, a dict or list of ours).
    attrs = {name: getattr(value, name) for name in _attribute_names(value) if hasattr(value, name)}
    items: Any = []
    if isinstance(value, dict):
        items = [(_canon(k), _canon(v)) for k, v in value.items()]
    elif isinstance(value, list):
        items = [_canon(v) for v in value]
    return (kind.__qualname__, _canon(attrs), items)


def _attribute_names(value: Any) -> list[str]:
    if dataclasses.is_dataclass(value):
        return [f.name for f in dataclasses.fields(value)]
    names = [s for c in type(value).__mro__ for s in getattr(c, "__slots__", ())]
    return [*names, *getattr(value, "__dict__", {})]
