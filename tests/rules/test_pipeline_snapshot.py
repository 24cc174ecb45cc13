"""A pipeline's memory written out and read back: the basis of state that survives restarts.

The exactness test is the one that matters: a simulated day run straight through, and the
same day cut in two with the first half's memory snapshotted and restored into a fresh
pipeline, must give the same flags and actions after the cut, every detector included. The
cut falls hours into the day, with tournaments, teams and escalation ladders mid-way.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, OrderedDict, defaultdict, deque
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from railbird.detectors import state_codec
from railbird.detectors.chat.bursts import Room
from railbird.detectors.events import AnyEvent, event_from_dict
from railbird.detectors.registry import build_detectors
from railbird.rules.pipeline import Pipeline
from railbird.sim.config import SimConfig
from tests.sim.days import events_and_truth

DAY = SimConfig(
    seed=4,
    tournaments=2,
    players_per_tournament=150,
    cash_tables=3,
    hours=2.0,
    bounty_share=1.0,
    violation_scale=2.0,
)


@pytest.fixture(scope="module")
def events() -> list[AnyEvent]:
    return [event_from_dict(e) for e in events_and_truth(DAY)[0]]


def _outputs(pipeline: Pipeline, events: list[AnyEvent]) -> list[tuple[int, str, Any]]:
    out: list[tuple[int, str, Any]] = []
    for k, event in enumerate(events):
        outcome = pipeline.process(event)
        out += [(k, "flag", f.to_dict()) for f in outcome.flags]
        out += [(k, "action", a.to_dict()) for a in outcome.actions]
    return out


@pytest.mark.parametrize("cut_share", [0.35, 0.7])
def test_a_restored_snapshot_resumes_exactly_where_the_pipeline_was(
    events: list[AnyEvent], cut_share: float
) -> None:
    cut = int(len(events) * cut_share)
    straight = _outputs(Pipeline(build_detectors()), events)
    first = Pipeline(build_detectors())
    _outputs(first, events[:cut])
    data = first.snapshot()
    resumed = Pipeline(build_detectors())
    resumed.restore(data)
    after = [(k + cut, kind, out) for k, kind, out in _outputs(resumed, events[cut:])]
    expected = [row for row in straight if row[0] >= cut]
    assert after == expected
    categories = Counter(out["category"] for _, kind, out in expected if kind == "flag")
    assert len(categories) >= 8, categories  # the cut was tested on many detectors' state
    assert any(kind == "action" for _, kind, _ in expected)


def test_a_snapshot_of_some_routes_holds_only_their_state(events: list[AnyEvent]) -> None:
    pipeline = Pipeline(build_detectors())
    _outputs(pipeline, events[: len(events) // 2])
    tables = sorted({e.table_id for e in events if e.type == "table"})
    keep = set(tables[:2])
    restored = Pipeline(build_detectors())
    restored.restore(pipeline.snapshot(lambda route: route in keep))
    routes = {key[0] for state in restored.states.values() for key, _, _ in state.live_entries()}
    assert routes and routes <= keep


@dataclass(slots=True)
class _NotOurs:
    x: int = 1


def test_the_codec_round_trips_every_kind_of_value_and_keeps_shared_references() -> None:
    room = Room()
    shared = [1, 2]
    value = {
        ("t-1", "chat"): (shared, shared),
        "set": {1, "a", (2, 3)},
        "frozen": frozenset({"x"}),
        "counter": Counter({"a": 2}),
        "ordered": OrderedDict([("b", 1), ("a", 2)]),
        "default": defaultdict(list, {"k": [1]}),
        "queue": deque([1, 2], maxlen=5),
        "time": datetime(2026, 11, 29, 20, 0, tzinfo=UTC),
        "span": timedelta(minutes=90, microseconds=5),
        "floats": [math.inf, -math.inf, 0.1],
        "big": 2**80,
        "count": itertools.count(7),
        "room": room,
        "room again": room,
    }
    back = state_codec.decode(state_codec.encode(value))
    assert back[("t-1", "chat")][0] is back[("t-1", "chat")][1]
    assert back["room"] is back["room again"] and isinstance(back["room"], Room)
    assert back["set"] == value["set"] and isinstance(back["frozen"], frozenset)
    assert back["counter"] == value["counter"] and isinstance(back["counter"], Counter)
    assert list(back["ordered"]) == ["b", "a"] and back["default"]["new"] == []
    assert back["queue"].maxlen == 5 and list(back["queue"]) == [1, 2]
    assert back["time"] == value["time"] and back["time"].tzinfo is not None
    assert back["span"] == value["span"] and back["floats"] == value["floats"]
    assert back["big"] == 2**80 and next(back["count"]) == 7
    assert math.isnan(state_codec.decode(state_codec.encode(math.nan)))


@pytest.mark.parametrize(
    "value", [_NotOurs(), print, lambda: 1, object(), defaultdict(lambda: 0)], ids=repr
)
def test_the_codec_refuses_to_write_what_it_could_not_read_safely(value: object) -> None:
    with pytest.raises(state_codec.StateCodecError):
        state_codec.encode(value)


def test_the_codec_refuses_to_build_classes_outside_railbirds_state() -> None:
    import zlib

    import orjson

    for name in ("os:system", "subprocess:Popen", "railbird.detectors.state:nope"):
        tree = ["o", 0, name, []]
        data = bytes([state_codec.FORMAT]) + zlib.compress(orjson.dumps(tree))
        with pytest.raises(state_codec.StateCodecError):
            state_codec.decode(data)
    with pytest.raises(state_codec.StateCodecError):
        state_codec.decode(b"\x09junk")


@pytest.mark.parametrize(
    "tree",
    [
        ["r", 99],  # a reference to nothing
        ["dd", 0, "eval", []],  # a factory that is not allowed
        ["o", 0, "railbird.detectors.gone_module:Thing", []],  # a class renamed away
        ["l"],  # a tree of the wrong shape
        {"not": "a tree"},
    ],
    ids=repr,
)
def test_any_broken_snapshot_is_one_kind_of_error(tree: Any) -> None:
    import zlib

    import orjson

    data = bytes([state_codec.FORMAT]) + zlib.compress(orjson.dumps(tree))
    with pytest.raises(state_codec.StateCodecError):
        state_codec.decode(data)


def test_a_snapshot_that_inflates_past_the_cap_is_refused() -> None:
    data = state_codec.encode(["x" * 10_000])
    with pytest.raises(state_codec.StateCodecError, match="inflates past"):
        state_codec.decode(data, max_bytes=1_000)


def test_restoring_keeps_the_later_copy_and_reports_the_routes_it_held(
    events: list[AnyEvent],
) -> None:
    half = events[: len(events) // 3]
    first = Pipeline(build_detectors())
    _outputs(first, half)
    data = first.snapshot()
    again = Pipeline(build_detectors())
    routes = again.restore(data)
    assert routes and set(routes) == {
        key[0] for state in first.states.values() for key, _, _ in state.live_entries()
    }
    before = {n: s.live_entries() for n, s in again.states.items()}
    again.restore(data)  # the same copy again: nothing changes
    assert {n: s.live_entries() for n, s in again.states.items()} == before


def test_a_snapshot_of_a_detector_no_longer_running_is_skipped(events: list[AnyEvent]) -> None:
    full = Pipeline(build_detectors())
    _outputs(full, events[:2000])
    fewer = Pipeline([d for d in build_detectors() if d.name != "bounty_collusion"])
    fewer.restore(full.snapshot())
    assert "bounty_collusion" not in fewer.states
